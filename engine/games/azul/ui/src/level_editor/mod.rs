//! The Azul scenario editor: paint walls and pattern lines, fill factories,
//! the centre and floors with a colour brush; scores, whose turn, round,
//! seats and the goal. The engine's one position check runs live (the tile
//! count per colour against the script's `tiles_per_colour` included), and
//! "Best achievable" plays the scenario with the hard AI's search on the
//! host's `Job` (progress, cancel). The drawing is in `draw.rs`.

mod draw;

use std::path::Path;

use egui::{Color32, RichText};
use tessera_azul::achieve::{Achievement, achieve};
use tessera_azul::rules::{COLOURS, FLOOR_SLOTS, LINES, Rules, wall_colour};
use tessera_azul::scenario::{
    BoardSetup, Goal, LETTERS, Position, PositionCheck, check_position, colour_of,
};
use tessera_azul::settings::{self, ColourStyle};
use tessera_azul::{Azul, AzulLevel};
use tessera_host::level::{Diagnostic, LevelFile};
use tessera_host::ron_diff::edited_text;
use tessera_host::worker::{Job, Poll};
use tessera_host::{Game, GameError, Seat};

use tessera_ui::{LevelEditor, PlaytestContext};

const CELL: f32 = 28.0;

/// What the brush puts down.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Brush {
    /// A tile of this colour (0..5).
    Colour(usize),
    /// Takes tiles away.
    Erase,
}

/// The editor's state for one Azul level file.
pub struct AzulLevelEditor {
    level: AzulLevel,
    /// The document's text as last loaded (edits are patched into it) and
    /// the level it reads as.
    source: String,
    saved: AzulLevel,
    brush: Brush,
    /// The script's numbers and palette, read once.
    rules: Option<Rules>,
    palette: Vec<ColourStyle>,
    ai_levels: Vec<String>,
    script_error: Option<String>,
    check: Option<PositionCheck>,
    job: Option<Job<Result<Achievement, GameError>>>,
    best: Option<Result<Achievement, String>>,
    seed: u64,
    /// The widest board and factory frames drawn so far, to cut their rows.
    board_width: f32,
    factory_width: f32,
}

/// Opens an Azul level's text in the scenario editor.
pub fn open(_path: &Path, text: &str) -> anyhow::Result<Box<dyn LevelEditor>> {
    Ok(Box::new(AzulLevelEditor::from_text(text)?))
}

/// Lays `count` framed items out in rows that fit the panel. egui's
/// wrapped layouts cannot wrap a frame (its size is known only after its
/// contents are laid out), so the rows are cut by the widest item so far.
fn rows_of_frames(
    ui: &mut egui::Ui,
    count: usize,
    widest: &mut f32,
    mut item: impl FnMut(&mut egui::Ui, usize) -> f32,
) {
    let gap = ui.spacing().item_spacing.x;
    let per_row = (((ui.available_width() + gap) / (*widest + gap)).floor() as usize).max(1);
    let mut first = 0;
    while first < count {
        let last = (first + per_row).min(count);
        ui.horizontal_top(|ui| {
            for i in first..last {
                *widest = widest.max(item(ui, i));
            }
        });
        first = last;
    }
}

fn tile_colour(palette: &[ColourStyle], k: usize) -> Color32 {
    let [r, g, b] = palette.get(k).map_or([128; 3], |c| c.rgb);
    Color32::from_rgb(r, g, b)
}

impl AzulLevelEditor {
    /// The editor on a level's RON text (errors when it does not parse).
    pub fn from_text(text: &str) -> anyhow::Result<Self> {
        let level = Self::parse(text)?;
        let editor = Self {
            source: text.to_string(),
            saved: level.clone(),
            level,
            brush: Brush::Colour(0),
            rules: None,
            palette: Vec::new(),
            ai_levels: vec![
                "easy".into(),
                "medium".into(),
                "hard".into(),
                "expert".into(),
            ],
            script_error: None,
            check: None,
            job: None,
            best: None,
            seed: 1,
            board_width: 360.0,
            factory_width: 200.0,
        };
        Ok(editor)
    }

    fn parse(text: &str) -> anyhow::Result<AzulLevel> {
        tessera_host::level::parse_level(text, Path::new("level.ron"))
            .map_err(|e| anyhow::anyhow!("not an Azul level: {e}"))
    }

    /// The level as edited.
    pub fn level(&self) -> &AzulLevel {
        &self.level
    }

    /// The last position check (tile counts, findings).
    pub fn check(&self) -> Option<&PositionCheck> {
        self.check.as_ref()
    }

    /// The last "best achievable" result.
    pub fn best(&self) -> Option<&Result<Achievement, String>> {
        self.best.as_ref()
    }

    /// Whether "best achievable" is running.
    pub fn is_searching(&self) -> bool {
        self.job.is_some()
    }

    fn read_script(&mut self, cx: &mut PlaytestContext<'_>) {
        if self.rules.is_some() || self.script_error.is_some() {
            return;
        }
        let path = cx.project.game_script_path(Azul::ID);
        match cx.project.script(&path) {
            Ok(live) => {
                let current = live.current();
                match (
                    settings::rules(&current),
                    settings::colours(&current),
                    settings::ai_levels(&current),
                ) {
                    (Ok(r), Ok(p), Ok(l)) => {
                        self.rules = Some(r);
                        self.palette = p;
                        self.ai_levels = l;
                    }
                    (Err(e), _, _) | (_, Err(e), _) | (_, _, Err(e)) => {
                        self.script_error = Some(e.to_string());
                    }
                }
            }
            Err(e) => self.script_error = Some(e.to_string()),
        }
        if self.palette.is_empty() {
            self.palette = (0..COLOURS)
                .map(|k| ColourStyle {
                    name: tessera_azul::rules::COLOUR_NAMES[k].into(),
                    letter: LETTERS[k],
                    rgb: [128, 128, 128],
                })
                .collect();
        }
    }

    fn recheck(&mut self) {
        let mut rules = self.rules.unwrap_or_default();
        rules.grey_wall = self.grey();
        self.check = self
            .level
            .position
            .as_ref()
            .map(|p| check_position(p, Some(&rules), None));
    }

    /// Whether the level plays on the grey wall: its own switch; a
    /// scenario that says nothing plays the printed wall, a standard game
    /// the script's `grey_wall`.
    pub fn grey(&self) -> bool {
        match self.level.grey_wall {
            Some(grey) => grey,
            None if self.level.position.is_some() => false,
            None => self.rules.is_some_and(|r| r.grey_wall),
        }
    }

    /// Every finding about the level as a game start would see it (the
    /// level's diagnosis plus the position with the script's numbers).
    pub fn findings(&self) -> Vec<Diagnostic> {
        let mut out = self.level.diagnose();
        if let Some(check) = &self.check {
            for f in &check.findings {
                if !out.contains(f) {
                    out.push(f.clone());
                }
            }
        }
        out
    }

    /// Adds a starting position to a level that has none.
    pub fn add_position(&mut self) {
        let mut position = Position::default();
        let players = self.level.seats.len().clamp(2, 4);
        position.boards = vec![BoardSetup::default(); players];
        let factories = self.rules.unwrap_or_default().factories_for(players);
        position.factories = vec![String::new(); factories];
        self.level.position = Some(position);
        if self.level.seats.is_empty() {
            self.level.seats = vec![
                Seat::Human,
                Seat::Ai {
                    level: "hard".into(),
                },
            ];
        }
        if self.level.goal == Goal::None {
            self.level.goal = Goal::RoundScore { seat: 1, points: 5 };
        }
    }

    /// Sets the number of players (2 to 4): boards, seats and factories
    /// follow.
    pub fn set_players(&mut self, players: usize) {
        let players = players.clamp(2, 4);
        let factories = self.rules.unwrap_or_default().factories_for(players);
        if let Some(p) = &mut self.level.position {
            p.boards.resize(players, BoardSetup::default());
            p.factories.resize(factories, String::new());
            if usize::from(p.to_move) > players {
                p.to_move = 1;
            }
        }
        if !self.level.seats.is_empty() {
            self.level.seats.resize(
                players,
                Seat::Ai {
                    level: "hard".into(),
                },
            );
        }
    }

    /// Paints wall cell (`row`, `column`) of board `p` (0-based): a colour
    /// brush puts the cell's tile there, the eraser takes it away.
    pub fn paint_wall(&mut self, p: usize, row: usize, column: usize) {
        let brush = self.brush;
        let grey = self.grey();
        let Some(board) = self.board_mut(p) else {
            return;
        };
        while board.wall.len() < LINES {
            board.wall.push(".....".into());
        }
        let mut cells: Vec<char> = board.wall[row].chars().collect();
        cells.resize(LINES, '.');
        cells[column] = match brush {
            Brush::Erase => '.',
            Brush::Colour(_) if cells[column] != '.' => '.',
            Brush::Colour(k) if grey => LETTERS[k % COLOURS],
            Brush::Colour(_) => LETTERS[wall_colour(row, column)],
        };
        board.wall[row] = cells.into_iter().collect();
    }

    /// Paints pattern line `row` of board `p` up to `count` tiles (the
    /// clicked cell, counted from the right) with the brush's colour.
    pub fn paint_line(&mut self, p: usize, row: usize, count: usize) {
        let brush = self.brush;
        let Some(board) = self.board_mut(p) else {
            return;
        };
        board
            .lines
            .resize(LINES.max(board.lines.len()), String::new());
        board.lines[row] = match brush {
            Brush::Erase => String::new(),
            Brush::Colour(k) => std::iter::repeat_n(LETTERS[k], count.min(row + 1)).collect(),
        };
    }

    /// Adds a tile of the brush's colour to board `p`'s floor (the eraser
    /// takes the last one).
    pub fn paint_floor(&mut self, p: usize) {
        let brush = self.brush;
        let Some(board) = self.board_mut(p) else {
            return;
        };
        match brush {
            Brush::Erase => {
                board.floor.pop();
            }
            Brush::Colour(k) => {
                if board.floor.chars().count() + usize::from(board.marker) < FLOOR_SLOTS {
                    board.floor.push(LETTERS[k]);
                }
            }
        }
    }

    /// Adds a tile of the brush's colour to factory `f` (0-based; `None`
    /// is the centre), or takes one away with the eraser.
    pub fn paint_source(&mut self, f: Option<usize>) {
        let brush = self.brush;
        let per_factory = usize::from(self.rules.unwrap_or_default().tiles_per_factory);
        let Some(p) = &mut self.level.position else {
            return;
        };
        let (text, limit) = match f {
            Some(f) => {
                if p.factories.len() <= f {
                    p.factories.resize(f + 1, String::new());
                }
                (&mut p.factories[f], per_factory)
            }
            None => (&mut p.centre, usize::MAX),
        };
        match brush {
            Brush::Erase => {
                text.pop();
            }
            Brush::Colour(k) => {
                if text.chars().count() < limit {
                    text.push(LETTERS[k]);
                }
            }
        }
    }

    /// Chooses the brush.
    pub fn set_brush(&mut self, brush: Brush) {
        self.brush = brush;
    }

    fn board_mut(&mut self, p: usize) -> Option<&mut BoardSetup> {
        self.level.position.as_mut()?.boards.get_mut(p)
    }

    /// Starts "best achievable" on the host's job.
    pub fn start_best(&mut self, cx: &mut PlaytestContext<'_>) {
        let path = cx.project.game_script_path(Azul::ID);
        let script = match cx.project.script(&path) {
            Ok(s) => s,
            Err(e) => {
                self.best = Some(Err(e.to_string()));
                return;
            }
        };
        let level = self.level.clone();
        let seed = self.seed;
        self.best = None;
        self.job = Some(Job::spawn("azul best achievable", move |control| {
            achieve(&level, script, seed, control)
        }));
    }

    /// Cancels "best achievable".
    pub fn cancel_best(&mut self) {
        if let Some(job) = self.job.take() {
            job.cancel();
            self.best = Some(Err("cancelled".into()));
        }
    }

    fn poll_best(&mut self) {
        let Some(job) = &mut self.job else {
            return;
        };
        match job.poll() {
            Poll::Running => {}
            Poll::Done(result) => {
                self.job = None;
                self.best = Some(result.map_err(|e| e.to_string()));
            }
            Poll::Lost => {
                self.job = None;
                self.best = Some(Err("the search stopped without a result".into()));
            }
        }
    }
}

impl LevelEditor for AzulLevelEditor {
    fn ui(&mut self, ui: &mut egui::Ui, cx: &mut PlaytestContext<'_>) {
        self.read_script(cx);
        self.poll_best();
        egui::ScrollArea::vertical()
            .id_salt("azul scenario")
            .show(ui, |ui| {
                ui.heading("Azul scenario");
                ui.horizontal(|ui| {
                    let label = ui.label("Title");
                    ui.text_edit_singleline(&mut self.level.title)
                        .labelled_by(label.id);
                });
                // A box of a few lines across the panel's width: a
                // description is sentences, wrapped inside the panel.
                let label = ui.label("Description");
                ui.add(
                    egui::TextEdit::multiline(&mut self.level.description)
                        .desired_rows(3)
                        .desired_width(f32::INFINITY),
                )
                .labelled_by(label.id);
                if let Some(e) = &self.script_error {
                    ui.colored_label(Color32::from_rgb(0xC0, 0x39, 0x2B), e);
                }
                if self.level.position.is_none() {
                    ui.label(
                        "This level deals a fresh game. Add a starting position to make it a \
                         scenario.",
                    );
                    if ui.button("Add a starting position").clicked() {
                        self.add_position();
                    }
                    return;
                }
                self.seats_and_goal(ui);
                ui.separator();
                self.brush_bar(ui);
                let players = self.level.position.as_ref().map_or(0, |p| p.boards.len());
                let mut widest = self.board_width;
                rows_of_frames(ui, players, &mut widest, |ui, p| self.board_ui(ui, p));
                self.board_width = widest;
                ui.separator();
                let (factories, centre) = self
                    .level
                    .position
                    .as_ref()
                    .map(|p| (p.factories.clone(), p.centre.clone()))
                    .unwrap_or_default();
                let wanted = self.rules.unwrap_or_default().factories_for(players);
                let mut widest = self.factory_width;
                rows_of_frames(ui, wanted.max(factories.len()), &mut widest, |ui, f| {
                    let text = factories.get(f).cloned().unwrap_or_default();
                    self.source_ui(ui, Some(f), &text)
                });
                self.factory_width = widest;
                self.source_ui(ui, None, &centre);
                ui.label(
                    RichText::new(
                        "Bag: every tile not placed (unless the file lists one); click a tile \
                         to take it away, + adds the brush's colour.",
                    )
                    .small(),
                );
                ui.separator();
                self.recheck();
                self.counts_ui(ui);
                let findings = self.findings();
                if findings.is_empty() {
                    ui.colored_label(Color32::from_rgb(0x27, 0xAE, 0x60), "Position OK");
                }
                for d in &findings {
                    ui.colored_label(
                        if d.is_error() {
                            Color32::from_rgb(0xC0, 0x39, 0x2B)
                        } else {
                            Color32::from_rgb(0xE6, 0x7E, 0x22)
                        },
                        &d.message,
                    );
                }
                ui.separator();
                self.best_ui(ui, cx);
            });
    }

    fn to_ron(&self) -> anyhow::Result<String> {
        Ok(edited_text(&self.source, &self.saved, &self.level)?)
    }

    fn is_dirty(&self) -> bool {
        self.level != self.saved
    }

    fn load(&mut self, text: &str) -> anyhow::Result<()> {
        let level = Self::parse(text)?;
        if level != self.level {
            self.level = level.clone();
            self.recheck();
            self.best = None;
        }
        self.saved = level;
        self.source = text.to_string();
        Ok(())
    }
}

impl Drop for AzulLevelEditor {
    fn drop(&mut self) {
        if let Some(job) = self.job.take() {
            job.cancel();
        }
    }
}
