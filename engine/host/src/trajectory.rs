//! A session's trajectory: per step the step, who made it, the scores after
//! it and the game's events; at the end the outcome and the board. The
//! replay suite snapshots it, `tessera replay` prints it, and the editor's
//! Tests panel diffs it, so a rule change shows up as readable lines.

use std::fmt::Write as _;

/// One row: a step and what followed from it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// 1-based step number.
    pub index: usize,
    /// Who made the step: `ai:hard (seat 2)`, or empty for a human/time.
    pub actor: String,
    /// The step as compact RON (`Place(slot:0,x:4,y:18)`, `Tick(30)`).
    pub step: String,
    /// Each seat's score after the step (empty for games without one).
    pub scores: Vec<i64>,
    /// Events, in order (`refused: ...` when the step was refused).
    pub events: Vec<String>,
}

/// A whole trajectory.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Trajectory {
    /// `game: sand  seed: 7  mode: play  seats: human`.
    pub header: String,
    /// One row per step.
    pub rows: Vec<Row>,
    /// The outcome at the end, in words.
    pub outcome: String,
    /// The board at the end, as text.
    pub board: String,
}

/// Separates a row's columns; chosen so rows can be read back.
const COLUMN: &str = " | ";

impl Row {
    /// The row as one line: `  12 | ai:easy (seat 2) Take(2) | score 4 / 6 | event; event`.
    pub fn to_line(&self) -> String {
        let mut line = format!("{:>4}{COLUMN}", self.index);
        if !self.actor.is_empty() {
            line.push_str(&self.actor);
            line.push(' ');
        }
        line.push_str(&self.step);
        line.push_str(COLUMN);
        line.push_str(&scores_text(&self.scores));
        if !self.events.is_empty() {
            line.push_str(COLUMN);
            line.push_str(&self.events.join("; "));
        }
        line
    }
}

/// `score 30`, `scores 4 / 6`, or `-`.
pub fn scores_text(scores: &[i64]) -> String {
    match scores {
        [] => "-".into(),
        [one] => format!("score {one}"),
        many => {
            let parts: Vec<String> = many.iter().map(i64::to_string).collect();
            format!("scores {}", parts.join(" / "))
        }
    }
}

impl Trajectory {
    /// The text the suite snapshots.
    pub fn render(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "{}", self.header);
        let _ = writeln!(out, "steps: {}", self.rows.len());
        for row in &self.rows {
            let _ = writeln!(out, "{}", row.to_line());
        }
        let _ = writeln!(out, "outcome: {}", self.outcome);
        out.push_str("board:\n");
        out.push_str(&self.board);
        if !out.ends_with('\n') {
            out.push('\n');
        }
        out
    }
}

/// A step row read back from rendered text (for diffs of snapshot files).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParsedRow {
    /// 1-based step number.
    pub index: usize,
    /// Actor and step.
    pub step: String,
    /// The score column as written (`score 30`).
    pub scores: String,
    /// Events as written.
    pub events: String,
}

/// The step rows of a rendered trajectory (other lines are skipped).
pub fn parse_rows(text: &str) -> Vec<ParsedRow> {
    text.lines()
        .filter_map(|line| {
            let mut parts = line.splitn(4, COLUMN);
            let index = parts.next()?.trim().parse().ok()?;
            let step = parts.next()?.to_string();
            let scores = parts.next()?.to_string();
            let events = parts.next().unwrap_or("").to_string();
            Some(ParsedRow {
                index,
                step,
                scores,
                events,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_render_and_read_back() {
        let t = Trajectory {
            header: "game: nim  seed: 3".into(),
            rows: vec![
                Row {
                    index: 1,
                    actor: String::new(),
                    step: "Act(Take(2))".into(),
                    scores: vec![4, 0],
                    events: vec![],
                },
                Row {
                    index: 2,
                    actor: "ai:perfect (seat 2)".into(),
                    step: "Act(Take(9))".into(),
                    scores: vec![4, 0],
                    events: vec!["refused: take 9: must take 1 to 3 stones".into()],
                },
            ],
            outcome: "playing".into(),
            board: "pile 8\n".into(),
        };
        let text = t.render();
        assert_eq!(
            text,
            "game: nim  seed: 3\nsteps: 2\n   1 | Act(Take(2)) | scores 4 / 0\n   2 | ai:perfect (seat 2) Act(Take(9)) | scores 4 / 0 | refused: take 9: must take 1 to 3 stones\noutcome: playing\nboard:\npile 8\n"
        );
        let rows = parse_rows(&text);
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[1].index, 2);
        assert_eq!(rows[1].scores, "scores 4 / 0");
        assert!(rows[1].events.starts_with("refused"));
    }
}
