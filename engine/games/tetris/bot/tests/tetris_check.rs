//! check = play for Tetris: the game's `check_script` reads every section
//! of `scripts/tetris.lua` (settings, `ai`, `feed`) and refuses at the
//! offending field's line; a feed level naming an unknown difficulty fails
//! its check at the level's line; hostile AI logs are refused with
//! `PATH:LINE:`, never a panic; every log the AI writes reads back.

use super::tetris_support;

use std::path::Path;

use proptest::prelude::*;
use tessera_host::{LiveScript, Registry};
use tessera_tetris::Tetris;
use tessera_tetris::board::Board;
use tessera_tetris::piece::PieceKind;
use tessera_tetris_bot::ai::{Brain, Position, log};
use tetris_support::*;

/// The first line of `text` holding `needle` (1-based).
fn line_of(text: &str, needle: &str) -> usize {
    text.lines()
        .position(|l| l.contains(needle))
        .map(|i| i + 1)
        .unwrap_or_else(|| panic!("no line holds {needle:?}"))
}

#[test]
fn check_script_refuses_every_bad_ai_and_feed_value_at_its_line() {
    let shipped = shipped_source();
    // (text to replace, replacement, the text of the line the error
    // names, a piece of the message)
    let cases = [
        (
            "holes = -0.9,",
            "hloes = -0.9,",
            "hloes = -0.9",
            "no metric `hloes` to weigh",
        ),
        (
            "beam = 3, adversary = \"own\", line_depth = 10, line_beam = 40",
            "beam = 5000, adversary = \"own\", line_depth = 10, line_beam = 40",
            "beam = 5000",
            "`ai.difficulties[7].beam` must be 1 to 4096, not 5000 (MASTER)",
        ),
        (
            "line_depth = 10, line_beam = 40,",
            "line_depth = 70, line_beam = 40,",
            "line_depth = 70",
            "`ai.difficulties[7].line_depth` must be 0 to 64, not 70 (MASTER)",
        ),
        (
            "adversary = \"own\",",
            "adversary = \"mine\",",
            "adversary = \"mine\"",
            "\"score\", \"height\" or \"own\", not \"mine\"",
        ),
        (
            "noise = 2.0,",
            "noise = -2.0,",
            "noise = -2.0",
            "`ai.difficulties[1].noise` must be 0 to 1000, not -2 (EASY)",
        ),
        (
            "{ name = \"NORMAL\",",
            "{ name = \"EASY\",",
            "{ name = \"EASY\", decision_ms = 500",
            "difficulty `EASY` is named twice",
        ),
        (
            "wellSums = -0.25,",
            "wellSums = 0/0,",
            "wellSums = 0/0",
            "`ai.difficulties[3].weights.wellSums` must be a finite number, found nan",
        ),
        (
            "log_top = 5,",
            "log_top = 0,",
            "log_top = 0",
            "`ai.log_top` must be 1 to 100, not 0",
        ),
        (
            "specials = { \"X\", \"U\", \"W\", \"V\" }",
            "specials = { \"X\", \"T\" }",
            "specials = {",
            "special `T` is not a pentomino",
        ),
        (
            "special_chance = 0.06, ceiling_every = 12,",
            "special_chance = 0.06, ceilng_every = 12,",
            "ceilng_every = 12",
            "has no setting `ceilng_every`",
        ),
        (
            "log_top = 5,",
            "log_top = 5, log_tpo = 3,",
            "log_tpo = 3",
            "`ai` has no setting `log_tpo`",
        ),
        (
            "off_line_order = { \"gameOverAfterMove\", \"nextTopOut\",",
            "off_line_order = { \"gameOverAfterMove\", \"linePlies\",",
            "off_line_order = {",
            "GOD: `off_line_order` ranks without the expected-line search: it cannot name `linePlies`",
        ),
        (
            "line_trust = 3,",
            "line_trust = 0,",
            "line_trust = 0",
            "`ai.difficulties[5].line_trust` must be 1 to 64, not 0 (GOD)",
        ),
        (
            "lookahead = 1, beam = 2, noise = 2.0,",
            "lookahead = 1, beam = 2, noise = 2.0, off_line_order = { \"score\" },",
            "off_line_order = { \"score\" }",
            "HARD: `off_line_order` ranks for a player off the `own` adversary's line",
        ),
        (
            "line_depth = 10, line_beam = 40,",
            "line_depth = 10, line_beam = 40, line_trust = 2,",
            "line_trust = 2",
            "MASTER: `line_trust` counts for an `off_line_order`",
        ),
        (
            "special_chance = 0.06,",
            "special_chance = 1.5,",
            "special_chance = 1.5",
            "`ai.difficulties[3].special_chance` must be 0 to 1, not 1.5 (HARD)",
        ),
    ];
    for (from, to, line_text, message) in cases {
        assert!(shipped.contains(from), "the shipped script holds {from:?}");
        let text = shipped.replacen(from, to, 1);
        let script = script(&text).expect("loads: the schema checks only types");
        let error = tessera_tetris_bot::capabilities()
            .check_script(&script)
            .expect_err(to)
            .to_string();
        let line = line_of(&text, line_text);
        assert!(
            error.starts_with(&format!("scripts/tetris.lua:{line}: ")),
            "{to}: {error}"
        );
        assert!(error.contains(message), "{to}: {error}");
    }
    // Empty difficulties: the table's own line.
    let start = shipped.find("    difficulties = {").expect("the table");
    let end = shipped[start..].find("\n    },\n").expect("its end") + start;
    let text = format!(
        "{}    difficulties = {{}}{}",
        &shipped[..start],
        &shipped[end + "\n    },".len()..]
    );
    let error = tessera_tetris_bot::capabilities()
        .check_script(&script(&text).expect("loads"))
        .expect_err("empty")
        .to_string();
    assert!(
        error.starts_with(&format!(
            "scripts/tetris.lua:{}: ",
            line_of(&text, "difficulties = {}")
        )),
        "{error}"
    );
    assert!(error.contains("`ai.difficulties` is empty"), "{error}");
}

#[test]
fn the_shipped_script_passes_its_check_and_keeps_god_seed() {
    let live = shipped();
    let script = live.current();
    tessera_tetris_bot::capabilities()
        .check_script(&script)
        .expect("the shipped script is fine");
    let names: Vec<String> = tessera_tetris_bot::ai::settings::difficulties(&script)
        .expect("reads")
        .into_iter()
        .map(|d| d.name)
        .collect();
    assert_eq!(
        names,
        [
            "EASY",
            "NORMAL",
            "HARD",
            "GOD_SEED",
            "GOD",
            "VS_HATETRIS",
            "MASTER"
        ],
        "the ladder, weakest first, with the seed's literal GOD for comparison and the \
         specialist against HATETRIS before MASTER, so MASTER stays the strongest"
    );
    let seed = tessera_tetris_bot::ai::settings::difficulty(&script, "god_seed")
        .expect("reads")
        .expect("GOD_SEED");
    assert_eq!(
        seed.order,
        tessera_tetris_bot::ai::SEED_ORDER,
        "GOD_SEED is the seed's section 3.2 order, literally"
    );
    assert_eq!(seed.lookahead, 0);
}

fn registry() -> Registry {
    let mut registry = Registry::empty();
    registry.register_with::<Tetris>(tessera_tetris_bot::register);
    registry
}

#[test]
fn a_feed_level_naming_an_unknown_difficulty_fails_check_at_its_line() {
    let text = "// a feed level\n(\n  version: 1,\n  rows: 22,\n  columns: 10,\n  feed: Some((\n    difficulty: \"GODD\",\n    target_lines: 6,\n  )),\n)\n";
    let registry = registry();
    let entry = registry.get("tetris").expect("tetris");
    let path = Path::new("levels/tetris/feed_typo.ron");
    let findings = entry.check_level_with(text, path, shipped());
    let error = findings
        .iter()
        .find(|d| d.is_error())
        .unwrap_or_else(|| panic!("refused: {findings:?}"))
        .to_string();
    assert!(
        error.starts_with("levels/tetris/feed_typo.ron:7"),
        "the level file and the line of `difficulty`: {error}"
    );
    assert!(error.contains("no difficulty `GODD`"), "{error}");
    // The same level with a known difficulty passes.
    let fine = text.replace("GODD", "GOD");
    let findings = entry.check_level_with(&fine, path, shipped());
    assert!(!findings.iter().any(|d| d.is_error()), "{findings:?}");
}

/// A feed level wider than the 10 columns the script's rows are checked
/// for: a row whose line search fits 10 columns but not this board is
/// refused at the level's `columns` line by the one check `check`, `play`
/// and the editor share, where the search once kept fewer boards than the
/// row names without a word.
#[test]
fn a_wide_feed_level_whose_line_search_does_not_fit_is_refused_at_columns() {
    let text = "// a wide feed level\n(\n  version: 1,\n  rows: 22,\n  columns: 64,\n  feed: Some((\n    difficulty: \"VS_HATETRIS\",\n    target_lines: 6,\n  )),\n)\n";
    let registry = registry();
    let entry = registry.get("tetris").expect("tetris");
    let path = Path::new("levels/tetris/wide.ron");
    // VS_HATETRIS twice as wide: a 64-wide board has 6.4 times the
    // landings a well to merge.
    let source = shipped_source().replace("line_beam = 16384,", "line_beam = 32768,");
    let wide_row = || LiveScript::new(script(&source).expect("the script loads"));
    let findings = entry.check_level_with(text, path, wide_row());
    let error = findings
        .iter()
        .find(|d| d.is_error())
        .unwrap_or_else(|| panic!("refused: {findings:?}"))
        .to_string();
    assert!(
        error.starts_with("levels/tetris/wide.ron:5"),
        "the level file and the line of `columns`: {error}"
    );
    assert!(error.contains("VS_HATETRIS"), "{error}");
    assert!(error.contains("on a 64-wide board"), "{error}");
    assert!(error.contains("over the 128 MiB budget"), "{error}");
    // The row fits the 10-wide board, and a row without a line search
    // fits any width.
    for fine in [
        text.replace("columns: 64", "columns: 10"),
        text.replace("VS_HATETRIS", "EASY"),
    ] {
        let findings = entry.check_level_with(&fine, path, wide_row());
        assert!(!findings.iter().any(|d| d.is_error()), "{findings:?}");
    }
}

#[test]
fn every_shipped_feed_level_passes_check() {
    let registry = registry();
    let entry = registry.get("tetris").expect("tetris");
    for n in 1..=8 {
        let folder = tessera_testkit::repo_path("levels/tetris");
        let path = std::fs::read_dir(&folder)
            .expect("levels")
            .filter_map(Result::ok)
            .map(|e| e.path())
            .find(|p| {
                p.file_name()
                    .and_then(|f| f.to_str())
                    .is_some_and(|f| f.starts_with(&format!("feed_{n}_")))
            })
            .unwrap_or_else(|| panic!("feed level {n}"));
        let text = std::fs::read_to_string(&path).expect("reads");
        let findings = entry.check_level_with(&text, &path, shipped());
        assert!(
            !findings.iter().any(|d| d.is_error()),
            "{}: {findings:?}",
            path.display()
        );
    }
}

fn logged(noise_seed: u64, turn: u64, board: Board, piece: PieceKind) -> String {
    let live = shipped();
    let script = live.current();
    let god = tessera_tetris_bot::ai::settings::difficulty(&script, "god")
        .expect("reads")
        .expect("GOD");
    let position = Position::shipped(board, piece);
    let choice = Brain::new().choose(&position, &god, noise_seed);
    log::write(
        &log::DecisionInput {
            position,
            difficulty: god,
            noise_seed,
            turn,
        },
        &choice,
        5,
    )
}

fn random_board(cells: &[bool]) -> Board {
    let mut board = Board::new(10, 22);
    // The lower half only, so a piece always spawns.
    for (i, &filled) in cells.iter().enumerate() {
        let (x, y) = (i % 10, 11 + i / 10);
        // Never a full row: it would have cleared.
        board.set(x, y, filled && x != i / 10 % 10);
    }
    board
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Every log the AI writes reads back to the same input and explains
    /// to the same decision, whatever the seed (u64: an i64 reader refused
    /// half of them) and the board.
    #[test]
    fn every_written_log_parses_and_explains(
        noise_seed in any::<u64>(),
        turn in any::<u64>(),
        cells in proptest::collection::vec(any::<bool>(), 110),
        piece in 0usize..7,
    ) {
        let text = logged(noise_seed, turn, random_board(&cells), PieceKind::ALL[piece]);
        let parsed = log::parse(&text).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(parsed.input.noise_seed, noise_seed);
        prop_assert_eq!(parsed.input.turn, turn);
        let (_, differences) = log::explain(&parsed, &parsed.input.difficulty);
        prop_assert!(differences.is_empty(), "{:?}", differences);
    }
}

#[test]
fn the_largest_seed_reads_back() {
    let text = logged(u64::MAX, u64::MAX, Board::new(10, 22), PieceKind::T);
    assert!(text.contains("noiseSeed: 18446744073709551615"), "{text}");
    let parsed = log::parse(&text).expect("reads");
    assert_eq!(parsed.input.noise_seed, u64::MAX);
}

#[test]
fn a_hostile_logged_table_is_refused_at_its_line() {
    let text = logged(7, 1, Board::new(10, 22), PieceKind::T);
    let table_line = line_of(&text, "table: ");
    let table = text
        .lines()
        .nth(table_line - 1)
        .expect("the table line")
        .to_string();
    for (from, to, message) in [
        (
            "noise:0.0",
            "noise:inf",
            "`noise` must be 0 to 1000, not inf",
        ),
        (
            "noise:0.0",
            "noise:NaN",
            "`noise` must be 0 to 1000, not NaN",
        ),
        (
            "beam:3",
            "beam:18446744073709551615",
            "`beam` must be 1 to 4096",
        ),
        // GOD searches the expected line: up to 32 pieces deep.
        (
            "lookahead:1",
            "lookahead:255",
            "`lookahead` must be 0 to 32",
        ),
        // GOD's ranking for a player off its line is checked too.
        (
            "adversary:Score,line_depth:0,line_beam:0",
            "adversary:Score,line_depth:0,line_beam:0,line_step:99",
            "off_line: `line_step` must be 0 to 32, not 99",
        ),
        // The planner's lead against HATETRIS (GOD's table leaves it out
        // at 0).
        (
            "line_trust:3",
            "line_trust:3,line_lead:65",
            "`line_lead` must be 0 to 64, not 65",
        ),
        (
            "line_trust:3",
            "line_trust:200",
            "`line_trust` must be 0 to 64, not 200",
        ),
        (
            "\"holes\":-7.899265427351652",
            "\"holes\":inf",
            "weight `holes` must be a finite number",
        ),
    ] {
        assert!(table.contains(from), "{from} in {table}");
        let hostile = text.replace(&table, &table.replace(from, to));
        let error = log::parse(&hostile).expect_err(to);
        assert_eq!(error.line, table_line, "{to}: {error}");
        assert!(error.message.contains(message), "{to}: {error}");
        assert_eq!(
            error.in_file(Path::new("x.log")),
            format!("x.log:{table_line}: {}", error.message),
            "PATH:LINE: message"
        );
    }
}

#[test]
fn a_v1_log_says_it_is_from_an_older_version() {
    let text = logged(1, 1, Board::new(10, 22), PieceKind::O)
        .replace(log::HEADER, "tessera tetris ai log v1");
    let error = log::parse(&text).expect_err("v1");
    assert_eq!(error.line, 1);
    assert!(error.message.contains("older tessera"), "{error}");
}

#[test]
fn the_log_table_has_named_columns_and_grouped_numbers() {
    let text = logged(3, 1, Board::new(10, 22), PieceKind::I);
    let header = text
        .lines()
        .find(|l| l.trim_start().starts_with('#'))
        .expect("a header row");
    // GOD's ranking for a player who has not fed its line yet.
    for name in ["landing", "highRows", "nextTopOut", "lookahead", "score"] {
        assert!(header.contains(name), "{name} in {header}");
    }
    assert_eq!(log::grouped(-1_000_012.345_6, 3), "-1,000,012.346");
    assert_eq!(log::grouped(999.0, 0), "999");
    assert_eq!(log::grouped(1000.0, 0), "1,000");
    assert_eq!(log::grouped(-0.0001, 2), "0.00");
    assert_eq!(log::grouped(f64::NEG_INFINITY, 3), "-");
}

#[test]
fn the_live_script_reader_matches_check() {
    // A game start with a script `check` refuses fails too, naming the
    // same line: one reader.
    let live: LiveScript = shipped_with(
        "beam = 3, adversary = \"own\", line_depth = 10, line_beam = 40",
        "beam = 0, adversary = \"own\", line_depth = 10, line_beam = 40",
    );
    let checked = tessera_tetris_bot::capabilities()
        .check_script(&live.current())
        .expect_err("beam 0")
        .to_string();
    assert!(
        checked.contains("`ai.difficulties[7].beam` must be 1 to 4096, not 0 (MASTER)"),
        "{checked}"
    );
}

/// Issue 36: every number of a row in its range, the search they size
/// together over memory. The shipped rows fit the budget; 64 plies of
/// 65,536 boards do not and are named; a row that fits on the 10-wide
/// board keeps fewer boards on a 64-wide level instead of running out.
#[test]
fn a_line_search_is_bounded_by_the_memory_budget() {
    use tessera_tetris_bot::ai::limits;
    let shipped = tessera_tetris_bot::ai::settings::default_difficulties();
    for row in &shipped {
        assert_eq!(row.search_over_budget(), None, "{}", row.name);
        assert_eq!(row.problem(), None, "{}", row.name);
    }
    // A line-search row (the built-in table's rows may all rank by
    // `score`, which ignores `line_beam`): the first, searching lines.
    let mut deep = shipped[0].clone();
    deep.adversary = tessera_tetris_bot::ai::Adversary::Own;
    deep.line_depth = 64;
    deep.line_beam = 65_536;
    let why = deep.search_over_budget().expect("over the budget");
    assert!(why.contains("over the 128 MiB budget"), "{why}");
    assert!(deep.problem().is_some(), "a log's table is refused too");
    let fits = limits::beam_within_budget(deep.adversary, 64, limits::CHECKED_COLUMNS);
    deep.line_beam = fits;
    assert_eq!(
        deep.search_over_budget(),
        None,
        "the largest beam named fits"
    );
    deep.line_beam = fits + 1;
    assert!(deep.search_over_budget().is_some(), "one more does not");
    deep.line_beam = fits;
    let wide = deep.line_beam_on(64);
    assert!(wide < fits, "{wide} boards on 64 columns, {fits} on 10");
    assert!(limits::line_search_bytes(deep.adversary, 64, wide, 64) <= limits::SEARCH_BYTES);
    // The search against HATETRIS keeps its older plies compact and prunes
    // a ply's children as they merge: the widest, deepest row in range
    // fits on the 10-wide well (the rolling beam), not on a 64-wide one.
    deep.adversary = tessera_tetris_bot::ai::Adversary::Height;
    deep.line_beam = 65_536;
    assert_eq!(deep.search_over_budget(), None);
    assert!(deep.search_over_budget_on(64).is_some());
}

/// Every key the `ai`, `feed` and difficulty-row readers accept is in the
/// Script section of Tetris's page, so the docs cannot drift from the
/// readers.
#[test]
fn every_ai_and_feed_key_is_on_the_games_page() {
    let tetris = tessera_testkit::script_docs("tetris");
    for (table, keys) in tessera_tetris_bot::ai::settings::table_keys() {
        for key in keys {
            assert!(
                tetris.contains(&format!("`{key}`")),
                "docs/games/tetris.md does not document `{table}.{key}`"
            );
        }
    }
}
