//! The expert AI (Monte Carlo tree search): it takes an obvious winning
//! move with a small playout budget, it is deterministic for a seed and a
//! playout budget, and the script's defaults are the engine's.

use tessera_azul::ai::{AiSettings, AzulAgent, Level};
use tessera_azul::rules::{Move, Rules, State};
use tessera_azul::{Azul, settings};
use tessera_host::agent::{Budget, Decision, ThinkControl, Thinking, agent_rng};
use tessera_host::plugin::Scripted;
use tessera_host::{Script, ScriptLimits};

/// Both players have wall row 1 full but for its orange cell; factory 1
/// holds the one orange tile in play. Player 1 (to move) trails 10 to 12:
/// orange on line 1 scores 5 (a run of five), ends the game at this
/// tiling with the row bonus, 17 against at most 15. Any other move lets
/// player 2 take the orange and win.
fn winning_row() -> State {
    let mut s = State::new(Rules::default(), 2);
    for p in 0..2 {
        for colour in 0..4 {
            // Row 0 holds colour c in column c.
            s.boards[p].wall |= 1 << colour;
            s.boards[p].colours[colour] |= 1 << colour;
            s.bag[colour] -= 1;
        }
    }
    s.boards[0].score = 10;
    s.boards[1].score = 12;
    for (factory, tiles) in [(0, [4u8, 0, 0, 1]), (1, [2, 2, 3, 3])] {
        for c in tiles {
            s.bag[c as usize] -= 1;
            s.factories[factory][c as usize] += 1;
            s.on_table += 1;
        }
    }
    assert_eq!(s.tile_count(), 100);
    s
}

fn expert_move(state: &State, settings: AiSettings, seed: u64) -> Decision<Move> {
    let mut agent = AzulAgent::new(Level::Expert, settings);
    let control = ThinkControl::default();
    let mut rng = agent_rng(seed, 0, 0);
    let mut thinking = Thinking::new(&mut rng, Budget::unbounded(), &control);
    agent.decide_state(state, &mut thinking).unwrap()
}

fn small_budget(playouts: u64) -> AiSettings {
    let mut settings = AiSettings::default();
    settings.expert.playouts = playouts;
    // The playout budget decides, never the clock.
    settings.expert.seconds = 1000.0;
    settings
}

#[test]
fn expert_completes_the_winning_row_with_few_playouts() {
    let state = winning_row();
    let win = Move {
        source: 0,
        colour: 4,
        target: 0,
    };
    for seed in [1, 2, 3] {
        // The script's defaults: mostly its own score, partly the contest.
        let decision = expert_move(&state, small_budget(300), seed);
        assert_eq!(
            decision.action, win,
            "seed {seed}: {:?}",
            decision.considered
        );
        // Playing only to win, the win stands out: its mean reward (a win
        // by 3 or more, at least 0.5 + 0.5 x (0.5 + 0.5 tanh(3/20))) well
        // above the next move's, which loses if player 2 answers with the
        // orange (most playouts do).
        let mut contest = small_budget(300);
        contest.expert.own_weight = 0.0;
        let decision = expert_move(&state, contest, seed);
        assert_eq!(
            decision.action, win,
            "seed {seed}: {:?}",
            decision.considered
        );
        // The top-5 explanation: the chosen move first, with its value.
        let c = &decision.considered;
        assert_eq!(c.len(), 5);
        assert_eq!(c[0].action, tessera_azul::ai::describe(win));
        assert!(c[0].value >= 0.78, "{c:?}");
        assert!(c[1].value < c[0].value - 0.1, "{c:?}");
    }
}

#[test]
fn expert_is_deterministic_for_a_seed_and_a_playout_budget() {
    let mut state = State::new(Rules::default(), 2);
    state.deal(&mut tessera_host::rng::game_rng(7), None);
    let a = expert_move(&state, small_budget(2000), 11);
    let b = expert_move(&state, small_budget(2000), 11);
    assert_eq!(a.action, b.action);
    let values = |d: &Decision<Move>| -> Vec<(String, f64, String)> {
        d.considered
            .iter()
            .map(|c| (c.action.clone(), c.value, c.detail.clone()))
            .collect()
    };
    assert_eq!(values(&a), values(&b));
    // Every one of the 2000 playouts is counted at the root's children.
    let visits: u64 = a
        .considered
        .iter()
        .map(|c| c.detail.split(' ').next().unwrap().parse::<u64>().unwrap())
        .sum();
    assert!(visits > 0 && visits <= 2000, "{visits}");
}

#[test]
fn the_scripts_ai_numbers_are_the_engines_defaults() {
    let path = tessera_testkit::repo_path("scripts/azul.lua");
    let schema = <Azul as Scripted>::script_schema();
    let script = Script::load_file(&path, Some(&schema), ScriptLimits::default()).unwrap();
    assert_eq!(
        settings::ai_settings(&script).unwrap(),
        AiSettings::default()
    );
}

#[test]
fn root_parallel_trees_decide_the_same_for_a_seed_and_a_playout_budget() {
    let mut state = State::new(Rules::default(), 2);
    state.deal(&mut tessera_host::rng::game_rng(9), None);
    let mut settings = small_budget(3000);
    settings.expert.threads = 3;
    let runs: Vec<Decision<Move>> = (0..3).map(|_| expert_move(&state, settings, 5)).collect();
    let visits = |d: &Decision<Move>| -> Vec<(String, String)> {
        d.considered
            .iter()
            .map(|c| (c.action.clone(), c.detail.clone()))
            .collect()
    };
    for run in &runs[1..] {
        assert_eq!(run.action, runs[0].action);
        assert_eq!(visits(run), visits(&runs[0]));
    }
    // Three trees share the budget: every playout is counted once.
    let control = ThinkControl::default();
    let mut rng = agent_rng(5, 0, 0);
    let mut thinking = Thinking::new(&mut rng, Budget::unbounded(), &control);
    AzulAgent::new(Level::Expert, settings)
        .decide_state(&state, &mut thinking)
        .unwrap();
    assert_eq!(control.nodes(), 3000);
    assert!(control.note().contains("on 3 trees"), "{}", control.note());
}

#[test]
fn the_expert_keeps_the_subtree_of_the_moves_played() {
    use tessera_azul::ai::ExpertMemory;
    let mut state = State::new(Rules::default(), 2);
    state.deal(&mut tessera_host::rng::game_rng(3), None);
    let mut settings = small_budget(4000);
    settings.expert.threads = 2;
    let memory = ExpertMemory::default();
    let decide = |state: &State, seat: usize, step: u64| {
        let control = ThinkControl::default();
        let mut rng = agent_rng(1, seat, step);
        let mut thinking = Thinking::new(&mut rng, Budget::unbounded(), &control);
        let decision = AzulAgent::new(Level::Expert, settings)
            .with_memory(memory.clone(), seat)
            .decide_state(state, &mut thinking)
            .unwrap();
        (decision, control.note())
    };
    let (first, note) = decide(&state, 0, 0);
    assert!(note.contains("(0 reused)"), "{note}");
    state.play(first.action);
    // The opponent (another seat, its own memory slot) replies.
    let (reply, _) = decide(&state, 1, 1);
    state.play(reply.action);
    let (_, note) = decide(&state, 0, 2);
    let reused: u64 = note
        .split(" (")
        .nth(1)
        .and_then(|r| r.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    assert!(reused > 0, "{note}");
    // A table the trees never saw (a new deal) starts fresh.
    let mut other = State::new(Rules::default(), 2);
    other.deal(&mut tessera_host::rng::game_rng(4), None);
    let (_, note) = decide(&other, 0, 3);
    assert!(note.contains("(0 reused)"), "{note}");
}
