//! The visual editors' undo stack (`tessera_ui::UndoStack`), tested here
//! because tessera-ui has no test binary of its own (one test binary per
//! crate, and the editor is the stack's main user).

use tessera_ui::UndoStack;

#[test]
fn undo_and_redo_walk_the_states_and_a_new_edit_drops_the_redo() {
    let mut stack = UndoStack::default();
    stack.record(1, false);
    stack.record(2, false);
    // Current state 3.
    assert_eq!(stack.undo(3), Some(2));
    assert_eq!(stack.undo(2), Some(1));
    assert_eq!(stack.undo(1), None);
    assert_eq!(stack.redo(1), Some(2));
    stack.record(2, false);
    assert!(!stack.can_redo(), "a new edit clears the redo list");
    assert_eq!(stack.redo(5), None);
    assert_eq!(stack.undo(5), Some(2));
}

#[test]
fn one_gesture_is_one_step() {
    let mut stack = UndoStack::default();
    stack.record("a", true);
    stack.record("b", true);
    stack.record("c", true);
    stack.end_gesture();
    stack.record("d", true);
    assert_eq!(stack.undo("e"), Some("d"));
    assert_eq!(stack.undo("d"), Some("a"), "the stroke a..c was one step");
    assert!(!stack.can_undo());
}

#[test]
fn the_oldest_states_go_past_the_depth() {
    let mut stack = UndoStack::new(2);
    for state in 0..5 {
        stack.record(state, false);
    }
    assert_eq!(stack.undo(5), Some(4));
    assert_eq!(stack.undo(4), Some(3));
    assert_eq!(stack.undo(3), None);
}
