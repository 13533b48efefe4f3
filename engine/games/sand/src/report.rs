//! What a game of sand prints: the slots line, the board in logical cells,
//! the `tessera play sand` summary (text and JSON) and the grain grid.

use crate::Sand;
use tessera_host::text::count;

impl Sand {
    /// The slots as `letter + shape` (`rT bI`).
    pub(crate) fn slots_text(&self) -> String {
        let slots: Vec<String> = self
            .slots
            .iter()
            .map(|p| format!("{}{}", self.letter(p.colour), p.shape))
            .collect();
        slots.join(" ")
    }

    /// A palette colour's letter (`?` outside the palette).
    fn letter(&self, colour: u8) -> char {
        self.settings
            .palette
            .get(usize::from(colour))
            .map_or('?', |c| c.letter)
    }

    /// The board in logical cells, one character each: `.` empty, the
    /// letter of the colour most of its grains have, lower case when the
    /// cell is less than half full.
    pub fn cells_text(&self) -> String {
        let area = self.cell * self.cell;
        let mut counts = vec![0usize; self.settings.palette.len().max(1)];
        let mut out = String::with_capacity((self.columns + 1) * self.rows);
        for cy in 0..self.rows {
            for cx in 0..self.columns {
                counts.fill(0);
                for y in cy * self.cell..(cy + 1) * self.cell {
                    for x in cx * self.cell..(cx + 1) * self.cell {
                        if let Some(c) = self.grid.colour_at(x, y)
                            && let Some(n) = counts.get_mut(usize::from(c))
                        {
                            *n += 1;
                        }
                    }
                }
                let total: usize = counts.iter().sum();
                let best = (0..counts.len()).max_by_key(|&c| (counts[c], usize::MAX - c));
                out.push(match best {
                    Some(colour) if total > 0 => {
                        let letter = self.letter(colour as u8);
                        if total * 2 >= area {
                            letter.to_ascii_uppercase()
                        } else {
                            letter.to_ascii_lowercase()
                        }
                    }
                    _ => '.',
                });
            }
            out.push('\n');
        }
        out
    }

    /// What `tessera play sand` prints: header, chain log, slots, outcome,
    /// and the grain grid when `render` is set.
    pub fn summary(&self, render: bool) -> String {
        let mut out = format!(
            "sand  seed {}  ticks {}  placed {}  grains {}  score {}\n",
            self.seed,
            self.tick,
            self.placed,
            self.grid.grain_count(),
            self.score
        );
        out.push_str("chain log:\n");
        if self.log.is_empty() {
            out.push_str("  (no clears)\n");
        }
        for round in &self.log {
            for cluster in &round.clusters {
                out.push_str(&format!(
                    "  tick {}  chain x{}  {} {} ({} cells)  +{}\n",
                    round.tick,
                    round.chain,
                    self.letter(cluster.colour),
                    count(cluster.grains, "grain"),
                    cluster.cells,
                    cluster.points
                ));
            }
        }
        out.push_str(&format!("slots: {}\n", self.slots_text()));
        out.push_str(&format!("outcome: {}\n", self.outcome));
        if render {
            out.push_str(&self.grid_text());
        }
        out
    }

    /// The final state as JSON, for `tessera play sand --json`.
    pub fn summary_json(&self) -> serde_json::Value {
        let slots: Vec<serde_json::Value> = self
            .slots
            .iter()
            .map(|p| {
                serde_json::json!({
                    "shape": p.shape.to_string(),
                    "colour": self.settings.palette.get(usize::from(p.colour)).map(|c| c.name.clone()),
                })
            })
            .collect();
        let grid: Vec<String> = self.grid_text().lines().map(str::to_string).collect();
        serde_json::json!({
            "game": "sand",
            "seed": self.seed,
            "tick": self.tick,
            "placed": self.placed,
            "score": self.score,
            "grains": self.grid.grain_count(),
            "cleared_grains": self.cleared_grains,
            "outcome": self.outcome.to_string(),
            "chain_log": self.log,
            "slots": slots,
            "width": self.grid.width(),
            "height": self.grid.height(),
            "grid": grid,
        })
    }

    /// The grain grid as text (one character per grain, top row first).
    pub fn grid_text(&self) -> String {
        self.grid.to_text(&self.settings.letters())
    }
}
