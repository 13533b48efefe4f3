//! What a game reports: the board as text, the summary `tessera play`
//! prints, and the JSON report.

use crate::Tetris;
use crate::level::colour_letter;
use tessera_host::text::count;

impl Tetris {
    /// The board with the piece in play (lower case) and its ghost (`:`),
    /// hidden rows above a `--` line.
    pub fn board_text(&self) -> String {
        let board = self.field.board();
        let (w, h) = (board.width(), board.height());
        let mut grid: Vec<char> = self
            .field
            .colours()
            .iter()
            .map(|&c| colour_letter(c))
            .collect();
        if !self.outcome.is_over() {
            if let Some(ghost) = self.field.ghost() {
                for (x, y) in ghost.placement().cells() {
                    if x >= 0 && y >= 0 && (x as usize) < w && (y as usize) < h {
                        grid[y as usize * w + x as usize] = ':';
                    }
                }
            }
            if let Some(active) = self.field.active() {
                let letter = active.kind.letter().to_ascii_lowercase();
                for (x, y) in active.placement().cells() {
                    if x >= 0 && y >= 0 && (x as usize) < w && (y as usize) < h {
                        grid[y as usize * w + x as usize] = letter;
                    }
                }
            }
        }
        let mut out = String::with_capacity((w + 1) * (h + 1));
        let ceiling = self.feed.as_ref().map_or(0, |f| f.ceiling);
        for y in 0..h {
            if ceiling > 0 && y == ceiling {
                out.push_str(&"=".repeat(w));
                out.push('\n');
            }
            if y == self.hidden_rows() && y > 0 {
                out.push_str(&"-".repeat(w));
                out.push('\n');
            }
            out.extend(&grid[y * w..(y + 1) * w]);
            out.push('\n');
        }
        out
    }

    fn queue_text(&self) -> String {
        self.field.queue().map(|p| p.letter()).collect()
    }

    /// What `tessera play tetris` prints.
    pub fn summary(&self, render: bool) -> String {
        let mut out = format!(
            "tetris  seed {}  ticks {}  pieces {}  lines {}  level {}  score {}\n",
            self.seed,
            self.field.ticks(),
            self.field.locked(),
            self.lines(),
            self.level_no,
            self.score
        );
        match &self.feed {
            Some(feed) => {
                // A board whose ceiling never comes down (HATETRIS's) says so
                // rather than quoting an interval that never applies.
                let ceiling = if feed.lowering {
                    format!(
                        "ceiling {} down (every {})",
                        count(feed.ceiling, "row"),
                        count(feed.ceiling_every(), "piece")
                    )
                } else {
                    "no lowering ceiling".to_string()
                };
                out.push_str(&format!(
                    "feed: AI {}  ai pieces {}  lines {}/{}  {ceiling}\n",
                    feed.difficulty,
                    feed.ai_pieces,
                    self.lines(),
                    feed.target_lines,
                ));
            }
            None => {
                out.push_str(&format!("goal: {}  ", self.level.goal));
                let (done, needed) = self.goal_progress();
                out.push_str(&format!("progress {done}/{needed}\n"));
            }
        }
        out.push_str("clear log:\n");
        if self.log.is_empty() {
            out.push_str("  (no clears)\n");
        }
        for r in &self.log {
            out.push_str(&format!(
                "  tick {}  {}  +{}  level {}\n",
                r.tick,
                count(r.lines, "line"),
                r.points,
                r.level
            ));
        }
        if let Some(reason) = &self.over_reason {
            out.push_str(reason);
            out.push('\n');
        }
        out.push_str(&format!("outcome: {}\n", self.outcome));
        if render {
            out.push_str(&self.board_text());
        }
        out
    }

    /// The one-line header and board of `render_text`.
    pub(crate) fn render_line(&self) -> String {
        let hold = self
            .field
            .held_piece()
            .map_or("-".to_string(), |p| p.to_string());
        format!(
            "score {}  lines {}  level {}  pieces {}  next [{}]  hold {}  {}\n{}",
            self.score,
            self.lines(),
            self.level_no,
            self.field.locked(),
            self.queue_text(),
            hold,
            self.outcome,
            self.board_text()
        )
    }

    /// The JSON report (`--json`).
    pub(crate) fn json_report(&self) -> serde_json::Value {
        serde_json::json!({
            "game": "tetris",
            "seed": self.seed,
            "ticks": self.field.ticks(),
            "pieces": self.field.locked(),
            "lines": self.lines(),
            "level": self.level_no,
            "score": self.score,
            "goal": self.level.goal.to_string(),
            "outcome": self.outcome.to_string(),
            "over_reason": self.over_reason,
            "feed": self.feed.as_ref().map(|f| serde_json::json!({
                "difficulty": f.difficulty,
                "ai_pieces": f.ai_pieces,
                "target_lines": f.target_lines,
                "ceiling": f.ceiling,
            })),
            "clear_log": self.log,
            "board": self.board_text().lines().collect::<Vec<_>>(),
        })
    }
}
