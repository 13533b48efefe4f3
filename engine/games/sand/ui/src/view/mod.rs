//! The sand playtest view: board texture, slots with drag-and-drop, score
//! panel, speed controls, debug overlays, effects and the game-over screen.
//!
//! `slots.rs` holds the slots and dragging a piece (ghost, rotation,
//! placement), `panel.rs` the side panel and the game-over card; this file
//! the view's state, time, events, effects and the board.

mod panel;
mod slots;

use egui::{
    Align2, Color32, ColorImage, FontId, Pos2, Rect, Sense, Stroke, StrokeKind, TextureHandle,
    TextureOptions, Vec2, pos2, vec2,
};
use tessera_host::{Game, Outcome, Recorded};
use tessera_sand::{ClearPhase, Sand};

use tessera_ui::{ConsoleLine, PlaytestContext, PlaytestView, ViewRequest};

/// Seconds a rejected piece shakes in its slot.
const SHAKE_SECONDS: f64 = 0.4;
/// Seconds a score pop-up stays up.
const POPUP_SECONDS: f64 = 1.4;
/// Most particles one burst spawns (one per sampled grain).
const MAX_PARTICLES: usize = 1500;
/// Most ticks one frame may run (a stalled frame does not fast-forward).
const MAX_TICKS_PER_FRAME: f64 = 240.0;

/// Which debug drawings are on.
#[derive(Debug, Clone, Copy, Default)]
pub struct Overlays {
    /// Logical cell lines.
    pub logical_grid: bool,
    /// Tint awake grains.
    pub awake: bool,
    /// Outline the cluster being cleared.
    pub cluster: bool,
    /// Grain count and frame rate.
    pub stats: bool,
}

struct Popup {
    text: String,
    /// In grain coordinates.
    at: Pos2,
    born: f64,
    colour: Color32,
}

struct Particle {
    /// In grain coordinates.
    at: Pos2,
    velocity: Vec2,
    colour: Color32,
    life: f32,
}

/// The interactive sand view.
pub struct SandPlaytest {
    seed: u64,
    /// The recorded session: every placement and tick is a replay step.
    session: Recorded<Sand>,
    texture: Option<TextureHandle>,
    pixels: Vec<Color32>,
    /// Game speed multiplier (0.1x to 4x).
    pub speed: f32,
    /// Whether time stands still.
    pub paused: bool,
    carry: f64,
    dragging: Option<usize>,
    /// Quarter turns of the dragged piece (R or right click, when the
    /// script allows rotation).
    drag_rotation: u8,
    shake: Option<(usize, f64)>,
    /// Why the last drop was refused, for the console's next info line.
    refusal: Option<String>,
    popups: Vec<Popup>,
    particles: Vec<Particle>,
    seen_rounds: usize,
    was_bursting: bool,
    /// Debug drawings.
    pub overlays: Overlays,
    fps: f32,
    noise: u64,
    board_rect: Rect,
    grain_px: f32,
    /// What the view asks of the playtest area (a new game).
    request: Option<ViewRequest>,
}

/// The side panel's width beside the board.
const PANEL_WIDTH: f32 = 180.0;
/// The gap between the board's column and the side panel.
const PANEL_GAP: f32 = 10.0;

impl SandPlaytest {
    /// A view on a session that already ran (a replay opened at a step):
    /// play goes on from where it stands.
    pub fn from_session(session: Recorded<Sand>) -> Self {
        let seed = session.seed();
        // Clears that happened before the view opened get no pop-ups.
        let seen_rounds = session.game().chain_log().len();
        Self {
            seed,
            session,
            texture: None,
            pixels: Vec::new(),
            speed: 1.0,
            paused: false,
            carry: 0.0,
            dragging: None,
            drag_rotation: 0,
            shake: None,
            refusal: None,
            popups: Vec::new(),
            particles: Vec::new(),
            seen_rounds,
            was_bursting: false,
            overlays: Overlays::default(),
            fps: 0.0,
            noise: seed ^ 0x9e37_79b9_7f4a_7c15,
            board_rect: Rect::NOTHING,
            grain_px: 1.0,
            request: None,
        }
    }

    /// The game being played.
    pub fn game(&self) -> &Sand {
        self.session.game()
    }

    /// The game, for tools that set up positions (tests, debugging); such
    /// changes are not recorded.
    pub fn game_mut(&mut self) -> &mut Sand {
        self.session.game_mut()
    }

    /// The recorded session (its replay and trajectory).
    pub fn session(&self) -> &Recorded<Sand> {
        &self.session
    }

    /// Where the board was last drawn, in screen points.
    pub fn board_rect(&self) -> Rect {
        self.board_rect
    }

    /// Screen position of the centre of logical cell (x, y).
    pub fn cell_centre(&self, x: usize, y: usize) -> Pos2 {
        let cell = self.session.game().cell_size() as f32 * self.grain_px;
        self.board_rect.min + vec2((x as f32 + 0.5) * cell, (y as f32 + 0.5) * cell)
    }

    fn random(&mut self) -> f32 {
        // xorshift64*: presentation only, never the rules' generator.
        self.noise ^= self.noise >> 12;
        self.noise ^= self.noise << 25;
        self.noise ^= self.noise >> 27;
        let bits = self.noise.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 40;
        bits as f32 / (1u64 << 24) as f32
    }

    fn colour(&self, index: u8) -> Color32 {
        self.session
            .game()
            .palette()
            .get(usize::from(index))
            .map(|c| Color32::from_rgb(c.rgb[0], c.rgb[1], c.rgb[2]))
            .unwrap_or(Color32::GRAY)
    }

    fn advance_time(&mut self, dt: f64) {
        if self.paused {
            return;
        }
        let rate = self.session.game().settings().ticks_per_second * f64::from(self.speed);
        self.carry = (self.carry + dt * rate).min(MAX_TICKS_PER_FRAME);
        let ticks = self.carry.floor();
        self.carry -= ticks;
        if ticks >= 1.0 {
            let _ = self.session.advance(ticks as u32);
        }
    }

    /// Console lines, pop-ups and particles for what happened since the
    /// last frame.
    fn collect_events(&mut self, cx: &mut PlaytestContext<'_>, now: f64) {
        if let Some(reason) = self.refusal.take() {
            // A refused drop is news, not an error: nothing was played.
            cx.console.push(ConsoleLine {
                text: format!("sand: not placed: {reason}"),
                is_error: false,
            });
        }
        for event in self.session.take_new_events() {
            if event.is_error || event.text.starts_with("script: ") {
                cx.console.push(ConsoleLine {
                    text: format!("sand: {}", event.text),
                    is_error: event.is_error,
                });
            }
        }
        let rounds = self.session.game().chain_log().len();
        if rounds > self.seen_rounds {
            let width = self.session.game().grid().width() as f32;
            let new: Vec<_> = self.session.game().chain_log()[self.seen_rounds..].to_vec();
            let clusters = self.session.game().clusters().to_vec();
            for round in new {
                let y = clusters
                    .first()
                    .map(|c| (c.top + c.bottom) as f32 / 2.0)
                    .unwrap_or(0.0);
                if round.chain > 1 {
                    self.popups.push(Popup {
                        text: format!("Chain x{}", round.chain),
                        at: pos2(width / 2.0, y - 12.0),
                        born: now,
                        colour: Color32::from_rgb(255, 220, 90),
                    });
                }
                self.popups.push(Popup {
                    text: format!("+{}", round.points()),
                    at: pos2(width / 2.0, y),
                    born: now,
                    colour: Color32::WHITE,
                });
                cx.console.push(ConsoleLine {
                    text: format!(
                        "sand: chain x{}: {}, +{}",
                        round.chain,
                        tessera_ui::text::count(round.clusters.len(), "cluster"),
                        round.points()
                    ),
                    is_error: false,
                });
            }
            self.seen_rounds = rounds;
        }
        let bursting = matches!(
            self.session.game().clear_phase(),
            Some(ClearPhase::Burst { .. })
        );
        if bursting && !self.was_bursting {
            self.spawn_particles();
        }
        self.was_bursting = bursting;
    }

    fn spawn_particles(&mut self) {
        let rows = self.session.game().clearing_rows().to_vec();
        let total: u32 = rows.iter().map(|r| r.count_ones()).sum();
        let stride = (total as usize / MAX_PARTICLES).max(1);
        let mut n = 0usize;
        for (y, &row) in rows.iter().enumerate() {
            let mut bits = row;
            while bits != 0 {
                let x = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                n += 1;
                if !n.is_multiple_of(stride) {
                    continue;
                }
                let colour = self
                    .session
                    .game()
                    .grid()
                    .colour_at(x, y)
                    .map(|c| self.colour(c))
                    .unwrap_or(Color32::WHITE);
                let velocity = vec2((self.random() - 0.5) * 100.0, -self.random() * 100.0);
                self.particles.push(Particle {
                    at: pos2(x as f32, y as f32),
                    velocity,
                    colour,
                    life: 1.0,
                });
            }
        }
    }

    fn update_effects(&mut self, dt: f32, now: f64) {
        let burst_seconds = match self.session.game().clear_phase() {
            Some(ClearPhase::Burst { total, .. }) => {
                total as f32 / self.session.game().settings().ticks_per_second as f32
            }
            _ => 1.0,
        }
        .max(0.05);
        let step = if self.paused { 0.0 } else { dt * self.speed };
        for p in &mut self.particles {
            p.velocity.y += 150.0 * step;
            p.at += p.velocity * step;
            p.life -= step / burst_seconds;
        }
        self.particles.retain(|p| p.life > 0.0);
        self.popups.retain(|p| now - p.born < POPUP_SECONDS);
        if let Some((_, start)) = self.shake
            && now - start > SHAKE_SECONDS
        {
            self.shake = None;
        }
    }

    /// The board texture: palette colours, flashing grains, hidden bursting
    /// grains, and tinted awake grains when that overlay is on.
    fn paint_pixels(&mut self) {
        let grid = self.session.game().grid();
        let (w, h) = (grid.width(), grid.height());
        self.pixels.clear();
        self.pixels.resize(w * h, Color32::from_gray(18));
        let clearing = self.session.game().clearing_rows();
        let phase = self.session.game().clear_phase();
        let palette: Vec<Color32> = (0..self.session.game().palette().len() as u8)
            .map(|c| self.colour(c))
            .collect();
        for y in 0..h {
            let occupied = grid.occupied_row(y);
            if occupied == 0 {
                continue;
            }
            let awake = grid.awake_row(y);
            let clear_row = clearing.get(y).copied().unwrap_or(0);
            for x in 0..w {
                if occupied >> x & 1 == 0 {
                    continue;
                }
                let Some(c) = grid.colour_at(x, y) else {
                    continue;
                };
                let mut colour = palette
                    .get(usize::from(c))
                    .copied()
                    .unwrap_or(Color32::GRAY);
                if clear_row >> x & 1 == 1 {
                    match phase {
                        Some(ClearPhase::Flash { left }) if (left / 3) % 2 == 0 => {
                            colour = Color32::WHITE;
                        }
                        Some(ClearPhase::Burst { .. }) => continue,
                        _ => {}
                    }
                }
                if self.overlays.awake && awake >> x & 1 == 1 {
                    colour = colour.lerp_to_gamma(Color32::from_rgb(255, 0, 255), 0.6);
                }
                self.pixels[y * w + x] = colour;
            }
        }
    }

    /// The board, scaled to `room` (at least a pixel a grain).
    fn board_ui(&mut self, ui: &mut egui::Ui, now: f64, room: Vec2) {
        let (grid_w, grid_h) = (
            self.session.game().grid().width(),
            self.session.game().grid().height(),
        );
        let (w, h) = (grid_w as f32, grid_h as f32);
        let available = room;
        let scale = (available.x / w).min(available.y / h).max(1.0);
        // Half-grain steps above 2x keep grains evenly sized while still
        // using most of a large (maximised) area.
        let scale = if scale >= 2.0 {
            (scale * 2.0).floor() / 2.0
        } else {
            scale
        };
        let (rect, response) = ui.allocate_exact_size(vec2(w * scale, h * scale), Sense::hover());
        response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Image, true, "sand board"));
        self.board_rect = rect;
        self.grain_px = scale;
        self.paint_pixels();
        let image = ColorImage::new([grid_w, grid_h], self.pixels.clone());
        match &mut self.texture {
            Some(texture) => texture.set(image, TextureOptions::NEAREST),
            None => {
                self.texture = Some(ui.ctx().load_texture(
                    "sand-board",
                    image,
                    TextureOptions::NEAREST,
                ));
            }
        }
        let painter = ui.painter_at(rect.expand(2.0));
        if let Some(texture) = &self.texture {
            painter.image(
                texture.id(),
                rect,
                Rect::from_min_max(pos2(0.0, 0.0), pos2(1.0, 1.0)),
                Color32::WHITE,
            );
        }
        painter.rect_stroke(
            rect,
            0.0,
            Stroke::new(1.0, Color32::from_gray(90)),
            StrokeKind::Outside,
        );
        let cell = self.session.game().cell_size() as f32 * scale;
        let (columns, rows) = self.session.game().logical_size();
        if self.overlays.logical_grid {
            let stroke = Stroke::new(1.0, Color32::from_white_alpha(40));
            for x in 1..columns {
                let px = rect.min.x + x as f32 * cell;
                painter.line_segment([pos2(px, rect.min.y), pos2(px, rect.max.y)], stroke);
            }
            for y in 1..rows {
                let py = rect.min.y + y as f32 * cell;
                painter.line_segment([pos2(rect.min.x, py), pos2(rect.max.x, py)], stroke);
            }
        }
        if self.overlays.cluster {
            self.paint_cluster_outline(&painter, rect, scale);
        }
        for p in &self.particles {
            let at = rect.min + p.at.to_vec2() * scale;
            let alpha = (p.life.clamp(0.0, 1.0) * 255.0) as u8;
            let colour =
                Color32::from_rgba_unmultiplied(p.colour.r(), p.colour.g(), p.colour.b(), alpha);
            painter.rect_filled(
                Rect::from_center_size(at, Vec2::splat(scale * 1.5)),
                0.0,
                colour,
            );
        }
        for popup in &self.popups {
            let age = (now - popup.born) as f32;
            let at = rect.min + popup.at.to_vec2() * scale - vec2(0.0, age * 30.0);
            let alpha = ((1.0 - age / POPUP_SECONDS as f32).clamp(0.0, 1.0) * 255.0) as u8;
            let c = popup.colour;
            painter.text(
                at,
                Align2::CENTER_CENTER,
                &popup.text,
                FontId::proportional(22.0),
                Color32::from_rgba_unmultiplied(c.r(), c.g(), c.b(), alpha),
            );
        }
        if let Some(slot) = self.dragging {
            self.paint_ghost(ui, &painter, slot, cell);
        }
        if self.overlays.stats {
            painter.text(
                rect.left_top() + vec2(4.0, 4.0),
                Align2::LEFT_TOP,
                format!(
                    "grains {}  awake {}  {:.0} fps",
                    self.session.game().grid().grain_count(),
                    self.session.game().grid().awake_count(),
                    self.fps
                ),
                FontId::monospace(12.0),
                Color32::WHITE,
            );
        }
        match self.session.game().outcome() {
            Outcome::Lost => self.game_over_ui(ui, rect, false),
            Outcome::Won => self.game_over_ui(ui, rect, true),
            _ => {}
        }
    }

    fn paint_cluster_outline(&self, painter: &egui::Painter, rect: Rect, scale: f32) {
        let rows = self.session.game().clearing_rows();
        let stroke = Stroke::new(1.5, Color32::from_rgb(0, 255, 255));
        let edge = |a: Pos2, b: Pos2| {
            painter.line_segment(
                [
                    rect.min + a.to_vec2() * scale,
                    rect.min + b.to_vec2() * scale,
                ],
                stroke,
            );
        };
        for (y, &row) in rows.iter().enumerate() {
            if row == 0 {
                continue;
            }
            let above = if y > 0 { rows[y - 1] } else { 0 };
            let below = rows.get(y + 1).copied().unwrap_or(0);
            let (yt, yb) = (y as f32, y as f32 + 1.0);
            // Vertical edges: where a run starts or ends.
            let starts = row & !(row << 1);
            let ends = row & !(row >> 1);
            for (bits, offset) in [(starts, 0.0), (ends, 1.0)] {
                let mut bits = bits;
                while bits != 0 {
                    let x = bits.trailing_zeros() as f32 + offset;
                    bits &= bits - 1;
                    edge(pos2(x, yt), pos2(x, yb));
                }
            }
            // Horizontal edges: grains with no cluster grain above / below.
            for (bits, yy) in [(row & !above, yt), (row & !below, yb)] {
                let mut bits = bits;
                while bits != 0 {
                    let x0 = bits.trailing_zeros();
                    let run = (bits >> x0).trailing_ones();
                    bits &= !(((1u128 << run) - 1) << x0);
                    edge(pos2(x0 as f32, yy), pos2((x0 + run) as f32, yy));
                }
            }
        }
    }
}

impl PlaytestView for SandPlaytest {
    fn session(&self) -> Option<&dyn tessera_host::Session> {
        Some(&self.session)
    }

    fn session_mut(&mut self) -> Option<&mut dyn tessera_host::Session> {
        Some(&mut self.session)
    }

    fn take_request(&mut self) -> Option<ViewRequest> {
        self.request.take()
    }

    fn ui(&mut self, ui: &mut egui::Ui, cx: &mut PlaytestContext<'_>) {
        let now = ui.input(|i| i.time);
        let dt = ui.input(|i| i.stable_dt).clamp(0.0, 0.1);
        if dt > 0.0 {
            self.fps = self.fps * 0.9 + 0.1 / dt;
        }
        self.advance_time(f64::from(dt));
        self.collect_events(cx, now);
        self.update_effects(dt, now);
        // The side panel beside the board where the room allows it (the
        // slots narrowed down to their least first), else below it in a
        // scrolled column (a narrow docked playtest): never past the
        // panel's edge, where it would be clipped.
        let room = ui.available_size();
        let count = self.session.game().slots().len();
        // Beside when the narrowest slots and the board at a pixel a grain
        // leave the panel its width; the slots then widen into the room.
        let column = slots::row_width(slots::MIN_SLOT_WIDTH, count)
            .max(self.session.game().grid().width() as f32);
        let beside = room.x >= column + PANEL_GAP + PANEL_WIDTH;
        let slot_width = slots::slot_width(room.x - PANEL_WIDTH - PANEL_GAP, count);
        let below_board = vec2(0.0, 130.0);
        if beside {
            ui.horizontal_top(|ui| {
                ui.vertical(|ui| {
                    let reserve = vec2(PANEL_WIDTH + 2.0 * PANEL_GAP, 0.0) + below_board;
                    self.board_ui(ui, now, room - reserve);
                    ui.add_space(8.0);
                    self.slots_ui(ui, now, slot_width);
                });
                ui.vertical(|ui| self.panel_ui(ui));
            });
        } else {
            let slot_width = slots::slot_width(room.x, count);
            egui::ScrollArea::vertical()
                .id_salt("sand column")
                .show(ui, |ui| {
                    self.board_ui(ui, now, room - below_board);
                    ui.add_space(8.0);
                    self.slots_ui(ui, now, slot_width);
                    ui.separator();
                    self.panel_ui(ui);
                });
        }
        ui.ctx().request_repaint();
    }
}
