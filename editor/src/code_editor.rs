//! A source editor: an egui `TextEdit` with syntax colouring and a
//! line-number gutter, able to jump to a line (from a console error).

use egui::text::{CCursor, CCursorRange, LayoutJob};
use egui::{Align, Align2, Id, Sense, TextEdit, TextStyle, Vec2};

use crate::highlight::{self, Language, Palette};

/// Where the text cursor is, 1-based, for the status bar.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CursorPosition {
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
}

/// Editor state for one open file's text (the text itself lives in the
/// document).
pub struct CodeEditor {
    id: Id,
    /// The editor's accessible name (screen readers, UI tests).
    name: String,
    language: Language,
    /// The last colouring, keyed by a hash of everything it depends on, so
    /// an idle frame does not re-scan the file.
    cached: Option<(u64, LayoutJob)>,
    /// A line to move the cursor to and scroll into view on the next frame.
    pending_jump: Option<u32>,
    /// Forget the undo history on the next frame (the buffer was discarded
    /// or replaced from disk, so old edits must not come back).
    reset_history: bool,
    cursor: CursorPosition,
    /// Lines with an error or warning, marked in the gutter and
    /// underlined.
    markers: Vec<Marker>,
    /// Where the line numbers' right edge was drawn last frame (screen x).
    gutter_right: f32,
    /// How far the text was scrolled sideways last frame (points).
    sideways: f32,
    /// Scroll back to the left edge on the next frame (every line fits).
    reset_sideways: bool,
}

/// A line marked in the gutter: an error or warning and what it says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Marker {
    /// The 1-based line.
    pub line: usize,
    /// An error rather than a warning (the dot's colour).
    pub is_error: bool,
    /// The message shown when the pointer rests on the dot.
    pub message: String,
}

impl CodeEditor {
    /// An editor for text in `language`, with a widget id unique to the
    /// file and an accessible `name`.
    pub fn new(id: Id, language: Language, name: impl Into<String>) -> Self {
        Self {
            id,
            name: name.into(),
            language,
            cached: None,
            pending_jump: None,
            reset_history: true,
            cursor: CursorPosition { line: 1, column: 1 },
            markers: Vec::new(),
            gutter_right: 0.0,
            sideways: 0.0,
            reset_sideways: false,
        }
    }

    /// The `TextEdit`'s widget id.
    pub fn id(&self) -> Id {
        self.id
    }

    /// Moves the cursor to the start of `line` (1-based) on the next frame.
    pub fn jump_to_line(&mut self, line: u32) {
        self.pending_jump = Some(line);
    }

    /// Drops the undo history on the next frame: after Discard or a reload
    /// from disk, Ctrl+Z must not bring the thrown-away text back.
    pub fn forget_history(&mut self) {
        self.reset_history = true;
    }

    /// Marks `lines` in the gutter (a dot whose tooltip is the message)
    /// and under the text.
    pub fn set_markers(&mut self, lines: Vec<Marker>) {
        self.markers = lines;
    }

    /// The screen x of the line numbers' right edge on the last frame: it
    /// stays put when the text scrolls sideways.
    pub fn gutter_right(&self) -> f32 {
        self.gutter_right
    }

    /// How far the text was scrolled sideways on the last frame (points;
    /// 0 when every line fits).
    pub fn sideways_scroll(&self) -> f32 {
        self.sideways
    }

    /// Where the cursor was on the last frame.
    pub fn cursor(&self) -> CursorPosition {
        self.cursor
    }

    /// Draws the editor filling the available space; returns whether the
    /// text changed.
    pub fn ui(&mut self, ui: &mut egui::Ui, text: &mut String) -> bool {
        let font = TextStyle::Monospace.resolve(ui.style());
        let palette = Palette::for_theme(ui.visuals().dark_mode, ui.visuals().text_color());
        let line_count = text.split('\n').count();
        let digits = line_count.to_string().len().max(3);
        let char_width = ui.fonts_mut(|f| f.glyph_width(&font, '0'));
        let gutter_width = digits as f32 * char_width + 16.0;
        let gutter_color = ui.visuals().weak_text_color();
        let current_color = ui.visuals().strong_text_color();
        let language = self.language;
        let id = self.id;
        let cached = &mut self.cached;
        let mut layouter = |ui: &egui::Ui, buf: &dyn egui::TextBuffer, _wrap: f32| {
            let key = cache_key(buf.as_str(), language, &font, ui.visuals().dark_mode);
            let job = match cached {
                Some((k, job)) if *k == key => job.clone(),
                _ => {
                    let job = highlight::layout_job(buf.as_str(), language, font.clone(), &palette);
                    *cached = Some((key, job.clone()));
                    job
                }
            };
            ui.fonts_mut(|f| f.layout_job(job))
        };

        if std::mem::take(&mut self.reset_history) {
            let mut state = egui::text_edit::TextEditState::load(ui.ctx(), id).unwrap_or_default();
            state.clear_undoer();
            state.store(ui.ctx(), id);
        }
        let mut changed = false;
        let markers = &self.markers;
        let mut gutter_right = self.gutter_right;
        let pending_jump = self.pending_jump.take();
        let mut cursor = self.cursor;
        let mut scroll_area = egui::ScrollArea::both()
            .id_salt(id.with("scroll"))
            .auto_shrink(false);
        if std::mem::take(&mut self.reset_sideways) {
            scroll_area = scroll_area.horizontal_scroll_offset(0.0);
        }
        let scrolled = scroll_area.show(ui, |ui| {
            ui.horizontal_top(|ui| {
                ui.spacing_mut().item_spacing.x = 0.0;
                let (gutter, _) =
                    ui.allocate_exact_size(Vec2::new(gutter_width, 0.0), Sense::hover());
                let available = ui.available_size();
                let output = TextEdit::multiline(text)
                    .id(id)
                    .code_editor()
                    .lock_focus(true)
                    .frame(egui::Frame::NONE)
                    .margin(Vec2::new(8.0, 4.0))
                    .desired_width(f32::INFINITY)
                    .min_size(available)
                    .layouter(&mut layouter)
                    .show(ui);
                changed = output.response.changed();
                let _ = output
                    .response
                    .response
                    .clone()
                    .accessible_name(self.name.clone());

                if let Some(range) = output.cursor_range {
                    cursor = position_of(output.galley.text(), range.primary.index.0);
                }

                // Number each paragraph's first row, aligned with the
                // galley's own rows so wrapped or tall lines never drift.
                // The gutter is pinned to the visible left edge: a
                // background hides text scrolled under it.
                let painter = ui.painter();
                let clip = ui.clip_rect();
                let left = gutter.left().max(clip.left());
                let pinned = egui::Rect::from_min_max(
                    egui::pos2(left, clip.top()),
                    egui::pos2(left + gutter_width, clip.bottom()),
                );
                if left > gutter.left() {
                    painter.rect_filled(pinned, 0.0, ui.visuals().extreme_bg_color);
                }
                gutter_right = pinned.right();
                let error_colour = ui.visuals().error_fg_color;
                let warn_colour = ui.visuals().warn_fg_color;
                let mut line = 1usize;
                let mut starts_line = true;
                for row in &output.galley.rows {
                    let y = output.galley_pos.y + row.pos.y;
                    if starts_line && y + row.rect().height() >= clip.top() && y <= clip.bottom() {
                        let color = if line == cursor.line {
                            current_color
                        } else {
                            gutter_color
                        };
                        painter.text(
                            egui::pos2(pinned.right() - 6.0, y),
                            Align2::RIGHT_TOP,
                            line.to_string(),
                            font.clone(),
                            color,
                        );
                        if let Some(marker) = markers.iter().find(|m| m.line == line) {
                            let colour = if marker.is_error {
                                error_colour
                            } else {
                                warn_colour
                            };
                            let h = row.rect().height();
                            let centre = egui::pos2(pinned.left() + 5.0, y + h * 0.5);
                            painter.circle_filled(centre, 3.5, colour);
                            // The dot alone is a small target: the whole
                            // line number beside it shows the message.
                            let hover = egui::Rect::from_min_max(
                                egui::pos2(pinned.left(), y),
                                egui::pos2(pinned.right(), y + h),
                            );
                            let response =
                                ui.interact(hover, id.with(("marker", line)), Sense::hover());
                            response.widget_info(|| {
                                egui::WidgetInfo::labeled(
                                    egui::Role::Image,
                                    true,
                                    format!("line {line} marker"),
                                )
                            });
                            response.on_hover_text(&marker.message);
                            let x0 = output.galley_pos.x + row.rect().left();
                            let x1 = output.galley_pos.x
                                + row.rect().right().max(row.rect().left() + 12.0);
                            painter.line_segment(
                                [egui::pos2(x0, y + h - 1.0), egui::pos2(x1, y + h - 1.0)],
                                egui::Stroke::new(1.5, colour),
                            );
                        }
                    }
                    if row.ends_with_newline {
                        line += 1;
                        starts_line = true;
                    } else {
                        starts_line = false;
                    }
                }

                if let Some(target) = pending_jump {
                    let index = char_index_of_line(output.galley.text(), target);
                    let ccursor = CCursor::new(index);
                    let mut state = output.state.clone();
                    state
                        .cursor
                        .set_char_range(Some(CCursorRange::one(ccursor)));
                    state.store(ui.ctx(), id);
                    ui.memory_mut(|m| m.request_focus(id));
                    let rect = output
                        .galley
                        .pos_from_cursor(ccursor)
                        .translate(output.galley_pos.to_vec2());
                    ui.scroll_to_rect(rect.expand2(Vec2::new(0.0, 40.0)), Some(Align::Center));
                    cursor = position_of(output.galley.text(), index);
                }
            });
        });
        self.cursor = cursor;
        self.gutter_right = gutter_right;
        self.sideways = scrolled.state.unclamped_offset().x;
        // Once the long line is gone every line fits, yet the scroll area
        // keeps its old sideways offset (it only clamps while it can
        // scroll): put the text back at the left edge on the next frame.
        let fits = scrolled.content_size.x <= scrolled.inner_rect.width() + 0.5;
        self.reset_sideways = fits && self.sideways > 0.0;
        if self.reset_sideways {
            ui.ctx().request_repaint();
        }
        changed
    }
}

fn cache_key(text: &str, language: Language, font: &egui::FontId, dark: bool) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::hash::DefaultHasher::new();
    text.hash(&mut hasher);
    language.hash(&mut hasher);
    font.hash(&mut hasher);
    dark.hash(&mut hasher);
    hasher.finish()
}

/// Character index of the start of 1-based `line` (the end of the text when
/// the file is shorter).
pub fn char_index_of_line(text: &str, line: u32) -> usize {
    let mut remaining = line.saturating_sub(1);
    if remaining == 0 {
        return 0;
    }
    for (index, c) in text.chars().enumerate() {
        if c == '\n' {
            remaining -= 1;
            if remaining == 0 {
                return index + 1;
            }
        }
    }
    text.chars().count()
}

/// 1-based line and column of character index `index`.
pub fn position_of(text: &str, index: usize) -> CursorPosition {
    let mut line = 1;
    let mut column = 1;
    for c in text.chars().take(index) {
        if c == '\n' {
            line += 1;
            column = 1;
        } else {
            column += 1;
        }
    }
    CursorPosition { line, column }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_starts_and_positions_agree() {
        let text = "ab\ncé\n\nlast";
        assert_eq!(char_index_of_line(text, 1), 0);
        assert_eq!(char_index_of_line(text, 2), 3);
        assert_eq!(char_index_of_line(text, 4), 7);
        assert_eq!(char_index_of_line(text, 99), 11);
        assert_eq!(position_of(text, 5), CursorPosition { line: 2, column: 3 });
        assert_eq!(position_of(text, 7), CursorPosition { line: 4, column: 1 });
    }
}
