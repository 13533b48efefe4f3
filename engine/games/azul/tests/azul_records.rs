//! A game record is a proof of the game: `check_record` accepts every
//! record a game writes (2-4 seats, AI levels, a script changed
//! mid-game) and refuses every tampered copy at the line that differs:
//! a changed score, an illegal move, a tile from nowhere, a fifth tile in
//! a factory, a truncation at any line, a duplicated line, a lost tiling,
//! bonus or end line, a wrong outcome, an empty file.

use rand::Rng;
use tessera_azul::Azul;
use tessera_azul::record::{CheckReport, check_record, deal_fixed};
use tessera_azul::rules::{Rules, State};
use tessera_host::agent::AgentGame;
use tessera_host::agent::{Budget, ThinkControl, Thinking, agent_rng};
use tessera_host::options::{Seat, SessionOptions};
use tessera_host::plugin::{Reports, Scripted};
use tessera_host::rng::game_rng;
use tessera_host::{Game, LiveScript, Script, ScriptLimits, Setup, Turn};

fn script_text() -> String {
    std::fs::read_to_string(tessera_testkit::repo_path("scripts/azul.lua")).unwrap()
}

fn load(text: &str) -> Script {
    let schema = <Azul as Scripted>::script_schema();
    Script::load(
        std::path::Path::new("scripts/azul.lua"),
        text,
        Some(&schema),
        ScriptLimits::default(),
    )
    .unwrap()
}

fn start(players: usize, seed: u64, script: &LiveScript) -> Azul {
    Azul::start(Setup {
        level: Default::default(),
        script: script.clone(),
        seed,
        options: SessionOptions {
            mode: None,
            seats: vec![Seat::Human; players],
        },
    })
    .unwrap()
}

/// A whole game of random moves; `each_move` may change the script.
fn random_game(players: usize, seed: u64, mut each_move: impl FnMut(usize, &LiveScript)) -> String {
    let script = LiveScript::new(load(&script_text()));
    let mut game = start(players, seed, &script);
    let mut rng = game_rng(seed + 1000);
    let mut played = 0;
    while !game.outcome().is_over() {
        each_move(played, &script);
        let actions = game.legal_actions();
        game.apply(&actions[rng.random_range(0..actions.len())])
            .unwrap();
        played += 1;
    }
    game.game_record().unwrap()
}

/// A whole game between AI levels (the expert with a small budget).
fn ai_game(levels: &[&str], seed: u64) -> String {
    let mut text = script_text();
    text = text.replace("playouts = 1000000", "playouts = 300");
    let script = LiveScript::new(load(&text));
    let mut game = start(levels.len(), seed, &script);
    let mut moves = 0;
    while let Turn::Seat(seat) = game.turn() {
        let mut agent = game.agent(seat, levels[seat]).unwrap();
        let control = ThinkControl::default();
        let mut rng = agent_rng(seed, seat, moves);
        let mut thinking = Thinking::new(&mut rng, Budget::nodes(2000), &control);
        let decision = agent.decide(&game.snapshot(), &mut thinking).unwrap();
        game.apply(&decision.action).unwrap();
        moves += 1;
    }
    game.game_record().unwrap()
}

fn refused(text: &str) -> (usize, String) {
    let report: CheckReport = check_record(text, Rules::default());
    report
        .first_difference
        .unwrap_or_else(|| panic!("accepted: {text}"))
}

fn accepted(text: &str) -> CheckReport {
    let report = check_record(text, Rules::default());
    assert_eq!(report.first_difference, None, "{text}");
    assert_eq!(report.events, text.lines().count());
    report
}

fn replace_line(text: &str, index: usize, with: &str) -> String {
    let mut lines: Vec<&str> = text.lines().collect();
    lines[index] = with;
    lines.join("\n") + "\n"
}

#[test]
fn records_of_every_seat_count_and_ai_level_are_accepted_and_self_contained() {
    for (levels, seed) in [
        (&["easy", "medium"][..], 1),
        (&["hard", "expert"][..], 2),
        (&["medium", "hard", "easy"][..], 3),
        (&["expert", "medium", "hard", "easy"][..], 4),
    ] {
        let text = ai_game(levels, seed);
        let first = text.lines().next().unwrap();
        assert!(
            first.contains("\"rules\":{\"floor\":[1,1,2,2,2,3,3]"),
            "{first}"
        );
        assert!(first.contains("\"script\":\""), "{first}");
        // Checked against other fallback rules: the record's own rules win.
        let other = Rules {
            floor_penalties: [9; 7],
            ..Rules::default()
        };
        let report = check_record(&text, other);
        assert_eq!(report.first_difference, None, "{levels:?}: {text}");
        assert!(report.summary[0].contains("rules from the record"));
    }
    for players in 2..=4 {
        for seed in 0..5 {
            accepted(&random_game(players, seed, |_, _| {}));
        }
    }
}

#[test]
fn the_summary_splits_the_bonus_and_explains_the_outcome() {
    let text = random_game(2, 7, |_, _| {});
    let report = accepted(&text);
    let s = report.summary.join("\n");
    // Each player's bonus split: rows x 2, columns x 7, colours x 10.
    for player in &report.summary[1..3] {
        let split = player.split(" bonus (").nth(1).expect("a split");
        let parts: Vec<&str> = split.trim_end_matches(')').split(", ").collect();
        assert_eq!(parts.len(), 3, "{player}");
        for (part, (what, points)) in parts
            .iter()
            .zip([("row", 2), ("column", 7), ("colour", 10)])
        {
            assert!(part.contains(what), "{player}");
            assert!(part.ends_with(&format!(" x {points}")), "{player}");
        }
    }
    assert!(s.contains("outcome: "), "{s}");
}

#[test]
fn tampered_copies_are_refused_at_the_line_that_differs() {
    let text = random_game(2, 11, |_, _| {});
    let lines: Vec<&str> = text.lines().collect();
    let find = |what: &str| lines.iter().position(|l| l.contains(what)).unwrap();

    // Empty file.
    let (line, why) = refused("");
    assert_eq!(line, 1);
    assert!(why.contains("empty"), "{why}");

    // A changed tiling score.
    let tiling = find("\"event\":\"tiling\"");
    let forged = lines[tiling].replace("\"scores\":[", "\"scores\":[7");
    let (line, why) = refused(&replace_line(&text, tiling, &forged));
    assert_eq!(line, tiling + 1);
    assert!(why.contains("the rules give"), "{why}");

    // An illegal move: the first move sent to a line its wall row holds
    // is hard to forge by hand, so take from a factory that is empty.
    let first_move = find("\"event\":\"move\"");
    let forged = lines[first_move]
        .split("\"source\":")
        .next()
        .unwrap()
        .to_string()
        + "\"source\":9,\"colour\":\"blue\",\"line\":1}";
    let (line, why) = refused(&replace_line(&text, first_move, &forged));
    assert_eq!(line, first_move + 1);
    assert!(why.contains("illegal move"), "{why}");

    // A tile from nowhere: a deal with a fifth tile in a factory...
    let deal = find("\"event\":\"deal\"");
    let forged = lines[deal].replacen("]", ",2]", 1);
    let (line, why) = refused(&replace_line(&text, deal, &forged));
    assert_eq!(line, deal + 1);
    assert!(why.contains("holds 5 tiles; a factory holds 4"), "{why}");
    // ... and a colour the bag has run out of.
    let mut table = State::new(Rules::default(), 2);
    table.bag[2] = 0;
    let why = deal_fixed(
        &mut table,
        &[vec![0, 1, 3, 2], vec![], vec![], vec![], vec![]],
    )
    .unwrap_err();
    assert_eq!(why, "factory 1: no red tile left in the bag");
    // ... and a tile swapped for a colour the bag still holds, in the
    // first and in a later round: legal for the bag, but not the seed's
    // draw, so refused at the deal itself.
    let deals: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].contains("\"event\":\"deal\""))
        .collect();
    for &at in [deals[0], deals[2]].iter() {
        let first_tile = lines[at].find("[[").unwrap() + 2;
        let tile = &lines[at][first_tile..first_tile + 1];
        let other = if tile == "0" { "1" } else { "0" };
        let forged = format!(
            "{}{other}{}",
            &lines[at][..first_tile],
            &lines[at][first_tile + 1..]
        );
        let (line, why) = refused(&replace_line(&text, at, &forged));
        assert_eq!(line, at + 1, "{why}");
        assert!(
            why.contains("is not the one seed 11 draws: factory 1"),
            "{why}"
        );
    }
    // A deal line that is not a deal cannot be read.
    let (line, why) = refused(&replace_line(
        &text,
        deal,
        "{\"event\":\"deal\",\"round\":1}",
    ));
    assert_eq!(line, deal + 1);
    assert!(why.contains("cannot read"), "{why}");

    // Truncated at every line boundary: refused at the line after the cut.
    for cut in 1..lines.len() {
        let truncated = lines[..cut].join("\n") + "\n";
        let (line, why) = refused(&truncated);
        assert_eq!(line, cut + 1, "cut after {cut}: {why}");
        assert!(why.contains("ends here"), "{why}");
    }

    // Every line duplicated: refused at the copy, saying so.
    for dup in 0..lines.len() {
        let mut copy: Vec<&str> = lines.clone();
        copy.insert(dup + 1, lines[dup]);
        let (line, why) = refused(&(copy.join("\n") + "\n"));
        assert_eq!(line, dup + 2, "duplicate of line {}: {why}", dup + 1);
        assert!(why.contains(&format!("repeats line {}", dup + 1)), "{why}");
    }
    // A duplicated tiling names the tiling already recorded.
    let mut copy = lines.clone();
    copy.insert(tiling + 1, lines[tiling]);
    let (_, why) = refused(&(copy.join("\n") + "\n"));
    assert!(
        why.contains(&format!("line {} already recorded", tiling + 1)),
        "{why}"
    );

    // A missing tiling, bonus or end line.
    for (what, expected) in [
        ("\"event\":\"tiling\"", "expected the tiling"),
        ("\"event\":\"bonus\"", "expected the end bonuses"),
        ("\"event\":\"end\"", "ends here"),
    ] {
        let gone = find(what);
        let mut copy = lines.clone();
        copy.remove(gone);
        let (line, why) = refused(&(copy.join("\n") + "\n"));
        assert_eq!(line, gone + 1, "{what}: {why}");
        assert!(why.contains(expected), "{what}: {why}");
    }

    // A wrong outcome text.
    let end = lines.len() - 1;
    let forged = if lines[end].contains("player 1 wins") {
        lines[end].replace("player 1 wins", "player 2 wins")
    } else {
        lines[end].replace("\"outcome\":\"", "\"outcome\":\"not ")
    };
    let (line, why) = refused(&replace_line(&text, end, &forged));
    assert_eq!(line, end + 1);
    assert!(why.contains("the scores give"), "{why}");

    // A line after the end.
    let (line, why) = refused(&format!("{text}{}\n", lines[deal]));
    assert_eq!(line, lines.len() + 1);
    assert!(why.contains("after the game's end"), "{why}");
}

#[test]
fn a_script_changed_mid_game_is_recorded_and_checked_stretch_by_stretch() {
    let harsh = script_text().replace(
        "floor_penalties = { 1, 1, 2, 2, 2, 3, 3 }",
        "floor_penalties = { 4, 4, 4, 4, 4, 4, 4 }",
    );
    assert_ne!(harsh, script_text(), "the script lists its floor penalties");
    let text = random_game(2, 21, |played, script| {
        if played == 30 {
            script.replace(load(&harsh));
        }
    });
    let lines: Vec<&str> = text.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.contains("\"event\":\"script\""))
        .expect("a script line");
    assert!(
        lines[at].contains("\"floor\":[4,4,4,4,4,4,4]"),
        "{}",
        lines[at]
    );
    // The line before the 31st action: 30 moves and the deals before it.
    let moves_before = lines[..at]
        .iter()
        .filter(|l| l.contains("\"event\":\"move\""))
        .count();
    assert_eq!(moves_before, 30);
    let report = accepted(&text);
    assert!(
        report.summary[0].contains("changed once"),
        "{:?}",
        report.summary
    );
    // Without the script line the later tilings do not add up.
    let mut copy = lines.clone();
    copy.remove(at);
    let (line, why) = refused(&(copy.join("\n") + "\n"));
    assert!(line > at, "{line}: {why}");
    assert!(why.contains("the rules give"), "{why}");
    // A script line may not change the tile counts.
    let forged = lines[at].replace("\"row_bonus\"", "\"tiles_per_colour\":9,\"row_bonus\"");
    let (line, why) = refused(&replace_line(&text, at, &forged));
    assert_eq!(line, at + 1);
    assert!(why.contains("tile counts cannot change"), "{why}");
}

/// Held-out instances (issue 22's "done when", walked again with new
/// cases): three seats, two reloads (a costlier floor and a richer column
/// bonus, then the shipped numbers again), each stretch scored by its own
/// rules; and
/// tamperings not used above, each refused at its own line.
#[test]
fn held_out_records_two_reloads_and_new_tamperings() {
    let rich = script_text()
        .replace("bonus_column = 7", "bonus_column = 9")
        .replace(
            "floor_penalties = { 1, 1, 2, 2, 2, 3, 3 }",
            "floor_penalties = { 2, 2, 2, 2, 2, 2, 2 }",
        );
    let back = script_text();
    assert_ne!(rich, back, "the script lists its column bonus");
    let text = random_game(3, 77, |played, script| match played {
        12 => script.replace(load(&rich)),
        45 => script.replace(load(&back)),
        _ => {}
    });
    let lines: Vec<&str> = text.lines().collect();
    let scripts: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].contains("\"event\":\"script\""))
        .collect();
    assert_eq!(scripts.len(), 2, "{text}");
    assert!(lines[scripts[0]].contains("\"column_bonus\":9"));
    assert!(lines[scripts[0]].contains("\"floor\":[2,2,2,2,2,2,2]"));
    assert!(lines[scripts[1]].contains("\"column_bonus\":7"));
    let report = accepted(&text);
    assert!(
        report.summary[0].contains("changed 2 times"),
        "{:?}",
        report.summary
    );
    // The check's final scores are the record's own (the same replay).
    let end: serde_json::Value = serde_json::from_str(lines[lines.len() - 1]).unwrap();
    let scores: Vec<i64> = end["scores"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_i64().unwrap())
        .collect();
    for (p, score) in scores.iter().enumerate() {
        assert!(
            report.summary[p + 1].contains(&format!("player {}: {score} points", p + 1)),
            "{:?}",
            report.summary
        );
    }

    let find = |what: &str, nth: usize| {
        (0..lines.len())
            .filter(|&i| lines[i].contains(what))
            .nth(nth)
            .unwrap()
    };
    // A move by the wrong player.
    let m = find("\"event\":\"move\"", 7);
    let forged = lines[m].replacen("\"player\":", "\"player\":9", 1);
    let (line, _) = refused(&replace_line(&text, m, &forged));
    assert_eq!(line, m + 1);
    // Two moves swapped.
    let m = find("\"event\":\"move\"", 20);
    let mut copy = lines.clone();
    copy.swap(m, m + 1);
    let (line, why) = refused(&(copy.join("\n") + "\n"));
    assert_eq!(line, m + 1, "{why}");
    // The last tiling's second score changed.
    let t = find("\"event\":\"tiling\"", 3);
    let tiling: serde_json::Value = serde_json::from_str(lines[t]).unwrap();
    let second = tiling["scores"][1].as_i64().unwrap();
    let forged = lines[t].replacen(&format!(",{second},"), &format!(",{},", second + 1), 1);
    assert_ne!(forged, lines[t]);
    let (line, why) = refused(&replace_line(&text, t, &forged));
    assert_eq!(line, t + 1);
    assert!(why.contains("the rules give"), "{why}");
    // The second script line dropped: the last stretch no longer adds up.
    let mut copy = lines.clone();
    copy.remove(scripts[1]);
    let (line, why) = refused(&(copy.join("\n") + "\n"));
    assert!(line > scripts[1], "{line}: {why}");
    // Cut in the middle of a line.
    let half = &text[..text.len() / 2];
    let (line, why) = refused(half);
    assert_eq!(line, half.lines().count(), "{why}");
    // Blank lines only.
    let (_, why) = refused("\n\n\n");
    assert!(why.contains("empty"), "{why}");
}
