//! The playtest view: the box as z-slices and in 3D, a tray of unplaced
//! pieces, placement by picking cells or by anchor + rotation with a
//! green/red ghost, undo/redo, hints and a win screen.

use egui::{Color32, Key, Modifiers, RichText};
use tessera_host::Recorded;
use tessera_host::project::Project;
use tessera_polycube::rules::{PlacedPiece, PlacementError};
use tessera_polycube::{Polycube, PolycubeAction};
use tessera_polycube::{Pos, UserCell, user_cell};
use tessera_ui::text::count;

use super::iso::{self, Camera, Cube};
use super::solution_steps::SolutionSteps;
use tessera_ui::{ConsoleLine, PlaytestContext, PlaytestView};

mod aim;
use aim::blockers;

/// A ghost's cells (0-based) and the pipeline's verdict on placing there:
/// the placement, or the refusal.
type Ghost = (Vec<[i32; 3]>, Result<PlacedPiece, PlacementError>);

/// The ghost's colours: legal and refused (no piece has either colour).
const GHOST_LEGAL: Color32 = Color32::from_rgb(80, 200, 90);
const GHOST_REFUSED: Color32 = Color32::from_rgb(220, 50, 50);
/// Placed cells that block a slide in assembly mode.
const BLOCKER: Color32 = Color32::from_rgb(255, 150, 0);

/// What an anchor is, said where anchor mode is chosen.
pub const ANCHOR_MEANING: &str = "Anchor: the cell you click is where the rotated piece's lowest corner goes (its smallest x, y and z).";

/// What picking cells is, said where pick mode is chosen.
pub const PICK_MEANING: &str =
    "Pick cells: click as many cells as the piece has; the shape is recognised in any rotation.";

/// What assembly mode asks, said above the tray.
pub const ASSEMBLY_MEANING: &str =
    "Assembly mode: every piece must slide in along a straight line from outside the box.";

/// What free play allows, said where assembly mode's rule would be.
pub const FREE_MEANING: &str = "Free play: a piece goes wherever it fits.";

/// Below this height the view is compact (a docked playtest under the
/// editor's header, above its console): no level name (the header says
/// it), the modes' help in their buttons' hover text, the tray on one
/// line with its name, and the free-play note and "Show a solution" in a
/// tool window. Their lines took the panel's height at 1280 x 800: the
/// slices were under the console. A playtest maximised at 1280 x 800 has
/// about 595 px and keeps the full view; docked at 1400 x 900, about 520.
const COMPACT_BELOW: f32 = 560.0;

/// The compact view's toggle of its tool window, and the window's title.
pub const TOOLS: &str = "Solution, rules…";

/// How the player aims a piece.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Click as many cells as the piece has; the shape is recognised.
    PickCells,
    /// Click an anchor cell; R / Shift+R cycle the 24 rotations.
    Anchor,
}

/// The running view.
pub struct PolycubePlaytest {
    game: Recorded<Polycube>,
    selected: Option<usize>,
    mode: Mode,
    picked: Vec<(i32, i32, i32)>,
    anchor: Option<(i32, i32, i32)>,
    rotation: u8,
    camera: Camera,
    message: Option<(String, bool)>,
    /// Seconds not yet turned into ticks.
    pending: f64,
    /// When time was last turned into ticks: game time follows this
    /// monotonic clock, not the redraw rate (a window that redraws rarely
    /// must not slow the clock down).
    last_tick: Option<std::time::Instant>,
    /// A hint being worked out on a worker thread, with the board it is for.
    hint_job: Option<HintJob>,
    /// Where the 3D view was drawn last frame.
    drawn: Option<iso::Drawn>,
    /// "Show a solution": a packing stepped through in the 3D view.
    solution: SolutionSteps,
    /// Whether the compact view's tool window is open.
    tools_open: bool,
}

/// The solver's answer for one board, computed off the UI thread.
type HintJob = tessera_host::worker::Job<
    Result<(tessera_polycube::BoardKey, PolycubeAction), tessera_host::GameError>,
>;

/// The engine's 0-based cell for a 1-based position the view holds (the
/// one conversion; positions outside any box saturate and are refused by
/// the rules as out of bounds).
fn engine_cell(pos: UserCell) -> [i32; 3] {
    let narrow = |v: i64| v.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32;
    let [x, y, z] = Pos::from_user(pos).zero_based();
    [narrow(x), narrow(y), narrow(z)]
}

/// Shows a polycube session (started by the host, or replayed) in the
/// playtest view.
pub fn open_view(
    _project: &mut Project,
    session: Box<dyn tessera_host::Session>,
) -> anyhow::Result<Box<dyn PlaytestView>> {
    Ok(Box::new(PolycubePlaytest::new(tessera_ui::recorded::<
        Polycube,
    >(session)?)))
}

impl PolycubePlaytest {
    /// A view on a started game.
    pub fn new(game: Recorded<Polycube>) -> Self {
        Self {
            game,
            selected: None,
            mode: Mode::PickCells,
            picked: Vec::new(),
            anchor: None,
            rotation: 0,
            camera: Camera::default(),
            message: None,
            pending: 0.0,
            last_tick: None,
            hint_job: None,
            drawn: None,
            solution: SolutionSteps::default(),
            tools_open: false,
        }
    }

    /// Starts working out a hint on a worker thread; the UI keeps drawing
    /// (a big box can take the solver a while). Without hints left, the
    /// game's refusal comes at once.
    fn ask_hint(&mut self, cx: &mut PlaytestContext<'_>) {
        let (used, allowed) = self.game().hints();
        if used >= allowed || self.hint_job.is_some() {
            self.act(&PolycubeAction::Hint, cx);
            return;
        }
        use tessera_host::AgentGame as _;
        let view = self.game.game().snapshot();
        self.hint_job = Some(tessera_host::worker::Job::spawn("hint", move |control| {
            let solver = view.solver()?;
            let key = tessera_polycube::board_key(&view.rules);
            control.set_note("solving");
            let action =
                tessera_polycube::hint_action(&view.rules, &solver, control.cancel_flag())?;
            Ok((key, action))
        }));
    }

    /// Applies a finished hint (recorded as the `Hint` action).
    fn poll_hint(&mut self, ui: &mut egui::Ui, cx: &mut PlaytestContext<'_>) {
        use tessera_host::worker::Poll;
        let Some(job) = self.hint_job.as_mut() else {
            return;
        };
        match job.poll() {
            // Shown in the header (Cancel hint) and the status line.
            Poll::Running => ui
                .ctx()
                .request_repaint_after(std::time::Duration::from_millis(50)),
            Poll::Done(Ok((key, action))) => {
                self.hint_job = None;
                self.game.game_mut().offer_hint(key, action);
                self.act(&PolycubeAction::Hint, cx);
            }
            Poll::Done(Err(e)) => {
                self.hint_job = None;
                // Stuck is news about the board, not a refused move.
                let (text, is_error) = match e {
                    tessera_host::GameError::Cancelled => ("hint cancelled".to_string(), false),
                    tessera_host::GameError::Illegal(text) if text.starts_with("Stuck") => {
                        (text, false)
                    }
                    other => (other.to_string(), true),
                };
                self.message = Some((text, is_error));
            }
            Poll::Lost => {
                self.hint_job = None;
                self.message = Some(("the hint search stopped unexpectedly".into(), true));
            }
        }
    }

    /// The game (for tests and the console).
    pub fn game(&self) -> &Polycube {
        self.game.game()
    }

    fn colour(&self, piece: usize) -> Color32 {
        iso::piece_colour(self.game().level(), piece)
    }

    fn act(&mut self, action: &PolycubeAction, cx: &mut PlaytestContext<'_>) {
        match self.game.apply(action) {
            Ok(()) => {
                self.picked.clear();
                self.anchor = None;
                if !matches!(action, PolycubeAction::Undo | PolycubeAction::Redo) {
                    self.selected = None;
                }
                self.message = None;
            }
            Err(e) => {
                let text = e.to_string();
                cx.console.push(ConsoleLine {
                    text: format!("polycube: {text}"),
                    is_error: false,
                });
                self.message = Some((text, true));
            }
        }
    }

    /// Applies the rules' own Undo or Redo when there is something to take
    /// back or bring back.
    fn undo_redo(&mut self, action: PolycubeAction) -> bool {
        let possible = match action {
            PolycubeAction::Undo => self.game().rules().can_undo(),
            _ => self.game().rules().can_redo(),
        };
        if !possible {
            return false;
        }
        let applied = self.game.apply(&action).is_ok();
        self.picked.clear();
        self.anchor = None;
        self.message = None;
        applied
    }

    fn keys(&mut self, ui: &egui::Ui, cx: &mut PlaytestContext<'_>) {
        // Keys belong to the focused panel: while a text field (the code
        // editor, a seed field) has focus, Ctrl+Z is its text undo.
        if ui.ctx().egui_wants_keyboard_input() {
            return;
        }
        // Ctrl+Z and Ctrl+Shift+Z reach the view through the playtest
        // area (see `undo` and `redo` below). Shift+R before R: R alone
        // would also match Shift+R.
        let (prev, next, enter) = ui.input_mut(|i| {
            (
                i.consume_key(Modifiers::SHIFT, Key::R),
                i.consume_key(Modifiers::NONE, Key::R),
                i.consume_key(Modifiers::NONE, Key::Enter),
            )
        });
        if next {
            self.rotation = (self.rotation + 1) % 24;
        }
        if prev {
            self.rotation = (self.rotation + 23) % 24;
        }
        if enter && let Some(action) = self.aimed_action() {
            self.act(&action, cx);
        }
    }

    fn tick(&mut self, ui: &egui::Ui) {
        let now = std::time::Instant::now();
        let dt = self
            .last_tick
            .map_or(0.0, |last| now.duration_since(last).as_secs_f64());
        self.last_tick = Some(now);
        self.pending += dt;
        let tps = f64::from(self.game().settings().ticks_per_second.max(1));
        let ticks = (self.pending * tps).floor();
        if ticks >= 1.0 {
            self.pending -= ticks / tps;
            let _ = self.game.advance(ticks as u32);
        }
        if !self.game().rules().is_won() {
            ui.ctx()
                .request_repaint_after(std::time::Duration::from_millis(250));
        }
    }

    /// The tray's chips; `compact`: after the tray's name on its line.
    fn tray(&mut self, ui: &mut egui::Ui, compact: bool) {
        if !compact {
            ui.strong("Tray");
        }
        let rules = self.game().rules();
        let pieces: Vec<(usize, String, usize, bool)> = rules
            .pieces()
            .iter()
            .enumerate()
            .map(|(i, p)| (i, p.id.clone(), p.shape.len(), rules.placement(i).is_some()))
            .collect();
        ui.horizontal_wrapped(|ui| {
            if compact {
                ui.strong("Tray");
            }
            for (i, id, cells, placed) in pieces {
                // The chosen chip's text takes the selection's own text
                // colour: the piece's colour on the highlight can vanish.
                let chosen = self.selected == Some(i);
                let colour = if chosen {
                    ui.visuals().selection.stroke.color
                } else {
                    self.colour(i)
                };
                let text = RichText::new(format!("{id} ({cells})")).color(colour);
                // A placed piece's chip keeps its room, unseen: the other
                // chips stay where they were, and the last one placed
                // leaves the row's height, so nothing below jumps.
                let chip = egui::Button::selectable(chosen, text);
                if ui.add_visible(!placed, chip).clicked() {
                    self.selected = Some(i);
                    self.picked.clear();
                    self.anchor = None;
                }
            }
        });
    }

    /// A slice cell's side: cells grow with the space (a maximised or
    /// popped-out playtest), leaving room for the 3D view.
    fn cell_side(&self, ui: &egui::Ui) -> f32 {
        let [a, b, c] = self.game().rules().size();
        let across = ui.available_width() / c.max(1) as f32 / (a.max(1) as f32 + 0.6) - 2.0;
        let down = ui.available_height() * 0.3 / (b.max(1) as f32 + 1.0) - 2.0;
        across.min(down).clamp(24.0, 44.0)
    }

    /// The room the slices take with cells of `side`, their layers side by
    /// side and wrapped at `width`.
    fn slices_size(&self, ui: &egui::Ui, side: f32, width: f32) -> egui::Vec2 {
        let [a, b, c] = self.game().rules().size();
        let gap = ui.spacing().item_spacing;
        let layer = egui::Vec2::new(
            a as f32 * (side + 2.0) - 2.0,
            ui.text_style_height(&egui::TextStyle::Body) + gap.y + b as f32 * (side + 2.0) - 2.0,
        );
        let per_row = (((width + gap.x) / (layer.x + gap.x)).floor() as usize).clamp(1, c.max(1));
        let rows = c.max(1).div_ceil(per_row);
        egui::Vec2::new(
            per_row as f32 * (layer.x + gap.x) - gap.x,
            rows as f32 * (layer.y + gap.y) - gap.y,
        )
    }

    /// The slices and the 3D view in the room left: the view below the
    /// slices, or beside them when that shows it larger (a docked panel's
    /// few slices leave the side free; its height is short). Either way
    /// the view takes what is left and no more: it ran past the window.
    fn slices_and_view(&mut self, ui: &mut egui::Ui) {
        let side = self.cell_side(ui);
        let room = ui.available_size();
        let slices = self.slices_size(ui, side, room.x);
        let gap = ui.spacing().item_spacing;
        // The view's own row of buttons and the separators.
        let row = ui.spacing().interact_size.y + 2.0 * gap.y + 8.0;
        let below = (room.x).min(room.y - slices.y - row - 8.0);
        let beside = (room.x - slices.x - 8.0 - 2.0 * gap.x).min(room.y - row);
        if beside > below && beside >= 80.0 {
            ui.horizontal_top(|ui| {
                // As wide as its layers in one row: the view takes the rest.
                ui.vertical(|ui| self.slices(ui, side));
                ui.separator();
                ui.vertical(|ui| self.view_3d(ui));
            });
        } else {
            self.slices(ui, side);
            ui.separator();
            self.view_3d(ui);
        }
    }

    fn slices(&mut self, ui: &mut egui::Ui, side: f32) {
        let ghost = self.ghost();
        let ghost_cells: Vec<[i32; 3]> = ghost.as_ref().map(|g| g.0.clone()).unwrap_or_default();
        let ghost_ok = ghost.as_ref().is_some_and(|g| g.1.is_ok());
        let blocking = blockers(ghost.as_ref());
        let supports: Vec<[i32; 3]> = match (&ghost, self.selected) {
            (Some((_, Ok(pose))), Some(p)) if self.game().rules().support_rule() => {
                self.game().rules().supports(p, &pose.cells)
            }
            _ => Vec::new(),
        };
        let [a, b, c] = self.game().rules().size();
        let mut clicked: Option<(i32, i32, i32)> = None;
        ui.horizontal_wrapped(|ui| {
            for z in 0..c as i32 {
                ui.vertical(|ui| {
                    ui.label(format!("z = {}", user_cell([0, 0, z]).2));
                    egui::Grid::new(("slice", z))
                        .spacing([2.0, 2.0])
                        .show(ui, |ui| {
                            for y in (0..b as i32).rev() {
                                for x in 0..a as i32 {
                                    let cell = [x, y, z];
                                    let pos = user_cell(cell);
                                    let owner = self.game().rules().owner(cell);
                                    let letter = owner
                                        .map(|o| self.game().rules().pieces()[o].letter.to_string())
                                        .unwrap_or_else(|| "·".into());
                                    let mut fill = owner
                                        .map_or(ui.visuals().extreme_bg_color, |o| self.colour(o));
                                    if ghost_cells.contains(&cell) {
                                        fill = if ghost_ok { GHOST_LEGAL } else { GHOST_REFUSED };
                                    }
                                    let picked = self.picked.contains(&pos);
                                    let stroke = if blocking.contains(&cell) {
                                        egui::Stroke::new(3.0, BLOCKER)
                                    } else if supports.contains(&cell) {
                                        egui::Stroke::new(2.0, Color32::YELLOW)
                                    } else if picked {
                                        egui::Stroke::new(2.0, Color32::WHITE)
                                    } else {
                                        egui::Stroke::NONE
                                    };
                                    // No stroke of the button's own: a frame's
                                    // stroke adds to its size, so an outlined
                                    // cell grew and the columns and rows after
                                    // it moved while a piece was aimed. The
                                    // outline is painted inside the cell.
                                    let button =
                                        egui::Button::new(RichText::new(letter).monospace())
                                            .fill(fill)
                                            .stroke(egui::Stroke::NONE)
                                            .min_size(egui::vec2(side, side));
                                    let response = ui.add(button);
                                    if stroke != egui::Stroke::NONE {
                                        ui.painter().rect_stroke(
                                            response.rect,
                                            ui.visuals().widgets.inactive.corner_radius,
                                            stroke,
                                            egui::StrokeKind::Inside,
                                        );
                                    }
                                    let label = format!("cell {},{},{}", pos.0, pos.1, pos.2);
                                    response.widget_info(|| {
                                        egui::WidgetInfo::labeled(egui::Role::Button, true, &label)
                                    });
                                    if response.clicked() {
                                        clicked = Some(pos);
                                    }
                                }
                                ui.end_row();
                            }
                        });
                });
            }
        });
        if let Some(pos) = clicked {
            self.click_cell(pos);
        }
    }

    fn click_cell(&mut self, pos: (i32, i32, i32)) {
        let cell = engine_cell(pos);
        let owner = self.game().rules().owner(cell);
        // With a tray piece chosen in anchor mode, any cell is an aim (the
        // ghost says whether it fits); otherwise clicking a placed piece
        // with nothing aimed selects it to move.
        let aiming_from_tray = self.mode == Mode::Anchor
            && self
                .selected
                .is_some_and(|s| self.game().rules().placement(s).is_none());
        if !aiming_from_tray
            && self.picked.is_empty()
            && self.anchor.is_none()
            && let Some(o) = owner
            && self.selected != Some(o)
        {
            self.select_placed(o);
            return;
        }
        if self.selected.is_none() {
            return;
        }
        match self.mode {
            Mode::PickCells => {
                if let Some(i) = self.picked.iter().position(|&p| p == pos) {
                    self.picked.remove(i);
                } else {
                    self.picked.push(pos);
                }
            }
            Mode::Anchor => self.anchor = Some(pos),
        }
    }

    /// The box in 3D; clicking a placed piece's cube selects that piece,
    /// as clicking it in the slices does.
    fn view_3d(&mut self, ui: &mut egui::Ui) {
        if self.solution.active() {
            let cubes = self.solution.cubes(|p| self.colour(p));
            let size = self.game().rules().size();
            let height = (ui.available_height() - 8.0).min(900.0);
            let shown = iso::show(ui, &mut self.camera, size, &cubes, height);
            self.drawn = Some(shown.drawn);
            return;
        }
        let mut cubes: Vec<Cube> = Vec::new();
        // The piece each cube belongs to (`None` for the ghost).
        let mut owners: Vec<Option<usize>> = Vec::new();
        let rules = self.game().rules();
        let ghost = self.ghost();
        let blocking = blockers(ghost.as_ref());
        for p in 0..rules.pieces().len() {
            if let Some(pose) = rules.placement(p) {
                let colour = self.colour(p);
                // The piece chosen to move shows lighter, as in the slices'
                // tray selection.
                let colour = if self.selected == Some(p) {
                    colour.lerp_to_gamma(Color32::WHITE, 0.45)
                } else {
                    colour
                };
                // In assembly mode the cells in the way of the ghost's
                // slide show in the blocker colour.
                cubes.extend(pose.cells.iter().map(|&cell| Cube {
                    cell,
                    colour: if blocking.contains(&cell) {
                        BLOCKER
                    } else {
                        colour
                    },
                }));
                owners.resize(cubes.len(), Some(p));
            }
        }
        if let Some((cells, verdict)) = ghost {
            let [r, g, b, _] = if verdict.is_ok() {
                GHOST_LEGAL.to_array()
            } else {
                GHOST_REFUSED.to_array()
            };
            let colour = Color32::from_rgba_unmultiplied(r, g, b, 150);
            cubes.extend(cells.iter().map(|&cell| Cube { cell, colour }));
            owners.resize(cubes.len(), None);
        }
        let size = rules.size();
        // The 3D view takes what height is left, within reason: a
        // maximised or popped-out playtest shows it larger, a short panel
        // smaller (at least 180 px ran it past the window's bottom).
        let height = (ui.available_height() - 8.0).min(900.0);
        let shown = iso::show(ui, &mut self.camera, size, &cubes, height);
        self.drawn = Some(shown.drawn);
        if let Some(piece) = shown.clicked.and_then(|i| owners.get(i).copied().flatten()) {
            self.select_placed(piece);
        }
    }

    /// Selects a placed piece to move it: its current rotation, no aim.
    fn select_placed(&mut self, piece: usize) {
        self.selected = Some(piece);
        self.picked.clear();
        self.anchor = None;
        self.rotation = self
            .game()
            .rules()
            .placement(piece)
            .map_or(0, |p| p.rotation);
    }

    /// Where the 3D view was drawn last frame (tests click cubes there).
    pub fn drawn_3d(&self) -> Option<iso::Drawn> {
        self.drawn
    }

    /// The piece chosen in the tray, the slices or the 3D view.
    pub fn selected(&self) -> Option<usize> {
        self.selected
    }

    /// The aiming modes, Place and its neighbours, the aim's status;
    /// `compact`: the modes' help in their hover text, not on two lines.
    fn controls(&mut self, ui: &mut egui::Ui, cx: &mut PlaytestContext<'_>, compact: bool) {
        ui.horizontal(|ui| {
            ui.selectable_value(&mut self.mode, Mode::PickCells, "Pick cells")
                .on_hover_text(PICK_MEANING);
            ui.selectable_value(&mut self.mode, Mode::Anchor, "Anchor + rotation")
                .on_hover_text(ANCHOR_MEANING);
            // Elided at the panel's edge: in a narrow panel the row ran
            // past it and widened the panel's content (the 3D view grew).
            if self.mode == Mode::Anchor {
                let rotation = format!("rotation {} / 24 (R, Shift+R)", self.rotation);
                ui.add(egui::Label::new(&rotation).truncate())
                    .on_hover_text(rotation);
            }
        });
        // The mode's help has a slot of two lines in both modes: shown in
        // one mode only, it moved the buttons and the board by its height
        // (two wrapped lines in a docked panel) at each switch.
        let help = match self.mode {
            Mode::PickCells => PICK_MEANING,
            Mode::Anchor => ANCHOR_MEANING,
        };
        if !compact {
            tessera_ui::slot::line_slot(ui, 2, |ui| {
                ui.add(egui::Label::new(RichText::new(help).weak()).wrap())
                    .on_hover_text(help);
            });
        }
        // The buttons come first and keep their places whatever the status
        // says or whichever piece is chosen; the status has its own line.
        let chosen = self.selected.map(|piece| {
            let rules = self.game().rules();
            let info = &rules.pieces()[piece];
            (piece, info.id.clone(), rules.placement(piece).is_some())
        });
        let placed = chosen.as_ref().is_some_and(|(_, _, placed)| *placed);
        let refused = matches!(self.ghost(), Some((_, Err(_))));
        // Place and Move share one slot of one width.
        let verb_width = ui.spacing().interact_size.x * 1.4;
        ui.horizontal(|ui| {
            let verb = if placed { "Move" } else { "Place" };
            let place = egui::Button::new(verb).min_size(egui::vec2(verb_width, 0.0));
            if ui.add_enabled(chosen.is_some(), place).clicked()
                && let Some(action) = self.aimed_action()
            {
                self.act(&action, cx);
            }
            if ui.add_enabled(placed, egui::Button::new("Pick up")).clicked()
                && let Some((_, id, _)) = &chosen
            {
                self.act(&PolycubeAction::PickUp { piece: id.clone() }, cx);
            }
            if ui
                .add_enabled(chosen.is_some(), egui::Button::new("Clear aim"))
                .clicked()
            {
                self.picked.clear();
                self.anchor = None;
            }
            if ui
                .add_enabled(refused, egui::Button::new("Nearest legal"))
                .on_hover_text(
                    "Move the aim to the legal pose closest to this ghost (fewest cells off, shortest move)",
                )
                .clicked()
                && let Some((piece, _, _)) = chosen
            {
                self.aim_nearest_legal(piece);
            }
        });
        let status = match &chosen {
            None => "Choose a piece from the tray, or click a placed piece.".to_string(),
            Some((piece, id, _)) => format!("Piece {id}: {}", self.aim_status(*piece)),
        };
        ui.add(egui::Label::new(&status).truncate())
            .on_hover_text(&status);
    }

    /// The mode's note (free play or assembly) and "Show a solution".
    fn rules_and_solution(&mut self, ui: &mut egui::Ui) {
        let note = if self.game().rules().assembly() {
            ASSEMBLY_MEANING
        } else {
            FREE_MEANING
        };
        tessera_ui::slot::line_slot(ui, 1, |ui| {
            ui.add(egui::Label::new(RichText::new(note).weak()).truncate())
                .on_hover_text(note);
        });
        let ids: Vec<String> = self
            .game()
            .rules()
            .pieces()
            .iter()
            .map(|p| p.id.clone())
            .collect();
        let assembly = self.game().rules().assembly();
        self.solution
            .ui(ui, self.game.game().level(), assembly, &ids);
    }
}

impl PlaytestView for PolycubePlaytest {
    fn session(&self) -> Option<&dyn tessera_host::Session> {
        Some(&self.game)
    }

    /// Polycube's rules keep their own undo and redo lists (the seed's
    /// Undo/Redo actions, recorded like moves), so Ctrl+Z and Ctrl+Shift+Z
    /// use them and redo works.
    fn undo(&mut self) -> Result<bool, tessera_host::GameError> {
        Ok(self.undo_redo(PolycubeAction::Undo))
    }

    fn redo(&mut self) -> Result<bool, tessera_host::GameError> {
        Ok(self.undo_redo(PolycubeAction::Redo))
    }

    fn session_mut(&mut self) -> Option<&mut dyn tessera_host::Session> {
        Some(&mut self.game)
    }

    fn ui(&mut self, ui: &mut egui::Ui, cx: &mut PlaytestContext<'_>) {
        self.tick(ui);
        self.keys(ui, cx);
        let (used, allowed) = self.game().hints();
        let compact = ui.available_height() < COMPACT_BELOW;
        // The level's name on a line of its own, elided at the panel's
        // edge (beside the buttons it was clipped there).
        let name = self.game().level().name.clone();
        if !compact {
            ui.add(egui::Label::new(RichText::new(&name).heading()).truncate())
                .on_hover_text(name);
        }
        ui.horizontal(|ui| {
            if ui
                .add_enabled(self.game().rules().can_undo(), egui::Button::new("Undo"))
                .clicked()
            {
                self.act(&PolycubeAction::Undo, cx);
            }
            if ui
                .add_enabled(self.game().rules().can_redo(), egui::Button::new("Redo"))
                .clicked()
            {
                self.act(&PolycubeAction::Redo, cx);
            }
            // One slot: Hint, or Cancel while a hint is worked out.
            if let Some(job) = &self.hint_job {
                if ui.button("Cancel hint").clicked() {
                    job.cancel();
                }
            } else {
                let hint =
                    egui::Button::new(format!("Hint ({} left)", allowed.saturating_sub(used)));
                if ui.add_enabled(used < allowed, hint).clicked() {
                    self.ask_hint(cx);
                }
            }
            if compact {
                ui.toggle_value(&mut self.tools_open, TOOLS)
                    .on_hover_text("Show a solution, and whether pieces must slide in");
            }
            // The changing figures come after the buttons, which stay put,
            // on one line elided at the panel's edge.
            ui.add(
                egui::Label::new(format!(
                    "{:.0} s, {}, {}/{} placed",
                    self.game().seconds(),
                    count(self.game().moves(), "move"),
                    self.game().rules().placed_count(),
                    self.game().rules().pieces().len()
                ))
                .truncate(),
            );
        });
        self.poll_hint(ui, cx);
        // The mode's note takes one line in every mode, elided at the
        // panel's edge: shown in assembly mode only, and wrapped, it pushed
        // the game down a line or two against free play.
        if compact {
            // A solution searched for or shown keeps its window open: its
            // job is polled there (progress, Cancel) and its steps are there.
            self.tools_open |= self.solution.running() || self.solution.active();
            let mut open = self.tools_open;
            tessera_ui::tool_window(ui.ctx(), TOOLS, &mut open, egui::vec2(420.0, 120.0), |ui| {
                self.rules_and_solution(ui);
            });
            self.tools_open = open;
        } else {
            self.rules_and_solution(ui);
        }
        // The status line always takes its line, empty or not, so the tray
        // and the board never jump under the mouse when a message comes;
        // the win is said there too.
        let solved = self.game().rules().is_won().then(|| {
            format!(
                "Solved in {:.0} s and {}! {}",
                self.game().seconds(),
                count(self.game().moves(), "move"),
                "★".repeat(self.game().stars().unwrap_or(0) as usize)
            )
        });
        let thinking = self
            .hint_job
            .as_ref()
            .map(|job| format!("Finding a hint… {:.1} s", job.elapsed().as_secs_f32()));
        let plain = ui.visuals().text_color();
        let (text, colour) = match (&solved, &thinking, &self.message) {
            (Some(text), _, _) => (text.as_str(), Color32::from_rgb(90, 200, 100)),
            (None, Some(text), _) | (None, None, Some((text, false))) => (text.as_str(), plain),
            (None, None, Some((text, true))) => (text.as_str(), Color32::from_rgb(230, 90, 80)),
            (None, None, None) => (" ", plain),
        };
        ui.add(egui::Label::new(RichText::new(text).color(colour)).truncate())
            .on_hover_text(text);
        self.tray(ui, compact);
        self.controls(ui, cx, compact);
        ui.separator();
        self.slices_and_view(ui);
    }
}
