//! The playtest view: the grid of stones, the scores and whose turn it is.
//! Hovering a stone marks it and every stone after it in its row (what a
//! click takes, when a move may take that many); a click applies the move
//! to the recorded session, so undo, "Save as test" and replays work as
//! for every game.

use egui::{Color32, Pos2, Rect, Sense, Stroke, Vec2};
use tessera_host::{Game, Recorded, Session, Turn};
use tessera_ui::{ConsoleLine, PlaytestContext, PlaytestView, ViewRequest};

use crate::{Cairn, CairnAction};

/// Room for one stone, in points.
const CELL: f32 = 34.0;
/// A stone's radius, in points.
const STONE: f32 = 13.0;
/// The colour of a stone left on the grid.
const STONE_COLOUR: Color32 = Color32::from_rgb(150, 140, 125);
/// The colour of the stones a click would take.
const MARKED: Color32 = Color32::from_rgb(230, 170, 60);

/// Cairns' playtest view.
pub struct CairnPlaytest {
    session: Recorded<Cairn>,
    request: Option<ViewRequest>,
    /// Where the grid's first stone's cell was drawn last frame.
    origin: Option<Pos2>,
}

impl CairnPlaytest {
    /// Shows `session`.
    pub fn new(session: Recorded<Cairn>) -> Self {
        Self {
            session,
            request: None,
            origin: None,
        }
    }

    /// The recorded session the view plays.
    pub fn session(&self) -> &Recorded<Cairn> {
        &self.session
    }

    /// Where the stone at `row` and `column` (both from 0) was drawn in
    /// the last frame: what a test clicks.
    pub fn stone_centre(&self, row: usize, column: usize) -> Option<Pos2> {
        self.origin.map(|origin| {
            origin + Vec2::new((column as f32 + 0.5) * CELL, (row as f32 + 0.5) * CELL)
        })
    }

    /// The move a click at `pointer` makes: the stones from the one under
    /// it to the end of its row, if a move may take that many.
    fn move_at(&self, origin: Pos2, pointer: Pos2) -> Option<CairnAction> {
        let game = self.session.game();
        let offset = pointer - origin;
        if offset.x < 0.0 || offset.y < 0.0 {
            return None;
        }
        let row = (offset.y / CELL) as usize;
        let column = (offset.x / CELL) as u32;
        let left = *game.rows().stones().get(row)?;
        if column >= left {
            return None;
        }
        let action = CairnAction::Take {
            row: row as u32 + 1,
            stones: left - column,
        };
        game.rows()
            .check(action, game.settings().max_take)
            .ok()
            .map(|_| action)
    }

    fn header(&self, ui: &mut egui::Ui) {
        let game = self.session.game();
        let scores = game_scores(game);
        ui.horizontal_wrapped(|ui| {
            ui.strong(Cairn::TITLE);
            match self.session.turn() {
                Turn::Seat(seat) if self.session.ai_to_move().is_some() => {
                    ui.label(format!("· seat {} (AI) is thinking", seat + 1));
                }
                Turn::Seat(seat) => {
                    ui.label(format!(
                        "· seat {}: take 1 to {} stones from the end of a row",
                        seat + 1,
                        game.settings().max_take
                    ));
                }
                _ => {
                    ui.label(format!("· {}", game.outcome()));
                }
            }
            ui.weak(format!("· scores {} / {}", scores[0], scores[1]));
        });
    }

    fn grid(&mut self, ui: &mut egui::Ui, cx: &mut PlaytestContext<'_>) {
        let game = self.session.game();
        let width = game.start_rows().iter().copied().max().unwrap_or(0) as f32;
        let size = Vec2::new(width * CELL, game.start_rows().len() as f32 * CELL);
        let (response, painter) = ui.allocate_painter(size, Sense::click());
        let origin = response.rect.min;
        self.origin = Some(origin);
        let human_to_move =
            self.session.ai_to_move().is_none() && matches!(self.session.turn(), Turn::Seat(_));
        let hovered = response
            .hover_pos()
            .filter(|_| human_to_move)
            .and_then(|pointer| self.move_at(origin, pointer));
        for (row, (&left, &start)) in game
            .rows()
            .stones()
            .iter()
            .zip(game.start_rows())
            .enumerate()
        {
            for column in 0..start {
                let centre =
                    origin + Vec2::new((column as f32 + 0.5) * CELL, (row as f32 + 0.5) * CELL);
                if column >= left {
                    // A taken stone leaves an outline, so the grid keeps
                    // its shape.
                    painter.circle_stroke(
                        centre,
                        STONE,
                        Stroke::new(1.0, ui.visuals().weak_text_color()),
                    );
                    continue;
                }
                let marked = matches!(hovered, Some(CairnAction::Take { row: r, stones })
                    if r as usize == row + 1 && column >= left - stones);
                let colour = if marked { MARKED } else { STONE_COLOUR };
                painter.circle_filled(centre, STONE, colour);
            }
        }
        if response.clicked()
            && let Some(action) = hovered
            && let Err(e) = self.session.apply(&action)
        {
            cx.console.push(ConsoleLine {
                text: format!("{}: {e}", Cairn::ID),
                is_error: true,
            });
        }
    }
}

/// Each seat's score.
fn game_scores(game: &Cairn) -> [i64; 2] {
    let scores = tessera_host::Reports::scores(game);
    [
        scores.first().copied().unwrap_or(0),
        scores.get(1).copied().unwrap_or(0),
    ]
}

impl PlaytestView for CairnPlaytest {
    fn ui(&mut self, ui: &mut egui::Ui, cx: &mut PlaytestContext<'_>) {
        self.header(ui);
        ui.separator();
        self.grid(ui, cx);
        if self.session.turn() == Turn::Over {
            ui.add_space(8.0);
            // Room for the two stacked buttons, then the buttons in it.
            let (room, _) = ui.allocate_exact_size(Vec2::new(120.0, 54.0), Sense::hover());
            let first = Rect::from_min_size(room.min, Vec2::new(120.0, 24.0));
            if let Some(request) = tessera_ui::play_again_buttons(ui, first, self.session.seed()) {
                self.request = Some(request);
            }
        }
    }

    fn session(&self) -> Option<&dyn Session> {
        Some(&self.session)
    }

    fn session_mut(&mut self) -> Option<&mut dyn Session> {
        Some(&mut self.session)
    }

    fn take_request(&mut self) -> Option<ViewRequest> {
        self.request.take()
    }
}
