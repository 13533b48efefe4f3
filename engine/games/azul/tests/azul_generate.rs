//! `generate azul --endgame`: every generated scenario passes `check` (a
//! game start on the shipped script included) and re-proves its claim
//! there; one seed gives one level; a hand edit that breaks the claim is
//! reported at the claim's line; the round search agrees with a plain
//! minimax (no table, factories not merged) on small last rounds.

use std::path::Path;

use tessera_azul::Azul;
use tessera_azul::generate::build::candidates;
use tessera_azul::generate::endgame::{SearchStop, prove_round, ranked_moves};
use tessera_azul::generate::{GENERATOR, claim_text};
use tessera_azul::rules::{MoveList, State};
use tessera_host::generate::{GenerateError, Generated, Proof};
use tessera_host::rng::game_rng;
use tessera_host::{Registry, ThinkControl};

fn generate(args: &[&str], seed: u64) -> Result<Generated, GenerateError> {
    let matches = clap::Command::new("azul")
        .args(GENERATOR.arguments())
        .try_get_matches_from(std::iter::once("azul").chain(args.iter().copied()))
        .map_err(|e| GenerateError::Spec(e.to_string()))?;
    GENERATOR.generate(&matches, seed, &ThinkControl::new())
}

/// `check` on the text as a level of a project with the shipped script.
fn check(text: &str) -> Vec<String> {
    let mut registry = Registry::empty();
    registry.register::<Azul>();
    registry.register_generator::<Azul>(GENERATOR);
    tessera_testkit::check_generated(&registry, "azul", text)
}

#[test]
fn generated_endgames_pass_check_and_reprove_their_one_winning_move() {
    for (seats, seed) in [("2", 1), ("3", 3)] {
        let made = generate(&["--endgame", "--seats", seats], seed).expect("an endgame");
        assert_eq!(check(&made.text), Vec::<String>::new(), "{seats} seats");
        let Proof::Holds(line) = tessera_host::generate::prove(
            GENERATOR,
            "azul",
            Path::new("g.ron"),
            &made.text,
            &ThinkControl::new(),
        ) else {
            panic!("{}", made.text);
        };
        assert!(line.starts_with("one winning move: "), "{line}");
        assert!(line.contains("against best defence"), "{line}");
        assert!(
            made.text
                .contains(&format!("--seats {seats} --seed {seed}"))
                || seats == "2"
        );
        assert!(made.difficulty >= 1.0, "{}", made.difficulty);
    }
    assert_eq!(
        generate(&["--endgame"], 1).unwrap(),
        generate(&["--endgame"], 1).unwrap()
    );
}

#[test]
fn a_hand_edit_that_breaks_the_claim_is_reported_at_the_claim_line() {
    let made = generate(&["--endgame"], 1).unwrap();
    // The hero gives up every point: no move wins any more.
    let hero_score = made
        .text
        .lines()
        .find(|l| l.trim_start().starts_with("score:"))
        .unwrap();
    let edited = made.text.replacen(hero_score, "            score: 0,", 1);
    assert_ne!(edited, made.text);
    let findings = check(&edited);
    assert_eq!(findings.len(), 1, "{findings:?}");
    assert!(
        findings[0].starts_with("generated.ron:2: the claim `one winning move: "),
        "{findings:?}"
    );
    assert!(
        findings[0].contains("no longer holds: the level now gives `"),
        "{findings:?}"
    );
}

#[test]
fn impossible_specs_are_refused_and_a_cancel_stops_the_search() {
    let Err(GenerateError::Spec(message)) = generate(&[], 1) else {
        panic!("no kind accepted");
    };
    assert!(message.contains("--endgame"), "{message}");
    assert!(matches!(
        generate(&["--endgame", "--seats", "5"], 1),
        Err(GenerateError::Spec(_))
    ));
    let control = ThinkControl::new();
    control.cancel();
    let matches = clap::Command::new("azul")
        .args(GENERATOR.arguments())
        .get_matches_from(["azul", "--endgame"]);
    assert!(matches!(
        GENERATOR.generate(&matches, 1, &control),
        Err(GenerateError::Cancelled)
    ));
}

/// Every line of play, no table: whether the hero wins.
fn minimax(state: &State, hero: u8) -> bool {
    let mut list = MoveList::default();
    state.legal_moves(&mut list);
    let mut outcomes = list.as_slice().iter().map(|&m| {
        let mut next = *state;
        if next.play(m) {
            next.tile_walls();
            assert!(next.over, "a last round");
            next.winners().0[hero as usize]
        } else {
            minimax(&next, hero)
        }
    });
    if state.to_move == hero {
        outcomes.any(|won| won)
    } else {
        outcomes.all(|won| won)
    }
}

#[test]
fn the_round_search_agrees_with_plain_minimax_on_small_last_rounds() {
    let mut compared = 0;
    let mut with_a_win = 0;
    for seed in 0..10 {
        let mut rng = game_rng(seed);
        for mut state in candidates(2, &mut rng) {
            // Played on (the medium AI's first choice) down to a round
            // small enough for a plain minimax.
            while state.on_table > 6 {
                let m = ranked_moves(&state)[0];
                if state.play(m) {
                    break;
                }
            }
            if state.on_table == 0 || state.on_table > 6 {
                continue;
            }
            let proof = match prove_round(&state, 1_000_000, &ThinkControl::new()) {
                Ok(proof) => proof,
                Err(SearchStop::TooLarge(_)) => continue,
                Err(stop) => panic!("{stop:?}"),
            };
            let winners: Vec<_> = ranked_moves(&state)
                .into_iter()
                .filter(|&m| {
                    let mut next = state;
                    if next.play(m) {
                        next.tile_walls();
                        next.winners().0[state.to_move as usize]
                    } else {
                        minimax(&next, state.to_move)
                    }
                })
                .take(2)
                .collect();
            assert_eq!(proof.winning, winners, "{}", claim_text(&proof));
            compared += 1;
            with_a_win += usize::from(!winners.is_empty());
        }
    }
    assert!(
        compared >= 10 && with_a_win >= 3,
        "{compared} compared, {with_a_win} with a win"
    );
}
