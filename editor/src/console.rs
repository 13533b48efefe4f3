//! The console panel: reload results, errors, script `print` output and
//! game messages. An error naming `file:line` opens that file at that line
//! when clicked.

use std::path::PathBuf;

use std::sync::Arc;

use egui::{Color32, CursorIcon, Galley, RichText, Sense};

use crate::playtest::ConsoleLine;

/// Oldest lines are dropped beyond this, so a chatty script cannot grow
/// the editor without bound.
const MAX_LINES: usize = 5_000;

/// A place in a source file named by a console line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceLocation {
    /// The file as written in the line (usually relative to the project).
    pub path: PathBuf,
    /// 1-based line.
    pub line: u32,
    /// 1-based column, when the line gives one.
    pub column: Option<u32>,
}

/// The console's lines.
#[derive(Debug, Default)]
pub struct Console {
    lines: Vec<ConsoleLine>,
    /// The editor's last own line and when it was said: one change can
    /// reach the shell twice (a rename seen by the file operation and by
    /// the disk watcher; a save and its reload), and is reported once.
    last_said: Option<(String, std::time::Instant)>,
    /// The height of each line wrapped to `wrapped_width`, for the first
    /// `row_heights.len()` lines: lines wrap to the panel's width, and only
    /// the visible ones are drawn, so each line is laid out once per width
    /// rather than every frame.
    row_heights: Vec<f32>,
    /// The width `row_heights` were laid out at.
    wrapped_width: f32,
}

/// How long the same line from the editor itself counts as a repeat.
const REPEAT_WINDOW: std::time::Duration = std::time::Duration::from_secs(2);

impl Console {
    /// Adds a line.
    pub fn push(&mut self, line: ConsoleLine) {
        if line.text.contains('\n') {
            let is_error = line.is_error;
            self.lines.extend(line.text.lines().map(|text| ConsoleLine {
                text: text.to_string(),
                is_error,
            }));
        } else {
            self.lines.push(line);
        }
        self.drop_oldest();
    }

    /// Drops the oldest lines beyond the cap (and their row heights).
    fn drop_oldest(&mut self) {
        if self.lines.len() > MAX_LINES {
            let excess = self.lines.len() - MAX_LINES;
            self.lines.drain(..excess);
            let laid_out = excess.min(self.row_heights.len());
            self.row_heights.drain(..laid_out);
        }
    }

    /// Splits multi-line entries into one line each (every row has the same
    /// height, which lets the view lay out only what is visible), then drops
    /// the oldest lines beyond the cap.
    fn trim(&mut self) {
        if self.lines.iter().any(|l| l.text.contains('\n')) {
            self.lines = std::mem::take(&mut self.lines)
                .into_iter()
                .flat_map(|line| {
                    let is_error = line.is_error;
                    line.text
                        .lines()
                        .map(|text| ConsoleLine {
                            text: text.to_string(),
                            is_error,
                        })
                        .collect::<Vec<_>>()
                })
                .collect();
            // Rows moved: lay them out again.
            self.row_heights.clear();
        }
        self.drop_oldest();
    }

    /// Adds an informational line.
    pub fn info(&mut self, text: impl Into<String>) {
        self.say(text.into(), false);
    }

    /// Adds an error line.
    pub fn error(&mut self, text: impl Into<String>) {
        self.say(text.into(), true);
    }

    /// The editor's own line, unless it just said the same (see
    /// `last_said`) and nothing came after it. Game lines (`buffer_mut`)
    /// are never merged: two equal moves are two lines.
    fn say(&mut self, text: String, is_error: bool) {
        let now = std::time::Instant::now();
        if let Some((last, at)) = &self.last_said
            && *last == text
            && now.duration_since(*at) < REPEAT_WINDOW
            && self.lines.last().is_some_and(|line| line.text == text)
        {
            return;
        }
        self.last_said = Some((text.clone(), now));
        self.push(ConsoleLine { text, is_error });
    }

    /// `file` now loads: its earlier error lines are marked fixed and stop
    /// counting in the error badge.
    pub fn resolve(&mut self, file: &str) {
        let named = [format!(" {file}:"), format!(" {file} ")];
        for line in &mut self.lines {
            if line.is_error && named.iter().any(|n| line.text.contains(n.as_str())) {
                line.is_error = false;
                line.text = format!("(fixed) {}", line.text);
            }
        }
        self.row_heights.clear();
    }

    /// Every line, oldest first.
    pub fn lines(&self) -> &[ConsoleLine] {
        &self.lines
    }

    /// The buffer handed to game views, which append to it directly.
    pub fn buffer_mut(&mut self) -> &mut Vec<ConsoleLine> {
        &mut self.lines
    }

    /// Draws the panel; returns the location of a clicked error line.
    pub fn ui(&mut self, ui: &mut egui::Ui) -> Option<SourceLocation> {
        // Views append through `buffer_mut`, which cannot trim by itself.
        self.trim();
        let errors = self.lines.iter().filter(|l| l.is_error).count();
        ui.horizontal(|ui| {
            ui.strong("Console");
            if errors > 0 {
                ui.label(
                    RichText::new(tessera_ui::text::count(errors, "error")).color(error_color(ui)),
                );
            }
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                if ui.small_button("Clear").clicked() {
                    self.lines.clear();
                    self.row_heights.clear();
                }
            });
        });
        ui.separator();

        let mut clicked = None;
        if self.lines.is_empty() {
            ui.weak("Reload results, script errors and print output appear here.");
            return None;
        }
        // Lines wrap to the panel's width (never cut off at the right);
        // only the visible ones are drawn, so a chatty script's thousands
        // of lines cost nothing while scrolled away.
        egui::ScrollArea::vertical()
            .id_salt("console")
            .auto_shrink(false)
            // Follows new lines while scrolled to the end, and stays put
            // while the user reads older ones.
            .stick_to_bottom(true)
            .show_viewport(ui, |ui, viewport| {
                clicked = self.rows_ui(ui, viewport);
            });
        clicked
    }

    /// Lays out the lines not measured yet at the current width, then
    /// draws the ones inside `viewport`; returns a clicked line's location.
    fn rows_ui(&mut self, ui: &mut egui::Ui, viewport: egui::Rect) -> Option<SourceLocation> {
        let width = ui.available_width();
        if (width - self.wrapped_width).abs() > 0.5 || self.row_heights.len() > self.lines.len() {
            self.row_heights.clear();
            self.wrapped_width = width;
        }
        for line in &self.lines[self.row_heights.len()..] {
            let height = wrapped(ui, line, width).size().y;
            self.row_heights.push(height);
        }
        let gap = ui.spacing().item_spacing.y;
        let origin = ui.max_rect().min;
        let total: f32 = self.row_heights.iter().map(|h| h + gap).sum();
        ui.set_min_height(total);
        let mut clicked = None;
        let mut top = 0.0;
        for (line, &height) in self.lines.iter().zip(&self.row_heights) {
            let bottom = top + height;
            if bottom >= viewport.min.y && top <= viewport.max.y {
                let rect = egui::Rect::from_min_size(
                    origin + egui::vec2(0.0, top),
                    egui::vec2(width, height),
                );
                let galley = wrapped(ui, line, width);
                let row = egui::UiBuilder::new()
                    .max_rect(rect)
                    .layout(egui::Layout::top_down(egui::Align::Min));
                ui.scope_builder(row, |ui| {
                    if let Some(location) = line_ui(ui, line, galley) {
                        clicked = Some(location);
                    }
                });
            }
            top = bottom + gap;
        }
        clicked
    }
}

/// `line` laid out as the console draws it, wrapped at `width` (egui caches
/// the layout, so asking again for a visible row is cheap).
fn wrapped(ui: &egui::Ui, line: &ConsoleLine, width: f32) -> Arc<Galley> {
    let color = if line.is_error {
        error_color(ui)
    } else {
        ui.visuals().text_color()
    };
    let text = RichText::new(&line.text).monospace().color(color);
    egui::WidgetText::from(text).into_galley(
        ui,
        Some(egui::TextWrapMode::Wrap),
        width,
        egui::TextStyle::Monospace,
    )
}

/// One console line, drawn from its wrapped layout; returns its location
/// when clicked.
fn line_ui(ui: &mut egui::Ui, line: &ConsoleLine, galley: Arc<Galley>) -> Option<SourceLocation> {
    let location = line.is_error.then(|| find_location(&line.text)).flatten();
    let Some(location) = location else {
        ui.add(egui::Label::new(galley));
        return None;
    };
    let color = error_color(ui);
    let response = ui
        .add(egui::Label::new(galley).sense(Sense::click()))
        .on_hover_cursor(CursorIcon::PointingHand)
        .on_hover_text(format!(
            "Open {} at line {}",
            location.path.display(),
            location.line
        ));
    if response.hovered() {
        ui.painter().hline(
            response.rect.x_range(),
            response.rect.bottom(),
            (1.0, color),
        );
    }
    response.clicked().then_some(location)
}

fn error_color(ui: &egui::Ui) -> Color32 {
    if ui.visuals().dark_mode {
        Color32::from_rgb(0xFF, 0x6B, 0x6B)
    } else {
        Color32::from_rgb(0xC0, 0x1C, 0x28)
    }
}

/// The first `path:line[:col]` in `text` whose path has a source
/// extension, e.g. in `error scripts/sand.lua:3: ...`.
pub fn find_location(text: &str) -> Option<SourceLocation> {
    for word in text.split_whitespace() {
        let mut parts = word.split(':');
        let Some(path) = parts.next() else { continue };
        let is_source = [".lua", ".luau", ".ron"]
            .iter()
            .any(|ext| path.ends_with(ext));
        if !is_source {
            continue;
        }
        let Some(Ok(line)) = parts.next().map(str::parse::<u32>) else {
            continue;
        };
        let column = parts.next().and_then(|c| c.parse::<u32>().ok());
        return Some(SourceLocation {
            path: PathBuf::from(path),
            line,
            column,
        });
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locations_are_found_in_reload_errors() {
        let found = find_location(
            "error scripts/sand.lua:3: attempt to call a nil value (keeping last good version)",
        );
        assert_eq!(
            found,
            Some(SourceLocation {
                path: "scripts/sand.lua".into(),
                line: 3,
                column: None
            })
        );
        let ron = find_location("error levels/sand/a.ron:12:7: unknown field `sise`");
        assert_eq!(ron.map(|l| (l.line, l.column)), Some((12, Some(7))));
        assert_eq!(find_location("error scripts/sand.lua: cannot read"), None);
        assert_eq!(find_location("reloaded scripts/sand.lua"), None);
    }

    #[test]
    fn console_keeps_a_bounded_history() {
        let mut console = Console::default();
        for i in 0..MAX_LINES + 10 {
            console.info(format!("line {i}"));
        }
        assert_eq!(console.lines().len(), MAX_LINES);
        assert_eq!(console.lines()[0].text, "line 10");
    }

    #[test]
    fn multi_line_entries_become_one_row_each() {
        let mut console = Console::default();
        console.error("error scripts/a.lua:2: boom\nstack traceback:\n  here");
        let texts: Vec<_> = console
            .lines()
            .iter()
            .map(|l| (l.text.as_str(), l.is_error))
            .collect();
        assert_eq!(
            texts,
            [
                ("error scripts/a.lua:2: boom", true),
                ("stack traceback:", true),
                ("  here", true)
            ]
        );
    }

    /// The README's tour, walked quickly: the script saved (reloaded), a
    /// game's lines and a saved test, the script saved again within two
    /// seconds: its second reload is a new event after other lines, and is
    /// said (it was merged with the first, and the console said nothing).
    #[test]
    fn the_same_line_after_other_lines_is_said_again() {
        let mut console = Console::default();
        console.info("reloaded scripts/sand.lua");
        console.buffer_mut().push(ConsoleLine {
            text: "saved test tests/replays/sand/my_cascade.replay.ron".into(),
            is_error: false,
        });
        console.info("reloaded scripts/sand.lua");
        let reloads = console
            .lines()
            .iter()
            .filter(|l| l.text == "reloaded scripts/sand.lua")
            .count();
        assert_eq!(reloads, 2, "{:?}", console.lines());
    }

    #[test]
    fn the_editor_says_a_change_once_but_every_game_line_shows() {
        let mut console = Console::default();
        console.info("removed levels/sand/a.ron");
        console.info("removed levels/sand/a.ron");
        console.error("error scripts/a.lua:2: boom");
        console.error("error scripts/a.lua:2: boom");
        console.buffer_mut().push(ConsoleLine {
            text: "tetris: the player gives S".into(),
            is_error: false,
        });
        console.buffer_mut().push(ConsoleLine {
            text: "tetris: the player gives S".into(),
            is_error: false,
        });
        let texts: Vec<&str> = console.lines().iter().map(|l| l.text.as_str()).collect();
        assert_eq!(
            texts,
            [
                "removed levels/sand/a.ron",
                "error scripts/a.lua:2: boom",
                "tetris: the player gives S",
                "tetris: the player gives S"
            ]
        );
    }
}
