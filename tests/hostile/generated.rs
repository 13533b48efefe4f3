//! Generated hostile inputs: proptest mutations (truncations, byte flips,
//! huge numbers, deep nesting, unknown fields) of every registered game's
//! shipped levels and script (through `check` and a game start, which must
//! agree), a sample action file per game (through `play`), a Tetris AI log
//! (through `tetris explain`), an Azul game record (through `azul
//! check`), the four-player Azul table's seat list (too few, too many,
//! unknown AIs; `check` and a game start must agree) and the first of two
//! shards' partials of a sim and of a count (through `tessera merge`). The
//! generator is seeded, each source by its path, so the cases (and the
//! snapshot of the distinct message shapes) are the same on every run, and
//! a new game adds its own without redrawing the others'.

use std::collections::BTreeSet;
use std::path::Path;
use std::sync::Mutex;

use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

use crate::hostile::harness::{Run, normalise, tessera};
use crate::hostile::{Maxima, assert_sane, project, write};

/// One way to break a file.
#[derive(Debug, Clone)]
enum Mutation {
    /// Keep only the first part (a fraction of the length, in thousandths).
    Truncate(usize),
    /// Replace one byte (position in thousandths) with this one.
    Flip(usize, u8),
    /// Put a huge or odd number where a number is.
    HugeNumber(usize, &'static str),
    /// Wrap a value in many brackets.
    DeepNesting(usize, usize),
    /// Add a field no format knows.
    UnknownField(usize),
    /// Replace a level's seat list by this many seats, of kinds cycling
    /// from this one (a person, a known AI, an AI the game lacks).
    SeatList(usize, usize),
}

const HUGE: &[&str] = &[
    "1e300",
    "-1e300",
    "99999999999999999999999",
    "4294967297",
    "-1",
    "0",
    "0.5",
    "nan",
    "inf",
];

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (0usize..1000).prop_map(Mutation::Truncate),
        (0usize..1000, any::<u8>()).prop_map(|(at, b)| Mutation::Flip(at, b)),
        (0usize..1000, proptest::sample::select(HUGE))
            .prop_map(|(at, n)| Mutation::HugeNumber(at, n)),
        (0usize..1000, 50usize..3000).prop_map(|(at, depth)| Mutation::DeepNesting(at, depth)),
        (0usize..1000).prop_map(Mutation::UnknownField),
    ]
}

/// Seat lists: too few, a fitting number, too many (a thousand).
fn seat_list() -> impl Strategy<Value = Mutation> {
    (prop_oneof![0usize..6, 995usize..1005], 0usize..4)
        .prop_map(|(count, kind)| Mutation::SeatList(count, kind))
}

/// The seat kinds a mutated seat list cycles through.
const SEAT_KINDS: &[&str] = &[
    "Human",
    r#"Ai(level: "easy")"#,
    r#"Ai(level: "grandmaster")"#,
    r#"Ai(level: "")"#,
];

fn apply(text: &str, mutation: &Mutation, lua: bool) -> Vec<u8> {
    let bytes = text.as_bytes();
    let at = |thousandths: usize| bytes.len() * thousandths / 1000;
    match mutation {
        Mutation::Truncate(t) => bytes[..at(*t)].to_vec(),
        Mutation::Flip(t, b) => {
            let mut out = bytes.to_vec();
            if let Some(byte) = out.get_mut(at(*t)) {
                *byte = *b;
            }
            out
        }
        Mutation::HugeNumber(t, number) => {
            // The first digit at or after the point becomes the number.
            let start = at(*t);
            let Some(offset) = bytes[start..].iter().position(u8::is_ascii_digit) else {
                return bytes.to_vec();
            };
            let begin = start + offset;
            let end = begin
                + bytes[begin..]
                    .iter()
                    .position(|b| !(b.is_ascii_digit() || *b == b'.'))
                    .unwrap_or(bytes.len() - begin);
            let number = if lua && *number == "nan" {
                "(0/0)"
            } else if lua && *number == "inf" {
                "math.huge"
            } else {
                number
            };
            [&bytes[..begin], number.as_bytes(), &bytes[end..]].concat()
        }
        Mutation::DeepNesting(t, depth) => {
            let start = at(*t);
            let (open, close) = if lua { ("{", "}") } else { ("[", "]") };
            [
                &bytes[..start],
                open.repeat(*depth).as_bytes(),
                close.repeat(*depth).as_bytes(),
                &bytes[start..],
            ]
            .concat()
        }
        Mutation::UnknownField(t) => {
            // After the first opening bracket at or after the point.
            let start = at(*t);
            let opener = if lua { b'{' } else { b'(' };
            let Some(offset) = bytes[start..].iter().position(|b| *b == opener) else {
                return [bytes, b"\n// bogus: 1\n".as_slice()].concat();
            };
            let split = start + offset + 1;
            let field: &[u8] = if lua {
                b" bogus_field = 1, "
            } else {
                b" bogus: 1, "
            };
            [&bytes[..split], field, &bytes[split..]].concat()
        }
        Mutation::SeatList(count, kind) => {
            let Some(start) = text.find("seats: [").map(|at| at + "seats: [".len()) else {
                return bytes.to_vec();
            };
            let end = start + text[start..].find(']').unwrap_or(0);
            let seats: Vec<&str> = (0..*count)
                .map(|i| SEAT_KINDS[(kind + i) % SEAT_KINDS.len()])
                .collect();
            format!("{}{}{}", &text[..start], seats.join(", "), &text[end..]).into_bytes()
        }
    }
}

/// What a generated case is about.
#[derive(Clone, Copy)]
enum Kind {
    Level {
        game: &'static str,
    },
    Script {
        game: &'static str,
    },
    Actions {
        game: &'static str,
    },
    /// A Tetris AI log, through `tetris explain`.
    AiLog,
    /// An Azul game record, through `azul check`.
    Record,
    /// The first of two shards' partials, through `tessera merge` with
    /// the second (`Source::beside`) intact.
    Merge,
}

struct Source {
    kind: Kind,
    /// Where the mutated file goes in the project.
    relative: String,
    text: String,
    cases: usize,
    /// How it is broken: the general mutations, or seat lists.
    seat_lists: bool,
    /// A file written intact beside it (the other shard of a merge).
    beside: Option<(String, String)>,
}

const SAND_ACTIONS: &str = "[\n  Place(slot: 0, x: 4, y: 0),\n  Tick(30),\n  Settle,\n  Place(slot: 1, x: 0, y: 0, rotation: 0),\n  Settle,\n]\n";
const TETRIS_ACTIONS: &str = "[\n  Press(Left),\n  Tick(12),\n  Release(Left),\n  RotateCw,\n  HardDrop,\n  Drop(x: 3, rotation: 1),\n  Tick(30),\n]\n";
const AZUL_ACTIONS: &str = "[\n  Take(from: Factory(1), colour: Blue, to: Line(1)),\n  Take(from: Centre, colour: Red, to: Floor),\n  Wall(row: 1, column: 2),\n]\n";
const POLYCUBE_ACTIONS: &str = "[\n  PlaceAt(piece: \"A\", rotation: 0, at: (1, 1, 1)),\n  Undo,\n  Redo,\n  PickUp(piece: \"A\"),\n  Hint,\n]\n";

/// Mutated level cases per game, spread over its shipped levels.
const LEVEL_CASES_PER_GAME: usize = 48;
/// Mutated script cases per game.
const SCRIPT_CASES_PER_GAME: usize = 40;

/// A sample action list of a game, to mutate (games without one get level
/// and script cases only).
fn sample_actions(game: &str) -> Option<&'static str> {
    match game {
        "sand" => Some(SAND_ACTIONS),
        "polycube" => Some(POLYCUBE_ACTIONS),
        "tetris" => Some(TETRIS_ACTIONS),
        "azul" => Some(AZUL_ACTIONS),
        _ => None,
    }
}

/// The files to mutate: every registered game's shipped levels and script
/// (the registry is the one list of games), and its sample actions.
fn sources() -> Vec<Source> {
    let root = tessera_testkit::repo_root();
    let mut out = Vec::new();
    for entry in tessera_builtin::registry().iter() {
        let game = entry.id;
        let mut levels: Vec<_> = std::fs::read_dir(root.join("levels").join(game))
            .expect("shipped levels")
            .flatten()
            .map(|e| e.path())
            .collect();
        levels.sort();
        let per_level = (LEVEL_CASES_PER_GAME / levels.len().max(1)).max(3);
        for level in levels {
            let name = level
                .file_name()
                .expect("name")
                .to_string_lossy()
                .into_owned();
            out.push(Source {
                kind: Kind::Level { game },
                relative: format!("levels/{game}/{name}"),
                text: std::fs::read_to_string(&level).expect("level"),
                cases: per_level,
                seat_lists: false,
                beside: None,
            });
        }
        out.push(Source {
            kind: Kind::Script { game },
            relative: format!("scripts/{game}.lua"),
            text: std::fs::read_to_string(root.join(format!("scripts/{game}.lua")))
                .expect("script"),
            cases: SCRIPT_CASES_PER_GAME,
            seat_lists: false,
            beside: None,
        });
        if let Some(actions) = sample_actions(game) {
            out.push(Source {
                kind: Kind::Actions { game },
                relative: "actions.ron".into(),
                text: actions.into(),
                cases: 20,
                seat_lists: false,
                beside: None,
            });
        }
    }
    out.push(Source {
        kind: Kind::AiLog,
        relative: "ai.log".into(),
        text: ai_log(),
        cases: 24,
        seat_lists: false,
        beside: None,
    });
    out.push(Source {
        kind: Kind::Record,
        relative: "game.jsonl".into(),
        text: azul_record(),
        cases: 24,
        seat_lists: false,
        beside: None,
    });
    out.push(Source {
        kind: Kind::Level { game: "azul" },
        relative: "levels/azul/four_players.ron".into(),
        text: std::fs::read_to_string(root.join("levels/azul/four_players.ron"))
            .expect("the four-player table"),
        cases: 16,
        seat_lists: true,
        beside: None,
    });
    let sim = [
        "sim", "tetris", "--ai", "easy", "--games", "2", "--pieces", "5",
    ];
    let count = ["solve", "--count", "levels/polycube/soma.ron"];
    for command in [&sim[..], &count[..]] {
        let [first, second] = shards(command);
        out.push(Source {
            kind: Kind::Merge,
            relative: "p1.json".into(),
            text: first,
            cases: 20,
            seat_lists: false,
            beside: Some(("p2.json".into(), second)),
        });
    }
    out
}

/// The partials of `command --shard 1/2` and `2/2`, printed by the binary,
/// their measured times (seconds, time per decision) made one fixed
/// number: the mutations land by position, and the cases (and the columns
/// messages name) must not move from run to run.
pub(crate) fn shards(command: &[&str]) -> [String; 2] {
    fn fixed_times(value: &mut serde_json::Value) {
        match value {
            serde_json::Value::Number(n) if n.is_f64() => *value = serde_json::Value::from(1.5),
            serde_json::Value::Array(items) => items.iter_mut().for_each(fixed_times),
            serde_json::Value::Object(fields) => fields.values_mut().for_each(fixed_times),
            _ => {}
        }
    }
    let dir = project();
    ["1/2", "2/2"].map(|shard| {
        let args: Vec<&str> = command.iter().copied().chain(["--shard", shard]).collect();
        let run = tessera(dir.path(), &args);
        assert_eq!(run.code, Some(0), "{args:?}: {}", run.output());
        let mut partial: serde_json::Value =
            serde_json::from_str(run.stdout.trim()).expect("a partial");
        fixed_times(&mut partial);
        partial.to_string()
    })
}

/// An AI log as the editor's S panel writes it: GOD's decision on an
/// empty 10 x 22 board.
pub(crate) fn ai_log() -> String {
    use tessera_tetris::piece::PieceKind;
    use tessera_tetris_bot::ai::{Brain, Position, log};
    let god = tessera_tetris_bot::ai::settings::default_difficulties()
        .into_iter()
        .find(|d| d.name == "GOD")
        .expect("GOD");
    let position = Position {
        next: Some(PieceKind::S),
        ..Position::shipped(tessera_tetris::board::Board::new(10, 22), PieceKind::T)
    };
    let choice = Brain::new().choose(&position, &god, 11);
    log::write(
        &log::DecisionInput {
            position,
            difficulty: god,
            noise_seed: 11,
            turn: 3,
        },
        &choice,
        5,
    )
}

/// A real Azul record (easy against easy), written by the binary.
fn azul_record() -> String {
    let dir = project();
    let run = tessera(
        dir.path(),
        &[
            "play",
            "azul",
            "--ai-only",
            "--seat",
            "ai:easy",
            "--seat",
            "ai:easy",
            "--seed",
            "3",
            "--record",
            "game.jsonl",
        ],
    );
    assert_eq!(run.code, Some(0), "{}", run.output());
    std::fs::read_to_string(dir.path().join("game.jsonl")).expect("the record")
}

/// A message with its numbers and the file name taken out: the wording to
/// review (`FILE.ron:N:N: expected integer`).
fn shape(text: &str) -> String {
    let text = text.strip_prefix("tessera: ").unwrap_or(text);
    let text = match [".ron:", ".lua:", ".jsonl:", ".json:", ".log:"]
        .iter()
        .find_map(|ext| text.find(ext).map(|at| (at, ext)))
    {
        Some((at, ext)) if !text[..at].contains(' ') => {
            format!("FILE{ext}{}", &text[at + ext.len()..])
        }
        _ => text.to_string(),
    };
    let text = text.replace("UTF-8", "UTF~8");
    let mut out = String::new();
    let mut last_digit = false;
    for c in text.chars() {
        if c.is_ascii_digit() {
            if !last_digit {
                out.push('N');
            }
            last_digit = true;
        } else {
            out.push(c);
            last_digit = false;
        }
    }
    out.replace("UTF~N", "UTF-8").chars().take(160).collect()
}

/// The error lines of a run (not boards or summaries).
fn messages(run: &Run, dir: &Path) -> Vec<String> {
    normalise(&run.output(), dir)
        .lines()
        .filter(|l| {
            [".ron:", ".lua:", ".jsonl:", ".log:"]
                .iter()
                .any(|ext| l.contains(ext))
                || l.starts_with("tessera:")
        })
        .map(shape)
        .collect()
}

/// The seed of one source's mutations, from its path alone (FNV-1a, then
/// SplitMix64 to fill 32 bytes): a game added to the list adds its own
/// cases and leaves every other source's as they were.
fn source_seed(relative: &str) -> [u8; 32] {
    let mut state = relative
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325_u64, |hash, byte| {
            (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
        });
    let mut seed = [0; 32];
    for chunk in seed.chunks_mut(8) {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        chunk.copy_from_slice(&(z ^ (z >> 31)).to_le_bytes());
    }
    seed
}

#[test]
fn generated_mutations_are_refused_cleanly_or_accepted_by_both() {
    let mut jobs = Vec::new();
    for source in sources() {
        let mut runner = TestRunner::new_with_rng(
            Config::default(),
            TestRng::from_seed(RngAlgorithm::ChaCha, &source_seed(&source.relative)),
        );
        for _ in 0..source.cases {
            let mutation = if source.seat_lists {
                seat_list().boxed().new_tree(&mut runner)
            } else {
                mutation().boxed().new_tree(&mut runner)
            }
            .expect("a mutation")
            .current();
            jobs.push((
                source.kind,
                source.relative.clone(),
                source.text.clone(),
                mutation,
                source.beside.clone(),
            ));
        }
    }
    assert!(jobs.len() >= 200, "{} generated cases", jobs.len());
    let shapes = Mutex::new(BTreeSet::new());
    let maxima = Mutex::new(Maxima::default());
    let next = Mutex::new(0usize);
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| {
                loop {
                    let index = {
                        let mut next = next.lock().unwrap_or_else(|e| e.into_inner());
                        *next += 1;
                        *next - 1
                    };
                    let Some((kind, relative, text, mutation, beside)) = jobs.get(index) else {
                        break;
                    };
                    let case = format!("case {index} ({relative}, {mutation:?})");
                    let lua = relative.ends_with(".lua");
                    let dir = project();
                    write(dir.path(), relative, apply(text, mutation, lua));
                    if let Some((other, intact)) = beside {
                        write(dir.path(), other, intact);
                    }
                    write(dir.path(), "none.ron", "[]");
                    let runs = run_case(dir.path(), *kind, relative, &case);
                    let mut found = Vec::new();
                    for run in &runs {
                        maxima.lock().unwrap_or_else(|e| e.into_inner()).add(run);
                        found.extend(messages(run, dir.path()));
                    }
                    shapes
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .extend(found);
                }
            });
        }
    });
    let maxima = maxima.into_inner().unwrap_or_else(|e| e.into_inner());
    eprintln!(
        "hostile generated: {} cases, peak RSS {} KiB, longest {} ms",
        jobs.len(),
        maxima.rss_kib,
        maxima.millis
    );
    let shapes: Vec<String> = shapes
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .collect();
    tessera_testkit::snapshots()
        .bind(|| insta::assert_snapshot!("generated_message_shapes", shapes.join("\n")));
}

/// `check` and a game start on one mutated file; they must agree.
fn run_case(dir: &Path, kind: Kind, relative: &str, case: &str) -> Vec<Run> {
    match kind {
        Kind::Level { game } => {
            let check = tessera(dir, &["check", relative]);
            assert_sane(&format!("{case}: check"), &check);
            let play = tessera(
                dir,
                &["play", game, "--level", relative, "--actions", "none.ron"],
            );
            assert_sane(&format!("{case}: play"), &play);
            assert_eq!(
                check.code,
                play.code,
                "{case}: check and play disagree:\ncheck: {}\nplay: {}",
                check.output(),
                play.output()
            );
            vec![check, play]
        }
        Kind::Script { game } => {
            let check = tessera(dir, &["check", relative]);
            assert_sane(&format!("{case}: check"), &check);
            let play = tessera(dir, &["play", game, "--actions", "none.ron"]);
            assert_sane(&format!("{case}: play"), &play);
            assert_eq!(
                check.code,
                play.code,
                "{case}: check and play disagree:\ncheck: {}\nplay: {}",
                check.output(),
                play.output()
            );
            vec![check, play]
        }
        Kind::Actions { game } => {
            let play = tessera(dir, &["play", game, "--actions", relative]);
            assert_sane(&format!("{case}: play"), &play);
            vec![play]
        }
        Kind::AiLog => {
            let explain = tessera(dir, &["tetris", "explain", relative]);
            assert_sane(&format!("{case}: explain"), &explain);
            vec![explain]
        }
        Kind::Record => {
            let check = tessera(dir, &["azul", "check", relative]);
            assert_sane(&format!("{case}: azul check"), &check);
            vec![check]
        }
        Kind::Merge => {
            let merge = tessera(dir, &["merge", relative, "p2.json"]);
            // A refusal names the partial that does not fit (most have no
            // line to name: partials that do not belong together).
            let names_a_partial = ["p1.json", "p2.json"]
                .iter()
                .any(|p| merge.output().contains(p));
            if merge.code == Some(1) && names_a_partial {
                crate::hostile::assert_limits(&format!("{case}: merge"), &merge);
            } else {
                assert_sane(&format!("{case}: merge"), &merge);
            }
            vec![merge]
        }
    }
}
