//! The tetris level editor: board size, garbage painted with the mouse
//! (colour picker, fill a row leaving a hole, random garbage rows with one
//! hole each), goal, piece sequence (palette, reorder, remove), rotation
//! system and randomizer overrides, validation as you edit, and
//! "Solvable?": the engine's search in a background thread, cancellable,
//! with progress and a solution to step through.

use std::path::Path;
use tessera_host::worker::{Job, Poll};
use tessera_ui::text::count;

use egui::{Color32, Rect, RichText, Sense, Stroke, StrokeKind, vec2};

use tessera_host::level::{Diagnostic, LevelFile, parse_level};
use tessera_host::ron_diff::edited_text;
use tessera_tetris::level::{Goal, TetrisLevel, garbage_colour};
use tessera_tetris::movegen::Placement;
use tessera_tetris::piece::{PieceKind, RotationSystem};
use tessera_tetris::solver::{Report, Verdict, solve};

use super::playtest::cell_colour;

#[path = "level_editor_feed.rs"]
mod feed;
use tessera_ui::{LevelEditor, PlaytestContext};

/// A search running in the background (dropping it cancels it).
type Search = Job<Report>;

/// How a click on the board paints.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tool {
    /// One cell.
    Paint,
    /// The whole row in the colour, the clicked cell left as the hole.
    FillRow,
}

/// The drag payload of a sequence piece: its index.
struct SequenceSlot(usize);

/// One edit of the piece sequence.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum SequenceEdit {
    /// Take the piece at `from` out and put it in at `to`.
    Move { from: usize, to: usize },
    /// Remove the piece.
    Remove(usize),
}

impl SequenceEdit {
    fn apply(self, pieces: &mut Vec<char>) {
        match self {
            SequenceEdit::Move { from, to } if from < pieces.len() && to < pieces.len() => {
                let piece = pieces.remove(from);
                pieces.insert(to, piece);
            }
            SequenceEdit::Remove(i) if i < pieces.len() => {
                pieces.remove(i);
            }
            _ => {}
        }
    }
}

/// The visual editor for one tetris level.
pub struct TetrisLevelEditor {
    /// The level file (the one validation path finds its script by it).
    path: std::path::PathBuf,
    level: TetrisLevel,
    /// The level of the text last loaded (edits are patched into it).
    saved: TetrisLevel,
    /// The document's text as last loaded.
    source: String,
    /// The one validation path's findings (`tessera check`'s, with the
    /// script: a feed level's difficulty must be one of it), for the level
    /// they were worked out for.
    checked: Option<(TetrisLevel, Vec<Diagnostic>)>,
    /// The difficulties the project's script defines, read once.
    difficulties: Option<Vec<String>>,
    /// The colour letter painted (`.` erases).
    pub brush: char,
    /// The paint tool.
    pub tool: Tool,
    noise: u64,
    search: Option<Search>,
    verdict: Option<Report>,
    /// Which step of the found solution the preview shows (0 = start).
    pub solution_step: usize,
    board_rect: Rect,
    cell_px: f32,
}

impl TetrisLevelEditor {
    /// Opens a level's RON text.
    pub fn open(path: &Path, text: &str) -> anyhow::Result<Self> {
        let mut editor = Self::new(TetrisLevel::default());
        editor.path = path.to_path_buf();
        editor.read(text)?;
        Ok(editor)
    }

    /// Reads the level from `text`, which later edits are patched into.
    fn read(&mut self, text: &str) -> anyhow::Result<()> {
        let level = parse_level::<TetrisLevel>(text, &self.path).map_err(anyhow::Error::from)?;
        if level != self.level {
            self.edited();
        }
        self.saved = level.clone();
        self.level = level;
        self.source = text.to_string();
        Ok(())
    }

    /// An editor on `level`.
    pub fn new(level: TetrisLevel) -> Self {
        Self {
            path: std::path::PathBuf::from("level.ron"),
            saved: level.clone(),
            level,
            source: String::new(),
            checked: None,
            difficulties: None,
            brush: 'G',
            tool: Tool::Paint,
            noise: 0x2545_f491_4f6c_dd1d,
            search: None,
            verdict: None,
            solution_step: 0,
            board_rect: Rect::NOTHING,
            cell_px: 22.0,
        }
    }

    /// The level as edited.
    pub fn level(&self) -> &TetrisLevel {
        &self.level
    }

    /// Where the board was last drawn.
    pub fn board_rect(&self) -> Rect {
        self.board_rect
    }

    /// Centre of visible cell (x, y) on screen.
    pub fn cell_centre(&self, x: usize, y: usize) -> egui::Pos2 {
        self.board_rect.min
            + vec2(
                (x as f32 + 0.5) * self.cell_px,
                (y as f32 + 0.5) * self.cell_px,
            )
    }

    /// The latest search result.
    pub fn verdict(&self) -> Option<&Report> {
        self.verdict.as_ref()
    }

    fn edited(&mut self) {
        self.verdict = None;
        self.solution_step = 0;
        // Dropping the job cancels the search of the old level.
        self.search = None;
    }

    /// The visible rows as a grid of letters, top first.
    fn grid(&self) -> Vec<Vec<char>> {
        let (w, h) = (self.level.columns as usize, self.level.rows as usize);
        let mut grid = vec![vec!['.'; w]; h];
        let offset = h.saturating_sub(self.level.garbage.len());
        for (i, row) in self.level.garbage.iter().enumerate() {
            for (x, c) in row.chars().enumerate() {
                if let Some(cell) = grid.get_mut(offset + i).and_then(|r| r.get_mut(x)) {
                    *cell = c;
                }
            }
        }
        grid
    }

    /// Stores a grid back as bottom-aligned garbage rows (leading empty
    /// rows dropped).
    fn set_grid(&mut self, grid: Vec<Vec<char>>) {
        let first = grid
            .iter()
            .position(|r| r.iter().any(|&c| c != '.'))
            .unwrap_or(grid.len());
        let rows: Vec<String> = grid[first..].iter().map(|r| r.iter().collect()).collect();
        if rows != self.level.garbage {
            self.level.garbage = rows;
            self.edited();
        }
    }

    /// Paints visible cell (x, y) with the brush and tool.
    pub fn paint(&mut self, x: usize, y: usize) {
        let mut grid = self.grid();
        let Some(row) = grid.get_mut(y) else { return };
        if x >= row.len() {
            return;
        }
        match self.tool {
            Tool::Paint => row[x] = self.brush,
            Tool::FillRow => {
                let fill = if self.brush == '.' { 'G' } else { self.brush };
                for (i, cell) in row.iter_mut().enumerate() {
                    *cell = if i == x { '.' } else { fill };
                }
            }
        }
        self.set_grid(grid);
    }

    fn random(&mut self, below: usize) -> usize {
        // xorshift64*: the editor's own generator, never the game's.
        self.noise ^= self.noise >> 12;
        self.noise ^= self.noise << 25;
        self.noise ^= self.noise >> 27;
        ((self.noise.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) % below.max(1) as u64) as usize
    }

    /// Pushes a random garbage row with one hole in at the bottom.
    pub fn add_random_row(&mut self) {
        let mut grid = self.grid();
        let w = self.level.columns as usize;
        if grid.is_empty() {
            return;
        }
        let hole = self.random(w);
        grid.remove(0);
        grid.push((0..w).map(|x| if x == hole { '.' } else { 'G' }).collect());
        self.set_grid(grid);
    }

    fn size_ui(&mut self, ui: &mut egui::Ui) {
        let before = self.level.clone();
        ui.horizontal(|ui| {
            let label = ui.label("title");
            ui.text_edit_singleline(&mut self.level.title)
                .labelled_by(label.id);
        });
        ui.horizontal(|ui| {
            let label = ui.label("rows");
            ui.add(egui::DragValue::new(&mut self.level.rows).range(4..=64))
                .labelled_by(label.id);
            let label = ui.label("columns");
            ui.add(egui::DragValue::new(&mut self.level.columns).range(4..=64))
                .labelled_by(label.id);
            let label = ui.label("hidden rows");
            ui.add(egui::DragValue::new(&mut self.level.hidden_rows).range(0..=8))
                .labelled_by(label.id);
        });
        if self.level.rows != before.rows || self.level.columns != before.columns {
            // Keep the garbage bottom-aligned and cut to the new size.
            let (w, h) = (self.level.columns as usize, self.level.rows as usize);
            let mut rows: Vec<String> = before
                .garbage
                .iter()
                .map(|r| {
                    let mut cells: Vec<char> = r.chars().take(w).collect();
                    cells.resize(w, '.');
                    cells.into_iter().collect()
                })
                .collect();
            if rows.len() > h {
                rows.drain(..rows.len() - h);
            }
            self.level.garbage = rows;
        }
        if self.level != before {
            self.edited();
        }
    }

    fn palette_ui(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            ui.label("colour");
            for letter in ['.', 'G', 'I', 'O', 'T', 'S', 'Z', 'J', 'L'] {
                let colour = cell_colour(garbage_colour(letter).unwrap_or(0));
                let text = RichText::new(if letter == '.' {
                    "erase".to_string()
                } else {
                    letter.to_string()
                })
                .color(if letter == '.' {
                    Color32::WHITE
                } else {
                    Color32::BLACK
                })
                .background_color(colour);
                if ui.selectable_label(self.brush == letter, text).clicked() {
                    self.brush = letter;
                }
            }
        });
        ui.horizontal(|ui| {
            ui.radio_value(&mut self.tool, Tool::Paint, "paint cells");
            ui.radio_value(
                &mut self.tool,
                Tool::FillRow,
                "fill row (clicked cell stays a hole)",
            );
            if ui.button("random garbage row").clicked() {
                self.add_random_row();
            }
            if ui.button("clear board").clicked() {
                self.level.garbage.clear();
                self.edited();
            }
        });
    }

    fn board_ui(&mut self, ui: &mut egui::Ui) {
        let grid = self.grid();
        let (w, h) = (self.level.columns as usize, self.level.rows as usize);
        self.cell_px = (420.0 / h.max(1) as f32).clamp(8.0, 24.0);
        let cell = self.cell_px;
        let (response, painter) = ui.allocate_painter(
            vec2(w as f32 * cell, h as f32 * cell),
            Sense::click_and_drag(),
        );
        response.widget_info(|| {
            egui::WidgetInfo::labeled(egui::Role::Image, true, "tetris level board")
        });
        let rect = response.rect;
        self.board_rect = rect;
        painter.rect_filled(rect, 0.0, Color32::from_gray(16));
        // The solution preview: the board after the chosen step.
        let preview = self.solution_preview();
        for (y, row) in grid.iter().enumerate() {
            for (x, &c) in row.iter().enumerate() {
                let code = preview
                    .as_ref()
                    .map_or_else(|| garbage_colour(c).unwrap_or(0), |p| p[y * w + x]);
                let r = Rect::from_min_size(
                    rect.min + vec2(x as f32 * cell, y as f32 * cell),
                    vec2(cell, cell),
                );
                if code != 0 {
                    painter.rect_filled(r.shrink(1.0), 2.0, cell_colour(code));
                } else {
                    painter.rect_stroke(
                        r,
                        0.0,
                        Stroke::new(0.5, Color32::from_gray(40)),
                        StrokeKind::Inside,
                    );
                }
            }
        }
        painter.rect_stroke(
            rect,
            0.0,
            Stroke::new(1.0, Color32::from_gray(90)),
            StrokeKind::Outside,
        );
        if preview.is_none()
            && (response.clicked() || response.dragged())
            && let Some(pos) = response.interact_pointer_pos()
        {
            let x = ((pos.x - rect.min.x) / cell).floor();
            let y = ((pos.y - rect.min.y) / cell).floor();
            if x >= 0.0 && y >= 0.0 {
                self.paint(x as usize, y as usize);
            }
        }
    }

    /// Colour codes of the visible board after `solution_step` placements
    /// of the found solution (None when there is nothing to step through).
    fn solution_preview(&self) -> Option<Vec<u8>> {
        let Some(Report {
            verdict: Verdict::Solvable(solution),
            ..
        }) = &self.verdict
        else {
            return None;
        };
        if self.solution_step == 0 {
            return None;
        }
        let (board, mut colours) = self.level.starting_cells();
        let mut board = board;
        let w = board.width();
        let h = board.height();
        for placement in solution.iter().take(self.solution_step) {
            board.place(placement.kind, placement.state, placement.x, placement.y);
            for (x, y) in placement.cells() {
                if x >= 0 && y >= 0 {
                    colours[y as usize * w + x as usize] = placement.kind.colour();
                }
            }
            let cleared = board.clear_full_rows();
            let mut write = h;
            for read in (0..h).rev() {
                if cleared >> read & 1 == 1 {
                    continue;
                }
                write -= 1;
                colours.copy_within(read * w..(read + 1) * w, write * w);
            }
            colours[..write * w].fill(0);
        }
        let hidden = self.level.hidden_rows as usize;
        Some(colours[hidden * w..].to_vec())
    }

    /// A goal game's goal (its label before its picker).
    fn goal_ui(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            let goal_label = ui.label("goal");
            egui::ComboBox::from_id_salt("goal kind")
                .selected_text(feed::goal_name(&self.level.goal))
                .show_ui(ui, |ui| {
                    for goal in [
                        Goal::Marathon,
                        Goal::Score(1000),
                        Goal::Lines(10),
                        Goal::ClearGarbage,
                        Goal::Survive(50),
                    ] {
                        let name = feed::goal_name(&goal);
                        let same = std::mem::discriminant(&goal)
                            == std::mem::discriminant(&self.level.goal);
                        if ui.selectable_label(same, name).clicked() && !same {
                            self.level.goal = goal;
                        }
                    }
                })
                .response
                .labelled_by(goal_label.id);
            match &mut self.level.goal {
                Goal::Score(n) | Goal::Lines(n) | Goal::Survive(n) => {
                    ui.add(egui::DragValue::new(n).range(1..=1_000_000))
                        .labelled_by(goal_label.id);
                }
                Goal::Marathon | Goal::ClearGarbage => {}
            }
        });
    }

    /// The rotation and randomizer overrides (every level kind has them).
    fn overrides_ui(&mut self, ui: &mut egui::Ui) {
        let before = self.level.clone();
        ui.horizontal(|ui| {
            let mut rotation = self.level.rotation.clone();
            let label = ui.label("rotation system");
            egui::ComboBox::from_id_salt("rotation system")
                .selected_text(rotation.clone().unwrap_or_else(|| "script".into()))
                .show_ui(ui, |ui| {
                    ui.selectable_value(&mut rotation, None, "script");
                    ui.selectable_value(&mut rotation, Some("cycle".into()), "cycle");
                    ui.selectable_value(&mut rotation, Some("srs".into()), "srs");
                })
                .response
                .labelled_by(label.id);
            self.level.rotation = rotation;
            let mut randomizer = self.level.randomizer.clone();
            let label = ui.label("randomizer");
            egui::ComboBox::from_id_salt("randomizer override")
                .selected_text(randomizer.clone().unwrap_or_else(|| "script".into()))
                .show_ui(ui, |ui| {
                    ui.selectable_value(&mut randomizer, None, "script");
                    ui.selectable_value(&mut randomizer, Some("bag".into()), "bag");
                    ui.selectable_value(&mut randomizer, Some("uniform".into()), "uniform");
                })
                .response
                .labelled_by(label.id);
            self.level.randomizer = randomizer;
        });
        if self.level != before {
            self.edited();
        }
    }

    fn sequence_ui(&mut self, ui: &mut egui::Ui) {
        let mut pieces: Vec<char> = self
            .level
            .sequence
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect();
        let before = pieces.clone();
        ui.horizontal_wrapped(|ui| {
            ui.label("add to sequence");
            // The seven, then the pentomino specials feed mode also uses.
            for kind in PieceKind::EVERY {
                if kind == PieceKind::F {
                    ui.separator();
                }
                let text = RichText::new(kind.letter().to_string())
                    .color(Color32::BLACK)
                    .background_color(cell_colour(kind.colour()));
                if ui
                    .button(text)
                    .on_hover_text(format!("append {kind}"))
                    .clicked()
                {
                    pieces.push(kind.letter());
                }
            }
            if ui.button("clear").clicked() {
                pieces.clear();
            }
        });
        ui.horizontal_wrapped(|ui| {
            ui.label(if pieces.is_empty() {
                "sequence: (random)"
            } else {
                "sequence (drag a piece to move it):"
            });
            let mut action: Option<SequenceEdit> = None;
            for (i, &c) in pieces.iter().enumerate() {
                let group = ui.group(|ui| {
                    let colour = cell_colour(garbage_colour(c).unwrap_or(0));
                    let handle = egui::Id::unique(("tetris sequence piece", i));
                    ui.dnd_drag_source(handle, SequenceSlot(i), |ui| {
                        ui.label(
                            RichText::new(format!(" {c} "))
                                .color(Color32::BLACK)
                                .background_color(colour),
                        )
                        .on_hover_text("drag onto another piece to move it there")
                    });
                    if ui.small_button("<").on_hover_text("move earlier").clicked() {
                        action = Some(SequenceEdit::Move {
                            from: i,
                            to: i.saturating_sub(1),
                        });
                    }
                    if ui.small_button(">").on_hover_text("move later").clicked() {
                        action = Some(SequenceEdit::Move { from: i, to: i + 1 });
                    }
                    if ui.small_button("x").on_hover_text("remove").clicked() {
                        action = Some(SequenceEdit::Remove(i));
                    }
                });
                let target = &group.response;
                if target.dnd_hover_payload::<SequenceSlot>().is_some() {
                    // Where the dragged piece will land.
                    let r = target.rect;
                    ui.painter().vline(
                        r.left() - 2.0,
                        r.y_range(),
                        egui::Stroke::new(3.0, Color32::LIGHT_BLUE),
                    );
                }
                if let Some(from) = target.dnd_release_payload::<SequenceSlot>() {
                    action = Some(SequenceEdit::Move {
                        from: from.0,
                        to: i,
                    });
                }
            }
            if let Some(edit) = action {
                edit.apply(&mut pieces);
            }
        });
        if pieces != before {
            self.level.sequence = pieces.into_iter().collect();
            self.edited();
        }
    }

    /// Starts the search in the background (cancelling one under way).
    pub fn start_search(&mut self) {
        self.edited();
        let level = self.level.clone();
        let rotation = level.rotation_override().unwrap_or(RotationSystem::Cycle);
        self.search = Some(Job::spawn("tetris puzzle search", move |control| {
            solve(&level, rotation, &mut |n| {
                control.add_nodes(n.saturating_sub(control.nodes()));
                !control.is_cancelled()
            })
        }));
    }

    /// Waits for a search under way (tests).
    pub fn wait_for_search(&mut self) {
        if let Some(mut search) = self.search.take() {
            self.verdict = search.wait(std::time::Duration::from_secs(600));
        }
    }

    fn solve_ui(&mut self, ui: &mut egui::Ui, playable: bool) {
        if let Some(search) = self.search.as_mut() {
            match search.poll() {
                Poll::Done(report) => {
                    self.verdict = Some(report);
                    self.search = None;
                }
                // The search thread died: say nothing was decided.
                Poll::Lost => self.search = None,
                Poll::Running => {
                    ui.horizontal(|ui| {
                        ui.spinner();
                        ui.label(format!(
                            "searching... {}",
                            count(search.control().nodes(), "position")
                        ));
                        if ui.button("Cancel").clicked() {
                            search.cancel();
                        }
                    });
                    ui.ctx().request_repaint();
                    return;
                }
            }
        }
        ui.horizontal(|ui| {
            let button = ui.add_enabled(playable, egui::Button::new("Solvable?"));
            if button.clicked() {
                self.start_search();
            }
            if let Some(report) = &self.verdict {
                let text = match &report.verdict {
                    Verdict::Solvable(s) => format!(
                        "solvable: {} ({} searched)",
                        count(s.len(), "piece"),
                        count(report.nodes, "position")
                    ),
                    Verdict::Unsolvable => {
                        format!(
                            "not solvable ({} searched)",
                            count(report.nodes, "position")
                        )
                    }
                    Verdict::NotAPuzzle(why) => format!("cannot search: {why}"),
                    Verdict::Cancelled => "cancelled".to_string(),
                };
                ui.label(text);
            }
        });
        let steps = match &self.verdict {
            Some(Report {
                verdict: Verdict::Solvable(s),
                ..
            }) => s.clone(),
            _ => Vec::new(),
        };
        if !steps.is_empty() {
            ui.horizontal(|ui| {
                ui.label("solution");
                if ui.button("<").clicked() {
                    self.solution_step = self.solution_step.saturating_sub(1);
                }
                ui.label(format!("step {} / {}", self.solution_step, steps.len()));
                if ui.button(">").clicked() {
                    self.solution_step = (self.solution_step + 1).min(steps.len());
                }
            });
            if let Some(p) = self.solution_step.checked_sub(1).and_then(|i| steps.get(i)) {
                ui.label(describe(p));
            }
        }
    }
}

fn describe(p: &Placement) -> String {
    format!(
        "{} rotation {} at column {}, row {}",
        p.kind,
        p.state,
        p.left_column(),
        p.top_row()
    )
}

impl LevelEditor for TetrisLevelEditor {
    fn ui(&mut self, ui: &mut egui::Ui, cx: &mut PlaytestContext<'_>) {
        // Goal, sequence and "Solvable?" sit under the board: on a short
        // window they scroll into view (mouse drags stay with the board
        // and the sequence: egui scrolls by dragging only on touch).
        egui::ScrollArea::vertical()
            .id_salt("tetris level editor")
            .auto_shrink(false)
            .show(ui, |ui| self.contents_ui(ui, cx));
    }

    fn to_ron(&self) -> anyhow::Result<String> {
        let mut level = self.level.clone();
        level.version = TetrisLevel::VERSION;
        Ok(edited_text(&self.source, &self.saved, &level)?)
    }

    fn is_dirty(&self) -> bool {
        self.level != self.saved
    }

    fn load(&mut self, text: &str) -> anyhow::Result<()> {
        self.read(text)
    }
}

impl TetrisLevelEditor {
    /// Everything the editor shows, top to bottom.
    fn contents_ui(&mut self, ui: &mut egui::Ui, cx: &mut PlaytestContext<'_>) {
        self.size_ui(ui);
        ui.separator();
        self.palette_ui(ui);
        self.board_ui(ui);
        ui.separator();
        self.kind_ui(ui, cx);
        self.overrides_ui(ui);
        self.sequence_ui(ui);
        ui.separator();
        self.refresh_findings(ui, cx);
        let playable = self.findings_ui(ui);
        self.solve_ui(ui, playable);
    }
}

#[cfg(test)]
mod sequence_tests {
    use std::path::Path;

    use egui_kittest::kittest::Queryable;

    use super::*;

    #[test]
    fn dragging_a_sequence_piece_onto_another_moves_it_there() {
        let text = "(\n  version: 1,\n  rows: 10,\n  columns: 10,\n  sequence: \"TIO\",\n)\n";
        let editor = TetrisLevelEditor::open(Path::new("levels/tetris/seq.ron"), text).unwrap();
        let dir = tessera_ui_testkit::temp_project(&[]);
        let project = tessera_host::project::Project::open(dir.path(), crate::registry()).unwrap();
        let mut harness = tessera_ui_testkit::Editing::new(editor, project)
            .in_folder(dir)
            .harness(egui::vec2(1000.0, 1000.0));
        harness.run_steps(2);
        // Drag the O (third) onto the T (first).
        let from = harness.get_by_label(" O ").rect().center();
        let to = harness.get_by_label(" T ").rect().center();
        harness.hover_at(from);
        harness.step();
        harness.drag_at(from);
        harness.step();
        for i in 1..=8 {
            harness.hover_at(from + (to - from) * (i as f32 / 8.0));
            harness.step();
        }
        harness.drop_at(to);
        harness.run_steps(3);
        assert_eq!(harness.state().editor.level().sequence, "OTI");
        assert!(harness.state().editor.is_dirty());
        // The buttons still work: move the I earlier.
        let mut pieces: Vec<char> = "OTI".chars().collect();
        SequenceEdit::Move { from: 2, to: 1 }.apply(&mut pieces);
        assert_eq!(pieces, vec!['O', 'I', 'T']);
        SequenceEdit::Move { from: 0, to: 9 }.apply(&mut pieces);
        assert_eq!(pieces, vec!['O', 'I', 'T'], "out of range: nothing");
    }
}
