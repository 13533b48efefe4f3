//! A Cairns level, `levels/cairn/<name>.ron`: the rows of the grid and how
//! many stones the seed may add to each.

use std::path::Path;

use serde::{Deserialize, Serialize};
use tessera_host::level::{Diagnostic, LevelFile};

/// Most rows a grid may have (the editor view draws them all at once).
pub const MAX_ROWS: usize = 8;
/// Most stones a row may start with, the seed's extra included: the width
/// of the grid.
pub const MAX_STONES: u32 = 24;

/// A Cairns level.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CairnLevel {
    /// Format version (1).
    pub version: u32,
    /// Stones in each row at the start, first row first.
    pub rows: Vec<u32>,
    /// Up to this many extra stones are added to each row, drawn from the
    /// session's seed, so every seed deals a different grid (0: none).
    #[serde(default)]
    pub random_extra: u32,
}

impl Default for CairnLevel {
    /// The classic 3-5-7 grid.
    fn default() -> Self {
        Self {
            version: 1,
            rows: vec![3, 5, 7],
            random_extra: 0,
        }
    }
}

impl LevelFile for CairnLevel {
    const VERSION: u32 = 1;

    fn version(&self) -> u32 {
        self.version
    }

    fn diagnose(&self) -> Vec<Diagnostic> {
        // Diagnoses are made without the file; the host fills it in.
        let path = Path::new("");
        let mut found = Vec::new();
        if self.rows.is_empty() || self.rows.len() > MAX_ROWS {
            found.push(
                Diagnostic::error(
                    path,
                    format!(
                        "field `rows`: a grid has 1 to {MAX_ROWS} rows, this one {}",
                        self.rows.len()
                    ),
                )
                .at("rows"),
            );
        }
        if self.random_extra > MAX_STONES {
            found.push(
                Diagnostic::error(
                    path,
                    format!(
                        "field `random_extra`: at most {MAX_STONES} extra stones, not {}",
                        self.random_extra
                    ),
                )
                .at("random_extra"),
            );
        }
        for (index, &stones) in self.rows.iter().enumerate() {
            let most = MAX_STONES.saturating_sub(self.random_extra);
            if stones == 0 || stones > most {
                found.push(
                    Diagnostic::error(
                        path,
                        format!(
                            "field `rows`, row {}: a row starts with 1 to {most} stones \
                             ({MAX_STONES} with the random extra), not {stones}",
                            index + 1
                        ),
                    )
                    .at("rows")
                    .at_index(index),
                );
            }
        }
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_level_is_fine_and_bad_sizes_name_their_field() {
        assert!(CairnLevel::default().diagnose().is_empty());
        let level = CairnLevel {
            version: 1,
            rows: vec![3, 0, 30],
            random_extra: 0,
        };
        let found = level.diagnose();
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(found[0].message.contains("row 2"), "{}", found[0].message);
        assert!(found[1].message.contains("row 3"), "{}", found[1].message);
        let empty = CairnLevel {
            rows: Vec::new(),
            ..CairnLevel::default()
        };
        assert!(empty.diagnose()[0].message.contains("1 to 8 rows"));
    }
}
