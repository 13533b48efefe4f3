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
        let line_count = text.split('\n').count();
        let digits = line_count.to_string().len().max(3);
        let char_width = ui.fonts_mut(|f| f.glyph_width(&font, '0'));
        let gutter_width = digits as f32 * char_width + 16.0;
        if std::mem::take(&mut self.reset_history) {
            let mut state =
                egui::text_edit::TextEditState::load(ui.ctx(), self.id).unwrap_or_default();
            state.clear_undoer();
            state.store(ui.ctx(), self.id);
        }
        let mut changed = false;
        let pending_jump = self.pending_jump.take();
        // egui's scroll area clamps its offset to the content every frame,
        // so once a long line is gone the text is back at the left edge.
        let scrolled = egui::ScrollArea::both()
            .id_salt(self.id.with("scroll"))
            .auto_shrink(false)
            .show(ui, |ui| {
                ui.horizontal_top(|ui| {
                    ui.spacing_mut().item_spacing.x = 0.0;
                    let (gutter, _) =
                        ui.allocate_exact_size(Vec2::new(gutter_width, 0.0), Sense::hover());
                    let output = self.text_edit(ui, text, &font);
                    changed = output.response.changed();
                    if let Some(range) = output.cursor_range {
                        self.cursor = position_of(output.galley.text(), range.primary.index.0);
                    }
                    self.gutter_ui(ui, &output, gutter, gutter_width, &font);
                    if let Some(target) = pending_jump {
                        self.jump(ui, &output, target);
                    }
                });
            });
        self.sideways = scrolled.state.unclamped_offset().x;
        changed
    }

    /// The text itself: a code `TextEdit` filling the space beside the
    /// gutter, coloured by the cached highlighter.
    fn text_edit(
        &mut self,
        ui: &mut egui::Ui,
        text: &mut String,
        font: &egui::FontId,
    ) -> egui::text_edit::TextEditOutput {
        let palette = Palette::for_theme(ui.visuals().dark_mode, ui.visuals().text_color());
        let language = self.language;
        let cached = &mut self.cached;
        let mut layouter = |ui: &egui::Ui, buf: &dyn egui::TextBuffer, _wrap: f32| {
            let key = cache_key(buf.as_str(), language, font, ui.visuals().dark_mode);
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
        let available = ui.available_size();
        let enter = ui.memory(|m| m.has_focus(self.id))
            && ui.input(|i| i.key_pressed(egui::Key::Enter) && !i.modifiers.any());
        let mut output = TextEdit::multiline(text)
            .id(self.id)
            .code_editor()
            .lock_focus(true)
            .frame(egui::Frame::NONE)
            .margin(Vec2::new(8.0, 4.0))
            .desired_width(f32::INFINITY)
            .min_size(available)
            .layouter(&mut layouter)
            .show(ui);
        let _ = output
            .response
            .response
            .clone()
            .accessible_name(self.name.clone());
        if enter && output.response.changed() {
            self.keep_indent(ui, text, &mut output);
        }
        if output.response.response.double_clicked() {
            self.select_word(ui, text, &mut output);
        }
        output
    }

    /// After Enter: the new line starts with the indent of the line it was
    /// split from (as VS Code and Godot do), the cursor after it.
    fn keep_indent(
        &self,
        ui: &egui::Ui,
        text: &mut String,
        output: &mut egui::text_edit::TextEditOutput,
    ) {
        let Some(range) = output.state.cursor.char_range() else {
            return;
        };
        let at = range.primary.index.0;
        let indent = indent_after_newline(text, at);
        if indent.is_empty() {
            return;
        }
        let byte = text.char_indices().nth(at).map_or(text.len(), |(b, _)| b);
        text.insert_str(byte, &indent);
        let cursor = egui::text::CCursor::new(at + indent.chars().count());
        output
            .state
            .cursor
            .set_char_range(Some(egui::text::CCursorRange::one(cursor)));
        output.state.clone().store(ui.ctx(), self.id);
    }

    /// A double-click selects the one word under the pointer (letters,
    /// digits, `_`), or the one character when it is none: egui's own
    /// selection ran over punctuation and spaces (`1, 1` in a RON tuple).
    fn select_word(&self, ui: &egui::Ui, text: &str, output: &mut egui::text_edit::TextEditOutput) {
        let Some(pointer) = ui.input(|i| i.pointer.interact_pos()) else {
            return;
        };
        let at = output
            .galley
            .cursor_from_pos(pointer - output.galley_pos)
            .index
            .0;
        let words = word_at(text, at);
        let range = egui::text::CCursorRange::two(
            egui::text::CCursor::new(words.start),
            egui::text::CCursor::new(words.end),
        );
        output.state.cursor.set_char_range(Some(range));
        output.cursor_range = Some(range);
        output.state.clone().store(ui.ctx(), self.id);
    }

    /// Numbers each paragraph's first row, aligned with the galley's own
    /// rows so wrapped or tall lines never drift, and marks the lines with
    /// findings. The gutter is pinned to the visible left edge: a
    /// background hides text scrolled under it.
    fn gutter_ui(
        &mut self,
        ui: &egui::Ui,
        output: &egui::text_edit::TextEditOutput,
        gutter: egui::Rect,
        gutter_width: f32,
        font: &egui::FontId,
    ) {
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
        self.gutter_right = pinned.right();
        let gutter_color = ui.visuals().weak_text_color();
        let current_color = ui.visuals().strong_text_color();
        let mut line = 1usize;
        let mut starts_line = true;
        for row in &output.galley.rows {
            let y = output.galley_pos.y + row.pos.y;
            if starts_line && y + row.rect().height() >= clip.top() && y <= clip.bottom() {
                let color = if line == self.cursor.line {
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
                if let Some(marker) = self.markers.iter().find(|m| m.line == line) {
                    self.marker_ui(ui, output, marker, pinned, row, y);
                }
            }
            if row.ends_with_newline {
                line += 1;
                starts_line = true;
            } else {
                starts_line = false;
            }
        }
    }

    /// A finding's dot in the gutter (its message as tooltip) and its line
    /// underlined.
    fn marker_ui(
        &self,
        ui: &egui::Ui,
        output: &egui::text_edit::TextEditOutput,
        marker: &Marker,
        pinned: egui::Rect,
        row: &egui::epaint::text::PlacedRow,
        y: f32,
    ) {
        let line = marker.line;
        let colour = if marker.is_error {
            ui.visuals().error_fg_color
        } else {
            ui.visuals().warn_fg_color
        };
        let painter = ui.painter();
        let h = row.rect().height();
        let centre = egui::pos2(pinned.left() + 5.0, y + h * 0.5);
        painter.circle_filled(centre, 3.5, colour);
        // The dot alone is a small target: the whole line number beside it
        // shows the message.
        let hover = egui::Rect::from_min_max(
            egui::pos2(pinned.left(), y),
            egui::pos2(pinned.right(), y + h),
        );
        let response = ui.interact(hover, self.id.with(("marker", line)), Sense::hover());
        response.widget_info(|| {
            egui::WidgetInfo::labeled(egui::Role::Image, true, format!("line {line} marker"))
        });
        response.on_hover_text(&marker.message);
        let x0 = output.galley_pos.x + row.rect().left();
        let x1 = output.galley_pos.x + row.rect().right().max(row.rect().left() + 12.0);
        painter.line_segment(
            [egui::pos2(x0, y + h - 1.0), egui::pos2(x1, y + h - 1.0)],
            egui::Stroke::new(1.5, colour),
        );
    }

    /// Moves the cursor to the start of 1-based `target` and scrolls it
    /// into view (a console error clicked).
    fn jump(&mut self, ui: &egui::Ui, output: &egui::text_edit::TextEditOutput, target: u32) {
        let index = char_index_of_line(output.galley.text(), target);
        let ccursor = CCursor::new(index);
        let mut state = output.state.clone();
        state
            .cursor
            .set_char_range(Some(CCursorRange::one(ccursor)));
        state.store(ui.ctx(), self.id);
        ui.memory_mut(|m| m.request_focus(self.id));
        let rect = output
            .galley
            .pos_from_cursor(ccursor)
            .translate(output.galley_pos.to_vec2());
        ui.scroll_to_rect(rect.expand2(Vec2::new(0.0, 40.0)), Some(Align::Center));
        self.cursor = position_of(output.galley.text(), index);
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
/// The indent (leading spaces and tabs) of the line before the newline
/// that ends just before char index `at`; empty when there is none.
pub fn indent_after_newline(text: &str, at: usize) -> String {
    let before: Vec<char> = text.chars().take(at).collect();
    if before.last() != Some(&'\n') {
        return String::new();
    }
    let line_start = before[..before.len() - 1]
        .iter()
        .rposition(|&c| c == '\n')
        .map_or(0, |i| i + 1);
    before[line_start..before.len() - 1]
        .iter()
        .take_while(|c| **c == ' ' || **c == '\t')
        .collect()
}

/// The char range of the word around char index `at` (letters, digits
/// and `_`, as egui counts word characters); the one character at `at`
/// when it is not part of a word (or the character before, at the end of
/// a word).
pub fn word_at(text: &str, at: usize) -> std::ops::Range<usize> {
    let chars: Vec<char> = text.chars().collect();
    let is_word = |i: usize| {
        chars
            .get(i)
            .is_some_and(|&c| c.is_alphanumeric() || c == '_')
    };
    let at = if !is_word(at) && at > 0 && is_word(at - 1) {
        at - 1
    } else {
        at.min(chars.len())
    };
    if !is_word(at) {
        return at..(at + 1).min(chars.len());
    }
    let start = (0..at)
        .rev()
        .take_while(|&i| is_word(i))
        .last()
        .unwrap_or(at);
    let end = (at..chars.len())
        .take_while(|&i| is_word(i))
        .last()
        .map_or(at, |i| i + 1);
    start..end
}

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
    fn enter_keeps_the_lines_indent() {
        let text = "  local x = 1\n";
        assert_eq!(indent_after_newline(text, text.chars().count()), "  ");
        assert_eq!(indent_after_newline("\tif x then\n", 11), "\t");
        assert_eq!(indent_after_newline("x\n", 2), "");
        assert_eq!(indent_after_newline("  x", 3), "", "no newline before");
        assert_eq!(indent_after_newline("  a\n    b\n", 10), "    ");
    }

    #[test]
    fn a_word_is_letters_digits_and_underscores_only() {
        let text = "size: (1, 1, 12), my_name";
        let word = |at| {
            let r = word_at(text, at);
            text.chars()
                .skip(r.start)
                .take(r.end - r.start)
                .collect::<String>()
        };
        assert_eq!(word(7), "1", "not `1, 1`");
        assert_eq!(word(14), "12");
        assert_eq!(word(2), "size");
        assert_eq!(word(4), "size", "just after a word: that word");
        assert_eq!(word(8), "1", "just after `1`: that word, not `1, 1`");
        assert_eq!(word_at("((x", 1), 1..2, "punctuation alone");
        assert_eq!(word(20), "my_name");
        assert_eq!(word_at("", 0), 0..0);
    }

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
