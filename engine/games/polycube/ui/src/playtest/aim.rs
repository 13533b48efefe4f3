//! Aiming a piece: the action and the ghost the current aim makes,
//! what it amounts to in words, the nearest legal pose (the seed's helper
//! hint) and the placed cells a refused slide is blocked by.

use tessera_polycube::PolycubeAction;
use tessera_polycube::rules::PlacementError;
use tessera_polycube::{Pos, user_cell};
use tessera_ui::text::count;

use super::{Ghost, Mode, PolycubePlaytest, engine_cell};

/// The placed cells (0-based) a Blocked refusal names.
pub(super) fn blockers(ghost: Option<&Ghost>) -> Vec<[i32; 3]> {
    match ghost {
        Some((_, Err(PlacementError::Blocked { cells, .. }))) => {
            cells.iter().map(|p| engine_cell(p.user())).collect()
        }
        _ => Vec::new(),
    }
}

impl PolycubePlaytest {
    /// The action the current aim would send, if complete.
    pub(super) fn aimed_action(&self) -> Option<PolycubeAction> {
        let piece = self.selected?;
        let rules = self.game().rules();
        let id = rules.pieces()[piece].id.clone();
        let placed = rules.placement(piece).is_some();
        match self.mode {
            Mode::PickCells => {
                if self.picked.is_empty() {
                    return None;
                }
                let cells = self.picked.clone();
                Some(if placed {
                    PolycubeAction::Move { piece: id, cells }
                } else {
                    PolycubeAction::Place { piece: id, cells }
                })
            }
            Mode::Anchor => {
                let at = self.anchor?;
                let rotation = self.rotation;
                Some(if placed {
                    PolycubeAction::MoveAt {
                        piece: id,
                        rotation,
                        at,
                    }
                } else {
                    PolycubeAction::PlaceAt {
                        piece: id,
                        rotation,
                        at,
                    }
                })
            }
        }
    }

    /// The ghost: where the piece would go and whether that is legal.
    pub(super) fn ghost(&self) -> Option<Ghost> {
        let piece = self.selected?;
        let rules = self.game().rules();
        match self.mode {
            Mode::PickCells => {
                if self.picked.is_empty() {
                    return None;
                }
                let cells = self.picked.iter().map(|&c| engine_cell(c)).collect();
                let verdict = rules.try_cells(piece, &self.picked);
                Some((cells, verdict))
            }
            Mode::Anchor => {
                let at = self.anchor?;
                let pose = rules.pose_at(piece, self.rotation, at).ok()?;
                let verdict = rules.check_pose(piece, &pose).map(|()| pose.clone());
                Some((pose.cells, verdict))
            }
        }
    }

    /// What the aim of `piece` amounts to now: cells picked, legal or why not.
    pub(super) fn aim_status(&self, piece: usize) -> String {
        let info = &self.game().rules().pieces()[piece];
        let size = count(info.shape.len(), "cell");
        match (self.mode, self.ghost()) {
            (Mode::PickCells, Some((_, verdict))) => {
                let n = self.picked.len();
                match verdict {
                    Ok(_) => format!("{n}/{size}, shape matches, legal"),
                    Err(e) => format!("{n}/{size}: {}", e.explanation()),
                }
            }
            (Mode::Anchor, Some((_, Ok(_)))) => "legal".into(),
            (Mode::Anchor, Some((_, Err(e)))) => e.explanation(),
            _ => format!("aim piece {} ({size})", info.id),
        }
    }

    /// The seed's helper hint: aims the piece at the legal pose closest to
    /// the current ghost (nothing is placed; Place or Enter does that).
    pub(super) fn aim_nearest_legal(&mut self, piece: usize) {
        let Some((cells, _)) = self.ghost() else {
            return;
        };
        let rules = self.game().rules();
        match tessera_polycube::hint::nearest_legal(rules, piece, &cells, self.rotation) {
            Some(pose) => {
                self.rotation = pose.rotation;
                self.anchor = Some(user_cell(pose.anchor));
                self.picked = pose.cells.iter().map(|&c| user_cell(c)).collect();
                self.message = Some((
                    format!(
                        "Nearest legal pose: rotation {}, corner at {}; press Place or Enter",
                        pose.rotation,
                        Pos::of(pose.anchor)
                    ),
                    false,
                ));
            }
            None => {
                self.message = Some((
                    format!(
                        "Piece {} fits nowhere in the box as it is now",
                        rules.pieces()[piece].id
                    ),
                    true,
                ));
            }
        }
    }
}
