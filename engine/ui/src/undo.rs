//! The one undo stack of the visual editors: the states a document went
//! through (the editor shell keeps the level text of each visual edit), with
//! redo, a bound on memory, and one step per gesture (a brush stroke or a
//! drag of a number is one undo, not one per frame).

/// How many states an [`UndoStack`] keeps by default.
pub const DEFAULT_DEPTH: usize = 200;

/// Past and undone states of one document.
#[derive(Debug, Clone)]
pub struct UndoStack<T> {
    undo: Vec<T>,
    redo: Vec<T>,
    depth: usize,
    /// Whether the last step was recorded during the gesture still going
    /// on (later edits of the same gesture join it).
    in_gesture: bool,
}

impl<T> Default for UndoStack<T> {
    fn default() -> Self {
        Self::new(DEFAULT_DEPTH)
    }
}

impl<T> UndoStack<T> {
    /// An empty stack keeping at most `depth` past states (the oldest go
    /// first).
    pub fn new(depth: usize) -> Self {
        Self {
            undo: Vec::new(),
            redo: Vec::new(),
            depth: depth.max(1),
            in_gesture: false,
        }
    }

    /// An edit left `before` behind. `gesture` says whether the pointer is
    /// still held: further edits while it stays held join this step, so
    /// undo takes back the whole stroke. A new edit clears the redo list.
    pub fn record(&mut self, before: T, gesture: bool) {
        self.redo.clear();
        if gesture && self.in_gesture {
            return;
        }
        self.in_gesture = gesture;
        self.undo.push(before);
        if self.undo.len() > self.depth {
            self.undo.remove(0);
        }
    }

    /// The pointer was released: the next edit starts a new step.
    pub fn end_gesture(&mut self) {
        self.in_gesture = false;
    }

    /// The state before the last step, trading it for `current` (which
    /// redo gives back); `None` when there is nothing to undo.
    pub fn undo(&mut self, current: T) -> Option<T> {
        let previous = self.undo.pop()?;
        self.redo.push(current);
        self.in_gesture = false;
        Some(previous)
    }

    /// The state the last undo left, trading it for `current`; `None` when
    /// there is nothing to redo.
    pub fn redo(&mut self, current: T) -> Option<T> {
        let next = self.redo.pop()?;
        self.undo.push(current);
        self.in_gesture = false;
        Some(next)
    }

    /// Whether there is a step to undo.
    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    /// Whether there is a step to redo.
    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// Forgets every step (the document was replaced from disk).
    pub fn clear(&mut self) {
        self.undo.clear();
        self.redo.clear();
        self.in_gesture = false;
    }
}
