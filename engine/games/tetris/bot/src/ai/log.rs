//! The AI log of the seed's section 5: one decision written out so a
//! person can read why the AI played there, and `tessera tetris explain`
//! can replay it exactly (board, piece, the difficulty's values and the
//! noise seed are all in it) and say what differs.
//!
//! The text is line-oriented: `key: value` lines, the board between
//! `grid:` and `end grid`, then the ranking. `table:` holds the
//! difficulty as RON, so a log pasted from an older script still replays
//! with the values it was decided with.

use super::metrics::Metric;
use std::sync::atomic::AtomicBool;

use super::{Brain, Cancelled, Candidate, CeilingClock, Choice, Difficulty, Position, UnknownNext};
use serde::{Deserialize, Serialize};

use tessera_tetris::board::Board;
use tessera_tetris::feed_rules::FeedRules;
use tessera_tetris::piece::{PieceKind, RotationSystem};

/// The first line of every log.
pub const HEADER: &str = "tessera tetris ai log v2";
/// The first line of the logs before the table was written by name.
const HEADER_V1: &str = "tessera tetris ai log v1";

/// Everything one decision was made from.
#[derive(Debug, Clone, PartialEq)]
pub struct DecisionInput {
    /// The position decided on.
    pub position: Position,
    /// The difficulty's values at the time.
    pub difficulty: Difficulty,
    /// The noise stream's seed.
    pub noise_seed: u64,
    /// The AI's piece count so far (the seed's "turn").
    pub turn: u64,
}

/// A difficulty as a log's `table:` holds it: the script row's keys, flat
/// and in the script's order (the feed rules among them, where the row
/// has always written them), so logs written before the feed rules moved
/// to the rules read as they did and new logs are written the same.
#[derive(Clone, Serialize, Deserialize)]
pub struct TableRow {
    name: String,
    weights: super::Weights,
    noise: f64,
    order: Vec<Metric>,
    lookahead: u8,
    beam: usize,
    decision_ms: u32,
    special_chance: f64,
    ceiling_every: u32,
    #[serde(default)]
    adversary: super::Adversary,
    #[serde(default)]
    line_depth: u8,
    #[serde(default)]
    line_beam: usize,
    // Left out when 0 or absent, so the logs of every difficulty without
    // them read as before.
    #[serde(default, skip_serializing_if = "is_zero")]
    line_step: u8,
    #[serde(default, skip_serializing_if = "is_zero")]
    line_lead: u8,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    off_line: Option<Box<Difficulty>>,
    #[serde(default, skip_serializing_if = "is_zero")]
    line_trust: u8,
}

/// Whether a count is 0 (serde's `skip_serializing_if`).
fn is_zero(n: &u8) -> bool {
    *n == 0
}

impl From<Difficulty> for TableRow {
    fn from(d: Difficulty) -> Self {
        Self {
            name: d.name,
            weights: d.weights,
            noise: d.noise,
            order: d.order,
            lookahead: d.lookahead,
            beam: d.beam,
            decision_ms: d.decision_ms,
            special_chance: d.feed.special_chance,
            ceiling_every: d.feed.ceiling_every,
            adversary: d.adversary,
            line_depth: d.line_depth,
            line_beam: d.line_beam,
            line_step: d.line_step,
            line_lead: d.line_lead,
            off_line: d.off_line,
            line_trust: d.line_trust,
        }
    }
}

impl From<TableRow> for Difficulty {
    fn from(row: TableRow) -> Self {
        Self {
            name: row.name,
            weights: row.weights,
            noise: row.noise,
            order: row.order,
            lookahead: row.lookahead,
            beam: row.beam,
            decision_ms: row.decision_ms,
            feed: FeedRules {
                special_chance: row.special_chance,
                ceiling_every: row.ceiling_every,
            },
            adversary: row.adversary,
            line_depth: row.line_depth,
            line_beam: row.line_beam,
            line_step: row.line_step,
            line_lead: row.line_lead,
            off_line: row.off_line,
            line_trust: row.line_trust,
        }
    }
}

/// How a landing is written: `T r1 x3 y17` (rotation state, leftmost
/// column, top row: what a `Drop` action names).
pub fn landing_text(c: &Candidate) -> String {
    let p = &c.placement;
    format!(
        "{} r{} x{} y{}",
        p.kind,
        p.state,
        p.left_column(),
        p.top_row()
    )
}

/// A number as a person reads it: thousands separated by commas
/// (`-1,000,012.345`), `decimals` after the point, `-` for no value.
pub fn grouped(v: f64, decimals: usize) -> String {
    if !v.is_finite() {
        return if v.is_nan() { "NaN".into() } else { "-".into() };
    }
    let text = format!("{:.*}", decimals, v.abs());
    let (whole, fraction) = text.split_once('.').unwrap_or((&text, ""));
    let mut out = String::new();
    for (i, digit) in whole.chars().enumerate() {
        if i > 0 && (whole.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(digit);
    }
    if !fraction.is_empty() {
        out.push('.');
        out.push_str(fraction);
    }
    if v < 0.0 && out.chars().any(|c| c.is_ascii_digit() && c != '0') {
        out.insert(0, '-');
    }
    out
}

/// One metric's value of `c` as the log writes it.
fn value_text(c: &Candidate, m: Metric) -> String {
    let v = c.value(m);
    match m {
        Metric::Score | Metric::Lookahead => grouped(v, 3),
        _ if v.fract() != 0.0 => grouped(v, 1),
        _ => grouped(v, 0),
    }
}

fn metrics_text(c: &Candidate) -> String {
    // The lookahead's values only where the lookahead looked.
    let looked = c.ahead.is_some() || c.next_tops_out.is_some();
    Metric::ALL
        .iter()
        .filter(|&&m| looked || !matches!(m, Metric::NextTopOut | Metric::Lookahead))
        .filter(|&&m| m != Metric::LinePlies || c.line_plies.is_some())
        .map(|&m| format!("{}={}", m.name(), value_text(c, m)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The columns of the candidate table: what the difficulty ranks by or
/// weighs, plus lines, holes and the highest column, in the log's order.
fn columns(d: &Difficulty) -> Vec<Metric> {
    Metric::ALL
        .into_iter()
        .filter(|&m| {
            matches!(
                m,
                Metric::Score | Metric::LinesCleared | Metric::Holes | Metric::MaxHeight
            ) || d.order.contains(&m)
                || d.weights.get(m) != 0.0
                || (m == Metric::Lookahead && d.lookahead > 0)
        })
        .collect()
}

/// The candidate table: a header of metric names, then one row per
/// candidate (`  1. T r1 x3 y17 | ...`), values right-aligned under them.
fn candidate_table(d: &Difficulty, candidates: &[Candidate]) -> Vec<String> {
    let columns = columns(d);
    let landings: Vec<String> = candidates.iter().map(landing_text).collect();
    let cells: Vec<Vec<String>> = candidates
        .iter()
        .map(|c| columns.iter().map(|&m| value_text(c, m)).collect())
        .collect();
    let widths: Vec<usize> = columns
        .iter()
        .enumerate()
        .map(|(j, m)| {
            cells
                .iter()
                .map(|row| row[j].len())
                .chain([m.name().len()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let landing_width = landings.iter().map(String::len).max().unwrap_or(0).max(7);
    let number_width = candidates.len().to_string().len() + 1;
    let mut out = Vec::with_capacity(candidates.len() + 1);
    let mut header = format!("  {:>number_width$} {:<landing_width$} |", "#", "landing");
    for (m, w) in columns.iter().zip(&widths) {
        header.push_str(&format!(" {:>w$}", m.name()));
    }
    out.push(header);
    for (i, (landing, row)) in landings.iter().zip(&cells).enumerate() {
        let number = format!("{}.", i + 1);
        let mut line = format!("  {number:>number_width$} {landing:<landing_width$} |");
        for (cell, w) in row.iter().zip(&widths) {
            line.push_str(&format!(" {cell:>w$}"));
        }
        out.push(line);
    }
    out
}

/// Writes the log of `choice`, made from `input`, listing the top `top`.
pub fn write(input: &DecisionInput, choice: &Choice, top: usize) -> String {
    // The ranking that decided: the row's own, or its `off_line` one for
    // a player off the expected line.
    let d = match (&input.difficulty.off_line, choice.off_line) {
        (Some(other), true) => other.as_ref(),
        _ => &input.difficulty,
    };
    let p = &input.position;
    let mut out = String::new();
    let mut line = |s: String| {
        out.push_str(&s);
        out.push('\n');
    };
    line(HEADER.into());
    line(format!("version: tessera {}", env!("CARGO_PKG_VERSION")));
    line(format!("difficulty: {}", d.name));
    line(format!("turn: {}", input.turn));
    line(format!("piece: {}", p.piece));
    line(format!(
        "next: {}",
        p.next.map_or("-".to_string(), |k| k.to_string())
    ));
    let (how, pieces) = match &p.unknown_next {
        UnknownNext::Average(k) => ("average", k),
        UnknownNext::Worst(k) => ("worst", k),
    };
    line(format!(
        "unknownNext: {how} {}",
        pieces.iter().map(|k| k.letter()).collect::<String>()
    ));
    line(format!("rotation: {}", p.rotation));
    line(format!("spawnRow: {}", p.spawn_row));
    line(format!("dangerRows: {}", p.danger_rows));
    if p.ceiling.every > 0 {
        line(format!(
            "ceiling: drops after {} every {}",
            p.ceiling.drops_after, p.ceiling.every
        ));
    }
    line(format!("noiseSeed: {}", input.noise_seed));
    if input.difficulty.off_line.is_some() {
        line(format!("readerStreak: {}", p.reader_streak));
        line(format!(
            "player: {}",
            if choice.off_line {
                "not trusted to feed the expected line (fewer reader's pieces in a row than line_trust): off_line_order ranks"
            } else {
                "feeds the expected line (line_trust reader's pieces in a row): order ranks"
            }
        ));
    }
    line(format!(
        "order: {}",
        if d.order.is_empty() {
            if d.lookahead > 0 && d.adversary != super::Adversary::Score {
                // The expected-line search's survival first (feed mode).
                "linePlies > lookahead > score".to_string()
            } else if d.lookahead > 0 {
                "lookahead > score".to_string()
            } else {
                "score".to_string()
            }
        } else {
            d.order
                .iter()
                .map(|m| m.name())
                .collect::<Vec<_>>()
                .join(" > ")
        }
    ));
    line(format!(
        "table: {}",
        ron::to_string(&input.difficulty).unwrap_or_else(|e| format!("(cannot write: {e})"))
    ));
    line(format!("grid: {}x{}", p.board.width(), p.board.height()));
    for row in p.board.to_text().lines() {
        line(row.to_string());
    }
    line("end grid".into());
    line(format!("decidedBy: {}", choice.decided_by.unwrap_or("-")));
    match choice.best() {
        Some(best) => line(format!(
            "best: {} | {}",
            landing_text(best),
            metrics_text(best)
        )),
        None => line("best: - (no reachable landing)".into()),
    }
    let shown = top.min(choice.candidates.len());
    line(format!("top({shown}/{}):", choice.candidates.len()));
    for row in candidate_table(d, &choice.candidates[..shown]) {
        line(row);
    }
    out
}

/// A log read back: the input to replay and what it says was decided.
#[derive(Debug, Clone, PartialEq)]
pub struct ParsedLog {
    /// What the decision was made from.
    pub input: DecisionInput,
    /// The logged best landing (`T r1 x3 y17`), if any.
    pub best: Option<String>,
    /// The logged `decidedBy`.
    pub decided_by: Option<String>,
    /// The logged top list, landings only.
    pub top: Vec<String>,
}

/// A reason a log cannot be read, with its line (1-based).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct LogError {
    /// The line of the problem (0 = the log as a whole).
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl LogError {
    /// The error as `PATH:LINE: message` (`PATH: message` when it is about
    /// the log as a whole), the form every other input error takes.
    pub fn in_file(&self, path: &std::path::Path) -> String {
        if self.line == 0 {
            format!("{}: {}", path.display(), self.message)
        } else {
            format!("{}:{}: {}", path.display(), self.line, self.message)
        }
    }
}

fn err(line: usize, message: impl Into<String>) -> LogError {
    LogError {
        line,
        message: message.into(),
    }
}

/// Reads a log written by [`write`] (surrounding text, as pasted from a
/// chat or an issue, is skipped up to the header).
pub fn parse(text: &str) -> Result<ParsedLog, LogError> {
    let lines: Vec<&str> = text.lines().collect();
    let start = lines.iter().position(|l| l.trim() == HEADER).ok_or_else(|| {
        match lines.iter().position(|l| l.trim() == HEADER_V1) {
            Some(i) => err(
                i + 1,
                "a v1 log (an older tessera): its table is not the v2 one; copy the log again from this version",
            ),
            None => err(
                0,
                format!("no `{HEADER}` line: this is not a tessera AI log"),
            ),
        }
    })?;
    let mut fields: Vec<(usize, &str, &str)> = Vec::new();
    let mut grid: Vec<&str> = Vec::new();
    let mut grid_size: Option<(usize, usize, usize)> = None;
    let mut top = Vec::new();
    let mut i = start + 1;
    while i < lines.len() {
        let raw = lines[i];
        let l = raw.trim();
        let n = i + 1;
        if let Some(size) = l.strip_prefix("grid:") {
            let (w, h) = size
                .trim()
                .split_once('x')
                .and_then(|(w, h)| Some((w.parse().ok()?, h.parse().ok()?)))
                .ok_or_else(|| err(n, "`grid:` wants WIDTHxHEIGHT, e.g. `grid: 10x22`"))?;
            grid_size = Some((w, h, n));
            i += 1;
            while i < lines.len() && lines[i].trim() != "end grid" {
                grid.push(lines[i].trim());
                i += 1;
            }
            if i == lines.len() {
                return Err(err(n, "the grid has no `end grid` line"));
            }
        } else if let Some(rest) = l.strip_prefix(|c: char| c.is_ascii_digit()) {
            // "  1. T r1 x3 y17 | ..." (the digit was stripped; more digits may follow)
            let rest = rest.trim_start_matches(|c: char| c.is_ascii_digit());
            if let Some(entry) = rest.strip_prefix('.') {
                let landing = entry.split('|').next().unwrap_or("").trim();
                top.push(landing.to_string());
            }
        } else if let Some((key, value)) = l.split_once(':') {
            fields.push((n, key.trim(), value.trim()));
        }
        i += 1;
    }
    let get = |key: &str| -> Result<(usize, &str), LogError> {
        fields
            .iter()
            .find(|(_, k, _)| *k == key)
            .map(|(n, _, v)| (*n, *v))
            .ok_or_else(|| err(0, format!("the log has no `{key}:` line")))
    };
    let piece_of = |n: usize, v: &str| -> Result<PieceKind, LogError> {
        let mut chars = v.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => {
                PieceKind::from_letter(c).ok_or_else(|| err(n, format!("`{v}` is not a piece")))
            }
            _ => Err(err(n, format!("`{v}` is not a piece letter"))),
        }
    };
    let number = |key: &str| -> Result<i64, LogError> {
        let (n, v) = get(key)?;
        v.parse()
            .map_err(|_| err(n, format!("`{key}` must be a whole number, not `{v}`")))
    };
    // Seeds and counts are drawn as u64: every value the writer prints
    // reads back (an i64 refused half of the noise seeds).
    let unsigned = |key: &str| -> Result<u64, LogError> {
        let (n, v) = get(key)?;
        v.parse().map_err(|_| {
            err(
                n,
                format!(
                    "`{key}` must be a whole number from 0 to {}, not `{v}`",
                    u64::MAX
                ),
            )
        })
    };
    let (n, v) = get("piece")?;
    let piece = piece_of(n, v)?;
    let (n, v) = get("next")?;
    let next = if v == "-" {
        None
    } else {
        Some(piece_of(n, v)?)
    };
    let (n, v) = get("unknownNext")?;
    let (how, letters) = v.split_once(' ').unwrap_or((v, ""));
    let pieces = letters
        .chars()
        .map(|c| piece_of(n, &c.to_string()))
        .collect::<Result<Vec<_>, _>>()?;
    let unknown_next = match how {
        "average" => UnknownNext::Average(pieces),
        "worst" => UnknownNext::Worst(pieces),
        other => {
            return Err(err(
                n,
                format!("`unknownNext` is `average` or `worst`, not `{other}`"),
            ));
        }
    };
    let (n, v) = get("rotation")?;
    let rotation = RotationSystem::from_name(v)
        .ok_or_else(|| err(n, format!("rotation `{v}`: \"cycle\" or \"srs\"")))?;
    let (n, v) = get("table")?;
    let difficulty: Difficulty =
        ron::from_str(v).map_err(|e| err(n, format!("the difficulty table does not read: {e}")))?;
    if let Some(problem) = difficulty.problem() {
        return Err(err(n, format!("the difficulty table: {problem}")));
    }
    let board = read_grid(grid_size, &grid)?;
    let h = board.height();
    let spawn_row = number("spawnRow")?;
    let danger_rows = number("dangerRows")?;
    if !(0..h as i64).contains(&spawn_row) {
        return Err(err(
            get("spawnRow")?.0,
            format!("`spawnRow` {spawn_row} lies outside the board's {h} rows"),
        ));
    }
    if !(0..=h as i64).contains(&danger_rows) {
        return Err(err(
            get("dangerRows")?.0,
            format!("`dangerRows` {danger_rows} lies outside the board's {h} rows"),
        ));
    }
    // Optional: a log without it is of a ceiling that stays.
    let ceiling = match get("ceiling") {
        Ok((n, v)) => read_ceiling(v).ok_or_else(|| {
            err(
                n,
                format!(
                    "`ceiling` wants `drops after N every M` (N, M from 1 to 10000), not `{v}`"
                ),
            )
        })?,
        Err(_) => CeilingClock::default(),
    };
    let noise_seed = unsigned("noiseSeed")?;
    let turn = unsigned("turn")?;
    // Optional: only a difficulty with an `off_line` ranking writes it.
    let reader_streak = match get("readerStreak") {
        Ok((n, v)) => v.parse::<u32>().map_err(|_| {
            err(
                n,
                format!(
                    "`readerStreak` must be a whole number from 0 to {}, not `{v}`",
                    u32::MAX
                ),
            )
        })?,
        Err(_) => 0,
    };
    let best = get("best")
        .ok()
        .map(|(_, v)| v.split('|').next().unwrap_or("").trim().to_string())
        .filter(|b| !b.starts_with('-'));
    let decided_by = get("decidedBy")
        .ok()
        .map(|(_, v)| v.to_string())
        .filter(|v| v != "-");
    Ok(ParsedLog {
        input: DecisionInput {
            position: Position {
                board,
                piece,
                next,
                rotation,
                spawn_row: spawn_row as i32,
                danger_rows: danger_rows as usize,
                ceiling,
                unknown_next,
                reader_streak,
            },
            difficulty,
            noise_seed,
            turn,
        },
        best,
        decided_by,
        top,
    })
}

/// `drops after N every M`, as the log writes a lowering ceiling.
fn read_ceiling(text: &str) -> Option<CeilingClock> {
    let rest = text.strip_prefix("drops after ")?;
    let (after, every) = rest.split_once(" every ")?;
    let in_range = |v: &str| {
        v.trim()
            .parse::<u32>()
            .ok()
            .filter(|n| (1..=10_000).contains(n))
    };
    Some(CeilingClock {
        drops_after: in_range(after)?,
        every: in_range(every)?,
    })
}

/// The board between `grid: WxH` (at line `n`) and `end grid`.
fn read_grid(size: Option<(usize, usize, usize)>, grid: &[&str]) -> Result<Board, LogError> {
    let (w, h, n) = size.ok_or_else(|| err(0, "the log has no `grid:` section"))?;
    if !(1..=tessera_tetris::board::MAX_SIZE).contains(&w)
        || !(1..=tessera_tetris::board::MAX_SIZE).contains(&h)
    {
        return Err(err(n, format!("a {w}x{h} board is outside 1x1 to 64x64")));
    }
    if grid.len() != h {
        return Err(err(n, format!("the grid has {} rows, not {h}", grid.len())));
    }
    let mut board = Board::new(w, h);
    for (y, row) in grid.iter().enumerate() {
        if row.chars().count() != w {
            return Err(err(
                n + 1 + y,
                format!("grid row {} is not {w} cells wide", y + 1),
            ));
        }
        for (x, c) in row.chars().enumerate() {
            match c {
                '#' => board.set(x, y, true),
                '.' => {}
                other => return Err(err(n + 1 + y, format!("grid cell `{other}`: `#` or `.`"))),
            }
        }
    }
    Ok(board)
}

/// Replays a parsed log with `difficulty` (the logged one, or the current
/// script's) and lists what differs; empty = the same decision.
pub fn explain(log: &ParsedLog, difficulty: &Difficulty) -> (Choice, Vec<String>) {
    // A flag nobody sets: the replay runs to its end (the default is
    // never reached).
    let never = AtomicBool::new(false);
    explain_until(log, difficulty, &never).unwrap_or_default()
}

/// [`explain`], stopped by `cancel` (a job's Ctrl+C, the editor's
/// Cancel): a logged table may ask for a search of many seconds.
pub fn explain_until(
    log: &ParsedLog,
    difficulty: &Difficulty,
    cancel: &AtomicBool,
) -> Result<(Choice, Vec<String>), Cancelled> {
    let mut brain = Brain::new();
    let choice = brain.choose_until(
        &log.input.position,
        difficulty,
        log.input.noise_seed,
        cancel,
    )?;
    let mut differences = Vec::new();
    let best = choice.best().map(landing_text);
    if best != log.best {
        differences.push(format!(
            "best: the log says {}, the replay chooses {}",
            log.best.as_deref().unwrap_or("-"),
            best.as_deref().unwrap_or("-")
        ));
    }
    if choice.decided_by != log.decided_by.as_deref() {
        differences.push(format!(
            "decidedBy: the log says {}, the replay says {}",
            log.decided_by.as_deref().unwrap_or("-"),
            choice.decided_by.unwrap_or("-")
        ));
    }
    let replay_top: Vec<String> = choice
        .candidates
        .iter()
        .take(log.top.len())
        .map(landing_text)
        .collect();
    if replay_top != log.top {
        differences.push(format!(
            "top: the log lists {}, the replay {}",
            log.top.join(", "),
            replay_top.join(", ")
        ));
    }
    if difficulty != &log.input.difficulty {
        let changed: Vec<String> = Metric::ALL
            .iter()
            .filter(|&&m| difficulty.weights.get(m) != log.input.difficulty.weights.get(m))
            .map(|&m| {
                format!(
                    "{} {} -> {}",
                    m.name(),
                    log.input.difficulty.weights.get(m),
                    difficulty.weights.get(m)
                )
            })
            .collect();
        if !changed.is_empty() {
            differences.push(format!("weights changed: {}", changed.join(", ")));
        }
        if difficulty.order != log.input.difficulty.order {
            differences.push("the comparison order changed".into());
        }
    }
    Ok((choice, differences))
}
