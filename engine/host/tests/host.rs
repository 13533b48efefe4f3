//! The plugin host, proven with the Nim test game: sessions through the
//! registry, options and seats, actions as RON, AI agents off the calling
//! thread, replays that reproduce a session (script reloads included).

use super::testkit as common;

use std::path::Path;
use std::time::Duration;

use common::nim::{NIM_SCRIPT, Nim, NimAction, NimLevel};
use tessera_host::registry::ReplaySetup;
use tessera_host::replay::{LevelChoice, ScriptChoice, Step};
use tessera_host::worker::Job;
use tessera_host::{
    Budget, Capability, Game, GameError, LiveScript, Outcome, Recorded, Registrar, Registry,
    Script, ScriptLimits, Scripted, Seat, SessionOptions, Turn, downcast,
};

fn nim_script() -> LiveScript {
    LiveScript::new(nim_script_text(NIM_SCRIPT))
}

fn nim_script_text(text: &str) -> Script {
    let schema = Nim::script_schema();
    Script::load(
        Path::new("scripts/nim.lua"),
        text,
        Some(&schema),
        ScriptLimits::default(),
    )
    .expect("the test script is valid")
}

fn registry() -> Registry {
    let mut registry = Registry::empty();
    registry.register::<Nim>();
    registry
}

fn no_options() -> SessionOptions {
    SessionOptions::default()
}

fn ai_vs_ai() -> SessionOptions {
    let ai = Seat::Ai {
        level: "perfect".into(),
    };
    SessionOptions {
        mode: None,
        seats: vec![ai.clone(), ai],
    }
}

fn recorded_setup() -> ReplaySetup {
    ReplaySetup {
        script: ScriptChoice::Recorded,
        level: LevelChoice::Recorded,
        stop_after: None,
    }
}

#[test]
fn registry_starts_a_session_from_a_level_file_and_plays_it() {
    let dir = tempfile::tempdir().unwrap();
    let level = dir.path().join("five.ron");
    std::fs::write(&level, "(version: 1, stones: 5)").unwrap();
    let registry = registry();
    let entry = registry.get("nim").expect("nim is registered");
    assert_eq!(entry.title, "Nim (test game)");

    let mut session = entry
        .start(Some(&level), nim_script(), 7, &no_options())
        .unwrap();
    assert_eq!(session.game_id(), "nim");
    assert_eq!(
        session.legal_actions_ron(),
        vec!["Take(1)", "Take(2)", "Take(3)"]
    );
    session.apply_ron("Take(3)").unwrap();
    session.apply_ron("Take(2)").unwrap();
    assert_eq!(session.outcome(), Outcome::Winner(1));
    let nim = downcast::<Nim>(session.as_ref()).expect("a nim session");
    assert_eq!(nim.game().scores(), [6, 4]);
    assert_eq!(
        session.render_text(),
        "pile   0 ||\nto move: player 1\nscores: 6 / 4\n"
    );
}

#[test]
fn illegal_and_unreadable_actions_are_refused_without_changing_state() {
    let mut session =
        Recorded::<Nim>::start(NimLevel::default(), nim_script(), 1, &no_options()).unwrap();
    let err = session.apply(&NimAction::Take(4)).unwrap_err();
    assert!(matches!(err, GameError::Illegal(_)), "{err}");
    assert_eq!(
        err.to_string(),
        "illegal action: take 4: must take 1 to 3 stones"
    );
    assert_eq!(session.game().pile(), 10);

    let mut erased: Box<dyn tessera_host::Session> = Box::new(session);
    let err = erased.apply_ron("Grab(2)").unwrap_err();
    assert!(matches!(err, GameError::BadAction(_)), "{err}");
    assert!(err.to_string().contains("Grab"), "{err}");
}

/// A refused action changes nothing, so it is kept out of the record:
/// no undo point (Undo enabled, then "nothing to undo"), no step in the
/// replay a resume or "Save as test" writes; the refusal is still told.
#[test]
fn a_refused_action_reaches_neither_the_undo_stack_nor_the_record() {
    let mut session =
        Recorded::<Nim>::start(NimLevel::default(), nim_script(), 1, &no_options()).unwrap();
    let _ = session.take_new_events();
    assert!(session.apply(&NimAction::Take(4)).is_err());
    assert!(!session.can_undo(), "a refused action made an undo point");
    assert_eq!(session.step_count(), 0, "a refused action was recorded");
    assert!(session.replay().steps.is_empty());
    assert!(session.trajectory().rows.is_empty());
    let told = session.take_new_events();
    assert!(
        told.iter().any(|e| e.text.contains("refused")),
        "the refusal is not told: {told:?}"
    );
    session.apply(&NimAction::Take(2)).unwrap();
    assert!(session.can_undo());
    assert_eq!(session.step_count(), 1);
    assert_eq!(session.undo_move().unwrap(), Some(0));
}

#[test]
fn options_are_resolved_against_the_spec() {
    let session =
        Recorded::<Nim>::start(NimLevel::default(), nim_script(), 1, &no_options()).unwrap();
    assert_eq!(session.options().mode(), "play");
    assert_eq!(
        session.options().seats,
        vec![
            Seat::Human,
            Seat::Ai {
                level: "perfect".into()
            }
        ]
    );
    assert_eq!(session.turn(), Turn::Seat(0));
    assert_eq!(session.ai_to_move(), None, "the human moves first");

    let three = SessionOptions {
        mode: None,
        seats: vec![Seat::Human; 3],
    };
    let err = Recorded::<Nim>::start(NimLevel::default(), nim_script(), 1, &three)
        .err()
        .unwrap();
    assert_eq!(err.to_string(), "3 seats given; this game is played by 2");
    let bad_level = SessionOptions {
        mode: None,
        seats: vec![Seat::Human, "ai:god".parse().unwrap()],
    };
    let err = Recorded::<Nim>::start(NimLevel::default(), nim_script(), 1, &bad_level)
        .err()
        .unwrap();
    assert_eq!(
        err.to_string(),
        "seat `ai:god`: no AI level `god` (levels: perfect)"
    );
}

#[test]
fn the_ai_seat_answers_with_the_winning_move_on_a_worker_thread() {
    let mut session =
        Recorded::<Nim>::start(NimLevel::default(), nim_script(), 1, &no_options()).unwrap();
    session.apply(&NimAction::Take(1)).unwrap();
    assert_eq!(session.ai_to_move(), Some(1));
    // 9 stones, take at most 3: leaving a multiple of 4 means taking 1.
    let task = session.ai_task(1).unwrap();
    let mut job = Job::spawn("nim ai", move |control| task.run(control));
    let decision = job
        .wait(Duration::from_secs(30))
        .expect("the job ends")
        .unwrap();
    assert_eq!(decision.action, NimAction::Take(1));
    session.apply_decision(&decision).unwrap();
    assert_eq!(session.game().pile(), 8);
    let trajectory = session.trajectory().render();
    assert!(
        trajectory.contains("   2 | ai:perfect (seat 2) Take(1) | scores 2 / 2"),
        "{trajectory}"
    );
}

#[test]
fn an_ai_decision_repeats_for_the_same_seed_and_step() {
    // From 8 stones (a lost position) the AI picks at random, from its own
    // stream: the same session gives the same pick.
    let level = NimLevel {
        version: 1,
        stones: 8,
        random_extra: 0,
    };
    let picks: Vec<NimAction> = (0..2)
        .map(|_| {
            let mut session =
                Recorded::<Nim>::start(level.clone(), nim_script(), 5, &ai_vs_ai()).unwrap();
            session.play_ai_turn(Budget::unbounded()).unwrap().unwrap()
        })
        .collect();
    assert_eq!(picks[0], picks[1]);
}

#[test]
fn the_erased_session_runs_ai_tasks_too() {
    let registry = registry();
    let entry = registry.get("nim").unwrap();
    let mut session = entry.start(None, nim_script(), 3, &ai_vs_ai()).unwrap();
    assert_eq!(session.spec().ai_levels, vec!["perfect".to_string()]);
    let mut moves = 0;
    while let Some(seat) = session.ai_to_move() {
        let task = session.ai_task(seat, Budget::nodes(100)).unwrap();
        let decision = task.run(&tessera_host::ThinkControl::new()).unwrap();
        session.apply_ai(decision).unwrap();
        moves += 1;
    }
    assert_eq!(session.turn(), Turn::Over);
    // Perfect play from 10 stones: the first player takes 2 and wins.
    assert_eq!(session.outcome(), Outcome::Winner(0));
    assert!(moves >= 3, "{moves}");
}

/// Issue 48: agents are a value, so a crate that does not own the game's
/// type (this test, for Nim) registers them beside the game's own
/// capabilities; a game registered without them starts, offers its seats,
/// and refuses an AI move plainly.
#[test]
fn agents_registered_from_outside_the_game_play_and_without_them_the_refusal_is_plain() {
    let without_agents = |game: &mut Registrar<Nim>| {
        game.scripted().seats(Nim::spec).reports();
    };
    let mut registry = Registry::empty();
    registry.register_with::<Nim>(without_agents);
    let entry = registry.get("nim").unwrap();
    assert!(!entry.has(Capability::Agents));
    assert!(entry.has(Capability::Reports));
    assert_eq!(
        entry.require(Capability::Agents),
        Err("nim has no AI seats".to_string())
    );
    let session = entry.start(None, nim_script(), 3, &ai_vs_ai()).unwrap();
    assert!(session.ai().is_none());
    assert_eq!(session.ai_to_move(), Some(0), "the seat is an AI seat");
    let refusal = session.ai_task(0, Budget::nodes(100)).err().unwrap();
    assert!(
        refusal.to_string().contains("nim has no AI seats"),
        "{refusal}"
    );

    registry.register_with::<Nim>(|game| {
        without_agents(game);
        game.agents(|nim: &Nim, seat, level| nim.agent(seat, level));
    });
    let entry = registry.get("nim").unwrap();
    assert!(entry.has(Capability::Agents));
    let mut session = entry.start(None, nim_script(), 3, &ai_vs_ai()).unwrap();
    while let Some(seat) = session.ai_to_move() {
        let task = session.ai_task(seat, Budget::nodes(100)).unwrap();
        let decision = task.run(&tessera_host::ThinkControl::new()).unwrap();
        session.apply_ai(decision).unwrap();
    }
    // The same moves as Nim registering its own agents, step for step.
    let own = registry_played_out(3);
    assert_eq!(session.replay_ron().unwrap(), own);
    assert_eq!(session.outcome(), Outcome::Winner(0));
}

/// Nim, registered by its own `Plugin::register`, played AI against AI
/// from `seed`: its replay.
fn registry_played_out(seed: u64) -> String {
    let registry = registry();
    let entry = registry.get("nim").unwrap();
    let mut session = entry.start(None, nim_script(), seed, &ai_vs_ai()).unwrap();
    while let Some(seat) = session.ai_to_move() {
        let task = session.ai_task(seat, Budget::nodes(100)).unwrap();
        let decision = task.run(&tessera_host::ThinkControl::new()).unwrap();
        session.apply_ai(decision).unwrap();
    }
    session.replay_ron().unwrap()
}

#[test]
fn a_replay_reproduces_the_session_exactly() {
    let level = NimLevel {
        version: 1,
        stones: 20,
        random_extra: 30,
    };
    let mut session = Recorded::<Nim>::start(level, nim_script(), 99, &ai_vs_ai()).unwrap();
    while session.play_ai_turn(Budget::unbounded()).unwrap().is_some() {
        session.advance(2).unwrap();
    }
    assert!(session.game().outcome().is_over());
    let text = tessera_host::session::replay_to_ron(session.replay()).unwrap();
    assert!(text.contains("seed: 99"), "{text}");
    assert!(text.contains("hash: \"sha256:"), "{text}");
    assert!(matches!(session.replay().steps[1], Step::Tick(2)));

    let dir = tempfile::tempdir().unwrap();
    let run = registry()
        .get("nim")
        .unwrap()
        .replay(
            &text,
            Path::new("game.replay.ron"),
            nim_script(),
            dir.path(),
            &recorded_setup(),
        )
        .unwrap();
    let replayed = run.session;
    assert_eq!(replayed.render_text(), session.game().render_text());
    assert_eq!(replayed.outcome(), session.game().outcome());
    assert_eq!(replayed.replay_ron().unwrap(), text);
    assert_eq!(replayed.trajectory(), session.trajectory());
}

#[test]
fn a_reload_during_the_session_is_recorded_and_replayed() {
    let live = nim_script();
    let mut session =
        Recorded::<Nim>::start(NimLevel::default(), live.clone(), 4, &no_options()).unwrap();
    session.apply(&NimAction::Take(1)).unwrap();
    let triple = NIM_SCRIPT.replace("n * 2", "n * 3");
    live.replace(nim_script_text(&triple));
    session.apply(&NimAction::Take(2)).unwrap();
    assert_eq!(session.game().scores(), [2, 6]);
    assert!(matches!(&session.replay().steps[1], Step::Reload(text) if text == &triple));
    // The session notes the reload as an event the editor can tell apart
    // (its console already says `reloaded PATH`).
    let events = session.take_new_events();
    let reloads: Vec<_> = events
        .iter()
        .filter(|e| tessera_host::session::is_reload_event(e))
        .collect();
    assert_eq!(reloads.len(), 1, "{events:?}");
    assert!(
        !events
            .iter()
            .any(|e| !tessera_host::session::is_reload_event(e) && e.text.contains(" reloaded ("))
    );
    let text = tessera_host::session::replay_to_ron(session.replay()).unwrap();

    let dir = tempfile::tempdir().unwrap();
    let registry = registry();
    let entry = registry.get("nim").unwrap();
    let file = Path::new("r.replay.ron");
    // The recorded script, with its reload, reproduces the scores...
    let run = entry
        .replay(&text, file, nim_script(), dir.path(), &recorded_setup())
        .unwrap();
    let scores = downcast::<Nim>(run.session.as_ref())
        .unwrap()
        .game()
        .scores();
    assert_eq!(scores, [2, 6]);
    assert_eq!(run.notes[0], "script: recorded scripts/nim.lua");
    // ...the current one (doubling throughout) does not, and says which
    // script it used.
    let current = ReplaySetup {
        script: ScriptChoice::Current,
        ..recorded_setup()
    };
    let run = entry
        .replay(&text, file, nim_script(), dir.path(), &current)
        .unwrap();
    let scores = downcast::<Nim>(run.session.as_ref())
        .unwrap()
        .game()
        .scores();
    assert_eq!(scores, [2, 4]);
    assert_eq!(
        run.notes[0],
        "script: current scripts/nim.lua (same as recorded)"
    );
    let tripled = LiveScript::new(nim_script_text(&triple));
    let run = entry
        .replay(&text, file, tripled, dir.path(), &current)
        .unwrap();
    assert_eq!(
        run.notes[0],
        "script: current scripts/nim.lua (differs from the recorded one)"
    );
    // Stopping after a step: only the first move.
    let first = ReplaySetup {
        stop_after: Some(1),
        ..recorded_setup()
    };
    let run = entry
        .replay(&text, file, nim_script(), dir.path(), &first)
        .unwrap();
    assert_eq!(
        downcast::<Nim>(run.session.as_ref()).unwrap().game().pile(),
        9
    );
}

#[test]
fn the_seed_decides_the_random_start() {
    let level = NimLevel {
        version: 1,
        stones: 1,
        random_extra: 1000,
    };
    let piles: Vec<u32> = (0..5)
        .map(|seed| {
            Recorded::<Nim>::start(level.clone(), nim_script(), seed, &no_options())
                .unwrap()
                .game()
                .pile()
        })
        .collect();
    let again: Vec<u32> = (0..5)
        .map(|seed| {
            Recorded::<Nim>::start(level.clone(), nim_script(), seed, &no_options())
                .unwrap()
                .game()
                .pile()
        })
        .collect();
    assert_eq!(piles, again);
    assert!(
        piles.windows(2).any(|w| w[0] != w[1]),
        "different seeds give different piles: {piles:?}"
    );
}

#[test]
fn a_level_that_breaks_a_rule_is_refused_at_start() {
    let dir = tempfile::tempdir().unwrap();
    let level = dir.path().join("empty.ron");
    std::fs::write(&level, "(version: 1, stones: 0)").unwrap();
    let err = registry()
        .get("nim")
        .unwrap()
        .start(Some(&level), nim_script(), 0, &no_options())
        .err()
        .expect("a pile of 0 cannot be played");
    assert!(err.to_string().contains("empty.ron"), "{err}");
    assert!(err.to_string().contains("`stones`"), "{err}");
}

fn human_vs_ai() -> SessionOptions {
    SessionOptions {
        mode: None,
        seats: vec![
            Seat::Human,
            Seat::Ai {
                level: "perfect".into(),
            },
        ],
    }
}

/// Plays the AI seat to move on this thread.
fn ai_reply(session: &mut Recorded<Nim>) {
    session
        .play_ai_turn(Budget::unbounded())
        .expect("the AI decides")
        .expect("the AI was to move");
}

#[test]
fn undo_takes_back_the_players_move_and_the_ai_reply_after_it() {
    let level = NimLevel {
        stones: 20,
        ..NimLevel::default()
    };
    let mut session = Recorded::<Nim>::start(level, nim_script(), 3, &human_vs_ai()).unwrap();
    assert!(!session.can_undo(), "nothing played yet");
    session.apply(&NimAction::Take(2)).unwrap();
    ai_reply(&mut session);
    let after_first = (
        session.game().pile(),
        session.game().scores(),
        session.step_count(),
    );
    session.apply(&NimAction::Take(3)).unwrap();
    ai_reply(&mut session);
    assert_eq!(session.step_count(), 4);

    let kept = session.undo_move().unwrap();
    assert_eq!(kept, Some(2), "back to just before the second move");
    assert_eq!(
        (
            session.game().pile(),
            session.game().scores(),
            session.step_count()
        ),
        after_first,
        "the position after the first exchange, exactly"
    );
    assert_eq!(session.trajectory().rows.len(), 2);
    assert!(session.can_undo());
    assert_eq!(session.undo_move().unwrap(), Some(0));
    assert_eq!(session.game().pile(), 20);
    assert_eq!(session.undo_move().unwrap(), None, "nothing left to undo");
}

#[test]
fn undo_replays_each_stretch_with_the_script_then_in_force_and_keeps_the_live_one() {
    let live = nim_script();
    let mut session =
        Recorded::<Nim>::start(NimLevel::default(), live.clone(), 1, &no_options()).unwrap();
    session.apply(&NimAction::Take(1)).unwrap();
    // A designer saves a new scoring rule mid-game.
    let doubled = NIM_SCRIPT.replace("return n * 2", "return n * 100");
    assert_ne!(doubled, NIM_SCRIPT, "the test script scores `n * 2`");
    live.replace(nim_script_text(&doubled));
    session.apply(&NimAction::Take(2)).unwrap();
    let scores_before = session.game().scores();
    session.apply(&NimAction::Take(1)).unwrap();

    session.undo_move().unwrap();
    assert_eq!(
        session.game().scores(),
        scores_before,
        "the first take scored by the old rule, the second by the new"
    );
    assert_eq!(
        live.current().source(),
        doubled,
        "the project's live script is the new rule again"
    );
    // The next move scores by the rule in force.
    let before = session.game().scores();
    session.apply(&NimAction::Take(1)).unwrap();
    let gained: i64 = session.game().scores().iter().sum::<i64>() - before.iter().sum::<i64>();
    assert_eq!(gained, 100);
}

#[test]
fn driver_runs_the_ai_seat_off_the_thread_and_hands_back_its_decision() {
    use tessera_host::driver::{Drive, Driver};
    let mut session: Box<dyn tessera_host::Session> = Box::new(
        Recorded::<Nim>::start(NimLevel::default(), nim_script(), 5, &human_vs_ai()).unwrap(),
    );
    let mut driver = Driver::default();
    assert!(
        matches!(
            driver.poll(session.as_ref(), true, Duration::ZERO),
            Drive::Idle
        ),
        "the human is to move"
    );
    session.apply_ron("Take(1)").unwrap();
    let decision = loop {
        match driver.poll(session.as_ref(), true, Duration::ZERO) {
            Drive::Thinking => std::thread::sleep(Duration::from_millis(2)),
            Drive::Decided(decision) => break decision,
            _ => panic!("the driver should think, then decide"),
        }
    };
    assert_eq!(decision.seat, 1);
    let result = session.apply_ai(decision);
    driver.applied(&result);
    result.unwrap();
    assert_eq!(session.ai_to_move(), None, "the human's turn again");
    assert_eq!(session.step_count(), 2);
}

#[test]
fn driver_throws_away_a_decision_asked_for_a_position_that_changed() {
    use tessera_host::driver::{Drive, Driver};
    let mut session: Box<dyn tessera_host::Session> = Box::new(
        Recorded::<Nim>::start(NimLevel::default(), nim_script(), 5, &human_vs_ai()).unwrap(),
    );
    let mut driver = Driver::default();
    session.apply_ron("Take(1)").unwrap();
    // Asked, but held back by a long reaction time.
    assert!(matches!(
        driver.poll(session.as_ref(), true, Duration::from_secs(3600)),
        Drive::Thinking
    ));
    // The player undoes before the AI answers.
    assert_eq!(session.undo_move().unwrap(), Some(0));
    assert!(
        matches!(
            driver.poll(session.as_ref(), true, Duration::ZERO),
            Drive::Idle
        ),
        "the stale decision is dropped and the human is to move"
    );
    assert!(driver.thinking().is_none());
}

/// The frame log's AI column: computing while the worker decides, not
/// while a made decision waits out the reaction time (still "thinking").
#[test]
fn driver_computes_only_until_the_decision_is_made() {
    use tessera_host::driver::{Drive, Driver};
    let mut session: Box<dyn tessera_host::Session> = Box::new(
        Recorded::<Nim>::start(NimLevel::default(), nim_script(), 5, &human_vs_ai()).unwrap(),
    );
    let mut driver = Driver::default();
    assert!(!driver.is_computing(), "nobody asked yet");
    session.apply_ron("Take(1)").unwrap();
    let long = Duration::from_secs(3600);
    assert!(matches!(
        driver.poll(session.as_ref(), true, long),
        Drive::Thinking
    ));
    assert!(driver.is_computing(), "asked: the worker decides");
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while driver.is_computing() {
        assert!(std::time::Instant::now() < deadline, "Nim decides at once");
        std::thread::sleep(Duration::from_millis(2));
        assert!(matches!(
            driver.poll(session.as_ref(), true, long),
            Drive::Thinking
        ));
    }
    assert!(
        driver.thinking().is_some(),
        "the made decision waits out the reaction time"
    );
}

#[test]
fn driver_pauses_after_a_cancel_until_resumed() {
    use tessera_host::driver::{Drive, Driver};
    let mut session: Box<dyn tessera_host::Session> = Box::new(
        Recorded::<Nim>::start(NimLevel::default(), nim_script(), 5, &human_vs_ai()).unwrap(),
    );
    let mut driver = Driver::default();
    session.apply_ron("Take(1)").unwrap();
    assert!(matches!(
        driver.poll(session.as_ref(), true, Duration::from_secs(3600)),
        Drive::Thinking
    ));
    driver.cancel();
    let mut saw_cancel = false;
    for _ in 0..500 {
        match driver.poll(session.as_ref(), true, Duration::from_secs(3600)) {
            Drive::Thinking => std::thread::sleep(Duration::from_millis(2)),
            Drive::Cancelled => {
                saw_cancel = true;
                break;
            }
            _ => break,
        }
    }
    assert!(saw_cancel, "a cancel is reported once");
    assert!(driver.is_paused());
    assert!(matches!(
        driver.poll(session.as_ref(), true, Duration::ZERO),
        Drive::Paused
    ));
    driver.resume();
    assert!(matches!(
        driver.poll(session.as_ref(), true, Duration::ZERO),
        Drive::Thinking
    ));
}

#[test]
fn play_ai_turns_plays_every_ai_seat_to_the_end_and_reports_each_move() {
    use tessera_host::ThinkControl;
    use tessera_host::driver::{AiTurnsEnd, play_ai_turns};
    let mut session: Box<dyn tessera_host::Session> = Box::new(
        Recorded::<Nim>::start(NimLevel::default(), nim_script(), 9, &ai_vs_ai()).unwrap(),
    );
    let mut moves = Vec::new();
    let end = play_ai_turns(
        session.as_mut(),
        Budget::unbounded(),
        usize::MAX,
        &ThinkControl::new(),
        &mut |_, action| moves.push(action.to_string()),
    )
    .unwrap();
    assert_eq!(end, AiTurnsEnd::GameOver);
    assert_eq!(moves.len(), session.step_count());
    assert!(moves.iter().all(|m| m.starts_with("Take(")));
    let cancelled = ThinkControl::new();
    cancelled.cancel();
    let mut fresh: Box<dyn tessera_host::Session> = Box::new(
        Recorded::<Nim>::start(NimLevel::default(), nim_script(), 9, &ai_vs_ai()).unwrap(),
    );
    let end = play_ai_turns(
        fresh.as_mut(),
        Budget::unbounded(),
        5,
        &cancelled,
        &mut |_, _| {},
    )
    .unwrap();
    assert_eq!(end, AiTurnsEnd::Cancelled);
    assert_eq!(fresh.step_count(), 0);
}

#[test]
fn a_replay_run_with_its_recorded_script_needs_no_script_in_the_project() {
    use tessera_host::project::Project;
    let mut session =
        Recorded::<Nim>::start(NimLevel::default(), nim_script(), 4, &no_options()).unwrap();
    session.apply(&NimAction::Take(2)).unwrap();
    session.apply(&NimAction::Take(3)).unwrap();
    let text = tessera_host::session::replay_to_ron(session.replay()).unwrap();
    // A project folder with no scripts/ at all.
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("levels")).unwrap();
    std::fs::write(dir.path().join("game.replay.ron"), text).unwrap();
    let mut project = Project::open(dir.path(), registry()).unwrap();
    let run = project
        .replay(Path::new("game.replay.ron"), &recorded_setup())
        .expect("the recorded script is enough");
    assert_eq!(run.session.step_count(), 2);
    let game = downcast::<Nim>(run.session.as_ref()).unwrap().game();
    assert_eq!(game.pile(), 5);
    // With the current script asked for, the missing file is the error.
    let current = ReplaySetup {
        script: ScriptChoice::Current,
        ..recorded_setup()
    };
    let error = project
        .replay(Path::new("game.replay.ron"), &current)
        .err()
        .expect("no current script");
    assert!(error.to_string().contains("scripts/nim.lua"), "{error}");
}

/// An editor job runs as fast as the command line's (issue 49): its
/// thread, and every search thread it starts, runs at the priority of the
/// thread that started it. At nice +10 a unique 4x4x4 took five times as
/// long in the editor as from the command line on a busy machine.
#[cfg(target_os = "linux")]
#[test]
fn a_job_runs_at_the_priority_of_the_thread_that_started_it() {
    use tessera_host::worker::thread_niceness;
    let ui = thread_niceness();
    let mut job = Job::spawn("niceness", |_| {
        let job = thread_niceness();
        let search = std::thread::spawn(thread_niceness).join().ok();
        (job, search)
    });
    let (job, search) = job.wait(Duration::from_secs(30)).expect("the job ends");
    assert_eq!(job, ui, "the job's thread");
    assert_eq!(search, Some(job), "a thread the job starts inherits it");
}

/// Issue 48: a check a crate beside the game registers (the Tetris bot's
/// reading of a seat's difficulty, say) runs on every start of the host,
/// a session's and `check`'s of a level alike, with the same refusal.
#[test]
fn a_start_check_registered_beside_a_game_refuses_every_start_alike() {
    fn at_most_twelve_stones(setup: &tessera_host::Setup<NimLevel>) -> Result<(), GameError> {
        match setup.level.stones {
            0..=12 => Ok(()),
            stones => Err(GameError::Invalid(format!(
                "this table holds at most 12 stones, not {stones}"
            ))),
        }
    }
    let mut checked = Registry::empty();
    checked.register_with::<Nim>(|game| {
        <Nim as tessera_host::Plugin>::register(game);
        game.start_check(at_most_twelve_stones);
    });
    let entry = checked.get("nim").unwrap();
    let refusal = "this table holds at most 12 stones, not 20";
    let level = "(version: 1, stones: 20)";
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("big.ron");
    std::fs::write(&file, level).unwrap();
    let started = entry.start(Some(&file), nim_script(), 1, &no_options());
    assert_eq!(
        started.err().map(|e| e.to_string()),
        Some(refusal.to_string())
    );
    let findings = entry.check_level_with(level, Path::new("big.ron"), nim_script());
    assert!(
        findings.iter().any(|f| f.to_string().contains(refusal)),
        "{findings:?}"
    );
    // A level the check lets through starts and checks clean, and the
    // game registered without the check takes the big level.
    let small = "(version: 1, stones: 12)";
    assert!(
        entry
            .check_level_with(small, Path::new("small.ron"), nim_script())
            .is_empty()
    );
    assert!(
        registry()
            .get("nim")
            .unwrap()
            .check_level_with(level, Path::new("big.ron"), nim_script())
            .is_empty()
    );
}

/// Issue 48: script checks registered beside the game's own all run; of
/// several refusals the one at the earliest line of the file is reported
/// (a tie goes to the check registered first; a refusal without a line
/// comes after those with one).
#[test]
fn of_several_script_refusals_the_earliest_line_is_reported() {
    use tessera_host::registrar::Capabilities;
    use tessera_host::script::{ScriptError, ScriptErrorKind};
    fn refusal(line: Option<u32>, message: &str) -> ScriptError {
        ScriptError {
            path: "scripts/nim.lua".into(),
            line,
            kind: ScriptErrorKind::Schema,
            message: message.into(),
        }
    }
    fn line_9(_: &tessera_host::Script) -> Result<(), ScriptError> {
        Err(refusal(Some(9), "nine"))
    }
    fn line_4(_: &tessera_host::Script) -> Result<(), ScriptError> {
        Err(refusal(Some(4), "four"))
    }
    fn also_line_4(_: &tessera_host::Script) -> Result<(), ScriptError> {
        Err(refusal(Some(4), "four again"))
    }
    fn no_line(_: &tessera_host::Script) -> Result<(), ScriptError> {
        Err(refusal(None, "whole file"))
    }
    fn fine(_: &tessera_host::Script) -> Result<(), ScriptError> {
        Ok(())
    }
    let first = |checks: &[tessera_host::registrar::ScriptCheck]| {
        let mut registrar = Registrar::<Nim>::empty();
        registrar.scripted();
        for check in checks {
            registrar.script_check(*check);
        }
        let capabilities: Capabilities<Nim> = registrar.finish().0;
        capabilities
            .check_script(&nim_script().current())
            .err()
            .map(|e| e.message)
    };
    assert_eq!(first(&[fine]), None, "Nim's own check and `fine` pass");
    assert_eq!(first(&[line_9, line_4]).as_deref(), Some("four"));
    assert_eq!(first(&[line_4, line_9]).as_deref(), Some("four"));
    assert_eq!(first(&[line_4, also_line_4]).as_deref(), Some("four"));
    assert_eq!(first(&[also_line_4, line_4]).as_deref(), Some("four again"));
    assert_eq!(first(&[no_line, line_9]).as_deref(), Some("nine"));
    assert_eq!(first(&[no_line, fine]).as_deref(), Some("whole file"));
}
