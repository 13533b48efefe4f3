//! Who the keyboard's shortcuts belong to.

/// Whether a text field (the code editor, a seed or name field, a number
/// being typed into a drag value) has the keyboard: its Ctrl+Z is then its
/// own text undo, not a move taken back.
///
/// A focused widget that is not a text field does not count: a game board
/// takes egui's focus on a click so its arrows are moves rather than focus
/// navigation (the Tetris board), and Ctrl+Z must still undo the move.
/// `Context::egui_wants_keyboard_input` says yes for any focused widget, so
/// the shell's undo keys must not ask it.
pub fn text_field_has_keyboard(ctx: &egui::Context) -> bool {
    ctx.text_edit_focused()
}
