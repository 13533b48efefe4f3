//! The RON level format: a box size and a list of pieces, 1-based cells.
//!
//! ```ron
//! (
//!     version: 1,
//!     name: "Soma cube",
//!     size: (3, 3, 3),
//!     pieces: [
//!         (id: "V", cells: [(1, 1, 1), (2, 1, 1), (1, 2, 1)]),
//!     ],
//! )
//! ```
//!
//! Numbers are read as `i64` so that a negative or huge coordinate reaches
//! [`LevelFile::diagnose`] and gets a clear message instead of a parse error.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::geometry::{Cell, is_connected, normalize, orientations};
use super::rules::Pos;
use tessera_host::level::{Diagnostic, LevelFile};

/// Largest box extent on any axis.
pub const MAX_EXTENT: i64 = 64;
/// Largest box volume the solver and the board accept.
pub const MAX_VOLUME: i64 = 1024;
/// Most pieces a level may hold.
pub const MAX_PIECES: usize = 256;

/// One piece: an id (its letter in text pictures) and its cells.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PieceSpec {
    /// Name shown to the player; its first character is the piece's letter.
    pub id: String,
    /// The piece's cubes, 1-based; only their relative positions matter.
    pub cells: Vec<(i64, i64, i64)>,
    /// Display colour (RGB) for the editor; a palette colour when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub colour: Option<(u8, u8, u8)>,
}

/// A polycube packing level.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PolycubeLevel {
    /// Format version, [`PolycubeLevel::VERSION`].
    pub version: u32,
    /// Title shown to players (and passed to the script's hooks).
    #[serde(default)]
    pub name: String,
    /// Box extents A x B x C (x, y, z); z is up.
    pub size: (i64, i64, i64),
    /// The pieces to pack.
    pub pieces: Vec<PieceSpec>,
    /// Played in assembly mode unless the player picks another: every
    /// placement must slide straight in from outside the box (the seed's
    /// "assembly physics mode").
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub assembly: bool,
}

impl Default for PolycubeLevel {
    /// A 2x2x2 box with two tetracubes: the smallest interesting level.
    fn default() -> Self {
        Self {
            version: Self::VERSION,
            name: "Two Ls".into(),
            size: (2, 2, 2),
            pieces: vec![
                PieceSpec {
                    id: "A".into(),
                    cells: vec![(1, 1, 1), (2, 1, 1), (1, 2, 1), (1, 2, 2)],
                    colour: None,
                },
                PieceSpec {
                    id: "B".into(),
                    cells: vec![(1, 1, 1), (1, 2, 1), (2, 2, 1), (2, 2, 2)],
                    colour: None,
                },
            ],
            assembly: false,
        }
    }
}

impl LevelFile for PolycubeLevel {
    const VERSION: u32 = 1;
    const NAME_FIELD: Option<&'static str> = Some("name");

    fn version(&self) -> u32 {
        self.version
    }

    fn diagnose(&self) -> Vec<Diagnostic> {
        let path = Path::new("");
        let mut out = Vec::new();
        let (a, b, c) = self.size;
        let size_ok = [a, b, c].iter().all(|&d| (1..=MAX_EXTENT).contains(&d));
        if !size_ok {
            out.push(Diagnostic::error(
                path,
                format!(
                    "field `size`: ({a}, {b}, {c}) is not a box; each extent must be 1 to {MAX_EXTENT}"
                ),
            ).at("size"));
        }
        let volume = i128::from(a) * i128::from(b) * i128::from(c);
        if size_ok && volume > i128::from(MAX_VOLUME) {
            out.push(Diagnostic::error(
                path,
                format!("field `size`: a box of {volume} cells is larger than the {MAX_VOLUME}-cell limit"),
            ).at("size"));
        }
        if self.pieces.is_empty() {
            out.push(
                Diagnostic::error(path, "field `pieces`: the level has no pieces").at("pieces"),
            );
        }
        if self.pieces.len() > MAX_PIECES {
            out.push(
                Diagnostic::error(
                    path,
                    format!(
                        "field `pieces`: {} pieces, at most {MAX_PIECES} are allowed",
                        self.pieces.len()
                    ),
                )
                .at("pieces")
                .at_index(MAX_PIECES),
            );
            return out;
        }
        let mut cells_total: i128 = 0;
        let mut all_pieces_ok = true;
        for (index, piece) in self.pieces.iter().enumerate() {
            let name = format!("piece {} (`{}`)", index + 1, piece.id);
            let mut fine = true;
            let here = |message: String| {
                Diagnostic::error(path, message)
                    .at("pieces")
                    .at_index(index)
            };
            if piece.id.trim().is_empty() {
                out.push(here(format!("{name}: the id is empty")).at("id"));
                fine = false;
            }
            if self.pieces[..index].iter().any(|p| p.id == piece.id) {
                out.push(here(format!("{name}: the id `{}` is used twice", piece.id)).at("id"));
                fine = false;
            }
            if piece.cells.is_empty() {
                out.push(here(format!("{name}: it has no cells")).at("cells"));
                all_pieces_ok = false;
                continue;
            }
            if piece.cells.len() as i64 > MAX_VOLUME {
                out.push(
                    here(format!(
                        "{name}: {} cells, more than the largest box ({MAX_VOLUME} cells) holds",
                        piece.cells.len()
                    ))
                    .at("cells"),
                );
                all_pieces_ok = false;
                continue;
            }
            if let Some((at, bad)) = piece
                .cells
                .iter()
                .enumerate()
                .find(|(_, (x, y, z))| ![x, y, z].iter().all(|v| (1..=MAX_EXTENT).contains(*v)))
            {
                out.push(
                    here(format!(
                        "{name}: cell ({}, {}, {}) is out of range; coordinates are 1-based, 1 to {MAX_EXTENT}",
                        bad.0, bad.1, bad.2
                    ))
                    .at("cells")
                    .at_index(at),
                );
                all_pieces_ok = false;
                continue;
            }
            let cells = piece_cells(piece);
            if cells.len() != piece.cells.len() {
                out.push(here(format!("{name}: a cell is listed twice")).at("cells"));
                fine = false;
            }
            if !is_connected(&cells) {
                out.push(
                    here(format!(
                        "{name}: its cells are not face-connected (a disconnected piece)"
                    ))
                    .at("cells"),
                );
                fine = false;
            }
            cells_total += cells.len() as i128;
            if fine && size_ok {
                let depth = self.size.2;
                let fits = orientations(&cells).iter().any(|o| {
                    o.cells.iter().all(|c| {
                        i64::from(c[0]) < a && i64::from(c[1]) < b && i64::from(c[2]) < depth
                    })
                });
                if !fits {
                    out.push(
                        Diagnostic::warning(
                            path,
                            format!("{name}: it fits into the box in no orientation"),
                        )
                        .at("pieces")
                        .at_index(index),
                    );
                }
            }
            all_pieces_ok &= fine;
        }
        if size_ok
            && all_pieces_ok
            && !self.pieces.is_empty()
            && let Some(why) = crate::budget::over_budget(self.extents(), &self.shapes())
        {
            out.push(Diagnostic::error(path, format!("field `pieces`: {why}")).at("pieces"));
        }
        if size_ok && all_pieces_ok && !self.pieces.is_empty() && cells_total != volume {
            out.push(Diagnostic::warning(
                path,
                format!(
                    "the box cannot be filled: the pieces hold {cells_total} cells, the box has {volume}"
                ),
            ));
        }
        out
    }
}

/// A piece's cells, 0-based and normalised (sorted, starting at 0). Only
/// meaningful for a level whose diagnosis has no errors.
pub fn piece_cells(piece: &PieceSpec) -> Vec<Cell> {
    let cells: Vec<Cell> = piece
        .cells
        .iter()
        .map(|&c| {
            let [x, y, z] = Pos(c.0, c.1, c.2).zero_based();
            [clamp(x), clamp(y), clamp(z)]
        })
        .collect();
    normalize(&cells)
}

fn clamp(v: i64) -> i32 {
    v.clamp(-MAX_EXTENT * 4, MAX_EXTENT * 4) as i32
}

impl PolycubeLevel {
    /// The box extents as `usize` (only meaningful for a diagnosed level).
    pub fn extents(&self) -> [usize; 3] {
        let e = |v: i64| v.clamp(1, MAX_EXTENT) as usize;
        [e(self.size.0), e(self.size.1), e(self.size.2)]
    }

    /// Every piece's normalised 0-based cells.
    pub fn shapes(&self) -> Vec<Vec<Cell>> {
        self.pieces.iter().map(piece_cells).collect()
    }

    /// Whether [`LevelFile::diagnose`] finds no error.
    pub fn is_playable(&self) -> bool {
        !self.diagnose().iter().any(Diagnostic::is_error)
    }
}
