//! A docked table of three or four players: the player's own board (the
//! one a move is placed on) at the left, as large as the room allows, and
//! the other players' boards smaller in a grid beside it, two high, so
//! every board, the factories and the controls fit a docked panel's
//! height above the console. A grid of four equal boards either ran under
//! the console or shrank the player's pattern lines to slivers.

use egui::Vec2;
use tessera_azul::AzulAction;

use super::{AzulPlaytest, BoardLayout};

/// The two scales and the boards' sizes at scale 1, as measured on the
/// last frame (a board's text keeps a least size, so a small board is
/// relatively larger: each kind is measured at its own scale).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Crowded {
    /// The player's own board's scale.
    pub(super) featured: f32,
    /// The other boards' scale.
    pub(super) others: f32,
    featured_natural: Vec2,
    others_natural: Vec2,
}

impl Default for Crowded {
    fn default() -> Self {
        Self {
            featured: 0.5,
            others: 0.33,
            featured_natural: Vec2::new(340.0, 335.0),
            others_natural: Vec2::new(340.0, 335.0),
        }
    }
}

/// The smallest scale of the other players' boards: their walls' tiles
/// still tell their colours apart.
const OTHERS_MIN: f32 = 0.25;

/// How many of the other boards share a column: two (four players: a two
/// by two grid with one place left; three: a column of two).
const OTHERS_DOWN: usize = 2;

impl Crowded {
    /// The scales that fit the player's board and `others` smaller boards
    /// in `width` x `height`: the other boards take the height in rows of
    /// [`OTHERS_DOWN`], the player's board the width they leave.
    pub(super) fn fit(self, others: usize, width: f32, height: f32) -> Self {
        let rows = others.clamp(1, OTHERS_DOWN);
        let columns = others.div_ceil(rows).max(1);
        let gap = BoardLayout::GAP;
        let down = (height - (rows - 1) as f32 * gap) / (rows as f32 * self.others_natural.y);
        let others_scale = down.clamp(OTHERS_MIN, 1.0);
        let beside = columns as f32 * (others_scale * self.others_natural.x + gap);
        let featured = ((width - beside) / self.featured_natural.x)
            .min(height / self.featured_natural.y)
            .min(1.0);
        Self {
            // Never smaller than the boards beside it.
            featured: featured.max(others_scale),
            others: others_scale,
            ..self
        }
    }
}

impl AzulPlaytest {
    /// The boards of a crowded docked table in `width` x `height`; the
    /// action a click on the player's board chose.
    pub(super) fn crowded_boards(
        &mut self,
        ui: &mut egui::Ui,
        players: usize,
        width: f32,
        height: f32,
    ) -> Option<AzulAction> {
        let featured = self.human_seat().filter(|&p| p < players).unwrap_or(0);
        let others: Vec<usize> = (0..players).filter(|&p| p != featured).collect();
        let fit = self.crowded.fit(others.len(), width, height);
        if super::rescales(fit.featured, self.crowded.featured)
            || super::rescales(fit.others, self.crowded.others)
        {
            self.crowded.featured = fit.featured;
            self.crowded.others = fit.others;
            ui.ctx().request_repaint();
        }
        let mut chosen = None;
        ui.horizontal_top(|ui| {
            ui.spacing_mut().item_spacing = Vec2::splat(BoardLayout::GAP);
            let (action, natural) = self.board(ui, featured, self.crowded.featured);
            self.crowded.featured_natural = natural;
            chosen = action;
            // In seat order, row by row.
            let columns = others.len().div_ceil(OTHERS_DOWN).max(1);
            ui.vertical(|ui| {
                for row in others.chunks(columns) {
                    ui.horizontal_top(|ui| {
                        for &p in row {
                            // Another human seat's board takes its moves.
                            let (action, natural) = self.board(ui, p, self.crowded.others);
                            self.crowded.others_natural = natural;
                            chosen = chosen.or(action);
                        }
                    });
                }
            });
        });
        chosen
    }
}
