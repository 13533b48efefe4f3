//! Tool windows (the Tetris AI log, the Balance panels, the Tests panel):
//! floating windows that never cover the editor's menu bar, open inside
//! the area the shell gives them, remember where they were (egui keeps a
//! window's place by its title) and close with Escape, front one first.
//!
//! The shell says where tool windows may go with [`set_tool_area`] each
//! frame (the window below its menu bar); games open them with
//! [`tool_window`] without knowing the shell's layout.

use egui::{Id, Order, Rect};

fn area_key() -> Id {
    Id::unique("tessera tool window area")
}

/// Where tool windows may go this frame (the shell calls it after drawing
/// its menu bar).
pub fn set_tool_area(ctx: &egui::Context, area: Rect) {
    ctx.data_mut(|d| d.insert_temp(area_key(), area));
}

/// Where tool windows may go: the shell's area, or the whole window when
/// no shell set one (a game's view alone in a test).
pub fn tool_area(ctx: &egui::Context) -> Rect {
    ctx.data(|d| d.get_temp(area_key()))
        .unwrap_or_else(|| ctx.content_rect())
}

/// Shows a tool window titled `title` while `*open`, kept inside
/// [`tool_area`]. Its × button and Escape (when it is the front window)
/// set `*open` to false. `default_size` is its first size.
pub fn tool_window<R>(
    ctx: &egui::Context,
    title: &str,
    open: &mut bool,
    default_size: egui::Vec2,
    add_contents: impl FnOnce(&mut egui::Ui) -> R,
) -> Option<R> {
    if !*open {
        return None;
    }
    let area = tool_area(ctx);
    let id = Id::unique(title);
    // In front: nothing covers the middle of where it was last frame. One
    // Escape closes one window (the first in front takes the key).
    let in_front = ctx.memory(|m| m.area_rect(id)).is_some_and(|r| {
        ctx.layer_id_at(r.center()) == Some(egui::LayerId::new(Order::Middle, id))
    });
    if in_front && ctx.input_mut(|i| i.consume_key(egui::Modifiers::NONE, egui::Key::Escape)) {
        *open = false;
        return None;
    }
    let size = default_size.min(area.size());
    egui::Window::new(title)
        .id(id)
        .open(open)
        .constrain_to(area)
        .default_pos(area.center() - size / 2.0)
        .default_size(size)
        .resizable(true)
        .show(ctx, add_contents)
        .and_then(|shown| shown.inner)
}
