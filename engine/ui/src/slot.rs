//! Fixed slots: room of a set size that its content cannot grow, so a
//! status or warning line that comes and goes, or a longer message, never
//! moves the buttons and boards around it (they stay under the pointer).

/// Draws `contents` in exactly `rect`: what does not fit is clipped, and
/// `ui` advances by `rect` whatever the content took.
pub fn in_rect<R>(
    ui: &mut egui::Ui,
    rect: egui::Rect,
    contents: impl FnOnce(&mut egui::Ui) -> R,
) -> R {
    let mut inner = ui.new_child(
        egui::UiBuilder::new()
            .max_rect(rect)
            .layout(egui::Layout::top_down(egui::Align::Min)),
    );
    inner.shrink_clip_rect(rect);
    let result = contents(&mut inner);
    ui.advance_cursor_after_rect(rect);
    result
}

/// Draws `contents` in the rest of `ui`'s room, which it cannot widen (a
/// long line is clipped rather than pushing a panel wider).
pub fn held_to_room<R>(ui: &mut egui::Ui, contents: impl FnOnce(&mut egui::Ui) -> R) -> R {
    let room = ui.available_rect_before_wrap();
    in_rect(ui, room, contents)
}

/// The height of `lines` lines of body text, as `ui` lays them out.
pub fn lines_height(ui: &egui::Ui, lines: usize) -> f32 {
    let row = ui
        .text_style_height(&egui::TextStyle::Body)
        .max(ui.spacing().interact_size.y);
    lines as f32 * (row + ui.spacing().item_spacing.y)
}

/// A slot `lines` text lines high across `ui`'s width, for status and
/// warning lines that come and go: what follows stays where it is.
pub fn line_slot<R>(
    ui: &mut egui::Ui,
    lines: usize,
    contents: impl FnOnce(&mut egui::Ui) -> R,
) -> R {
    let size = egui::vec2(ui.available_width(), lines_height(ui, lines));
    let rect = egui::Rect::from_min_size(ui.cursor().min, size);
    in_rect(ui, rect, contents)
}
