//! Showing an AI placement move by move. The engine locks an AI's `Drop`
//! at once; the view then replays the piece's input path (the engine's
//! `find_path` from where the piece stood to where it locked) over the
//! difficulty's decision time, on the board as it was before the lock.
//! This is presentation only: the game has already moved on.

use tessera_tetris::board::Board;
use tessera_tetris::movegen::{Move, Placement, find_path, turn};
use tessera_tetris::piece::{PieceKind, RotationSystem, orientation};
use tessera_tetris::{Tetris, TetrisAction};

/// The placement a `Drop` (or a log's `T r1 x3 y17`) names: rotation
/// state, leftmost column, top row.
pub fn placement_of(kind: PieceKind, rotation: u8, left: i32, top: i32) -> Placement {
    let o = orientation(kind, rotation);
    Placement {
        kind,
        state: rotation,
        x: left - i32::from(o.left),
        y: top - i32::from(o.top),
    }
}

/// The state a view keeps from its last frame, so it can show the AI's
/// move on the board the AI moved on.
#[derive(Debug, Clone)]
pub struct Before {
    /// Recorded steps at the time.
    pub steps: usize,
    /// Locked cells.
    pub board: Board,
    /// Colour codes of the locked cells, row by row.
    pub colours: Vec<u8>,
    /// The piece in play (where the AI starts from).
    pub active: Option<Placement>,
    /// The rotation system in force.
    pub rotation: RotationSystem,
    /// Feed mode: the ceiling's rows.
    pub ceiling: Option<usize>,
}

impl Before {
    /// What `game` looks like now, after `steps` recorded steps.
    pub fn of(game: &Tetris, steps: usize) -> Self {
        Self {
            steps,
            board: *game.field().board(),
            colours: game.field().colours().to_vec(),
            active: game.field().active().map(|a| a.placement()),
            rotation: game.rotation(),
            ceiling: game.feed_state().map(|f| f.ceiling),
        }
    }
}

/// An AI placement being shown.
#[derive(Debug, Clone)]
pub struct AiMove {
    /// The board before the lock (colour codes, row by row).
    pub colours: Vec<u8>,
    /// Feed mode: the ceiling before the lock (it may drop after it).
    pub ceiling: Option<usize>,
    /// Where the piece is after each input: the start, then one entry per
    /// move of the path.
    pub frames: Vec<Placement>,
    /// The inputs, in order (shown as text).
    pub path: Vec<Move>,
    /// Seconds the whole path takes.
    pub duration: f32,
    /// Seconds shown so far.
    pub elapsed: f32,
}

impl AiMove {
    /// The move `drop` made from `before`, shown over `duration` seconds;
    /// `None` when `drop` is not a `Drop` or no path reaches it (nothing
    /// to show then: the view draws the game as it is).
    pub fn new(before: &Before, drop: &TetrisAction, duration: f32) -> Option<Self> {
        let TetrisAction::Drop {
            x,
            rotation,
            y: Some(y),
        } = *drop
        else {
            return None;
        };
        let start = before.active?;
        let kind = start.kind;
        if rotation >= before.rotation.states(kind) {
            return None;
        }
        let target = placement_of(kind, rotation, x, y);
        let path = find_path(&before.board, before.rotation, (start.x, start.y), &target)?;
        let mut frames = Vec::with_capacity(path.len() + 1);
        let mut at = start;
        frames.push(at);
        for step in &path {
            at = match step {
                Move::Left => Placement { x: at.x - 1, ..at },
                Move::Right => Placement { x: at.x + 1, ..at },
                Move::Down => Placement { y: at.y + 1, ..at },
                Move::Cw | Move::Ccw => {
                    let clockwise = *step == Move::Cw;
                    let (nx, ny, state) = turn(
                        &before.board,
                        before.rotation,
                        kind,
                        at.state,
                        at.x,
                        at.y,
                        clockwise,
                    )?;
                    Placement {
                        kind,
                        state,
                        x: nx,
                        y: ny,
                    }
                }
            };
            frames.push(at);
        }
        Some(Self {
            colours: before.colours.clone(),
            ceiling: before.ceiling,
            frames,
            path,
            duration: duration.max(0.0),
            elapsed: 0.0,
        })
    }

    /// Moves the clock on by `dt` seconds.
    pub fn advance(&mut self, dt: f32) {
        self.elapsed += dt;
    }

    /// Whether the whole path has been shown.
    pub fn is_done(&self) -> bool {
        self.elapsed >= self.duration
    }

    /// How many inputs have been shown.
    pub fn shown_inputs(&self) -> usize {
        let inputs = self.frames.len().saturating_sub(1);
        if self.duration <= 0.0 {
            return inputs;
        }
        let fraction = (self.elapsed / self.duration).clamp(0.0, 1.0);
        ((fraction * inputs as f32).floor() as usize).min(inputs)
    }

    /// Where the piece is drawn now.
    pub fn current(&self) -> Placement {
        self.frames[self.shown_inputs().min(self.frames.len() - 1)]
    }

    /// Where the piece ends.
    pub fn target(&self) -> Placement {
        self.frames[self.frames.len() - 1]
    }

    /// The inputs as text (`← ← ↻ ↓×12`), repeated downs folded.
    pub fn path_text(&self) -> String {
        let mut out: Vec<String> = Vec::new();
        let mut downs = 0;
        let flush = |downs: &mut usize, out: &mut Vec<String>| {
            match *downs {
                0 => {}
                1 => out.push("↓".into()),
                n => out.push(format!("↓×{n}")),
            }
            *downs = 0;
        };
        for step in &self.path {
            if *step == Move::Down {
                downs += 1;
                continue;
            }
            flush(&mut downs, &mut out);
            out.push(
                match step {
                    Move::Left => "←",
                    Move::Right => "→",
                    Move::Cw => "↻",
                    Move::Ccw => "↺",
                    Move::Down => "↓",
                }
                .into(),
            );
        }
        flush(&mut downs, &mut out);
        if out.is_empty() {
            "hard drop".into()
        } else {
            out.join(" ")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_path_ends_on_the_drop_and_moves_one_input_at_a_time() {
        let board = Board::new(10, 20);
        let start = Placement {
            kind: PieceKind::T,
            state: 0,
            x: 3,
            y: 0,
        };
        let before = Before {
            steps: 0,
            board,
            colours: vec![0; 200],
            active: Some(start),
            rotation: RotationSystem::Srs,
            ceiling: None,
        };
        // T turned once (stem right), leftmost cell in column 0, top row 17.
        let drop = TetrisAction::Drop {
            x: 0,
            rotation: 1,
            y: Some(17),
        };
        let mut shown = AiMove::new(&before, &drop, 1.0).expect("a path");
        let end = shown.target();
        assert_eq!(end.left_column(), 0);
        assert_eq!(end.top_row(), 17);
        assert_eq!(shown.current(), start, "it starts at the spawn");
        for pair in shown.frames.windows(2) {
            let (a, b) = (pair[0], pair[1]);
            let moved = (a.x - b.x).abs() + (a.y - b.y).abs();
            assert!(a.state != b.state || moved == 1, "{a:?} -> {b:?}");
        }
        assert!(shown.path_text().contains('←'), "{}", shown.path_text());
        shown.advance(0.5);
        assert!(!shown.is_done());
        shown.advance(0.6);
        assert!(shown.is_done());
        assert_eq!(shown.current(), end);
    }

    #[test]
    fn a_drop_no_path_reaches_shows_nothing() {
        let mut board = Board::new(10, 20);
        // A lid over the bottom rows: under it is unreachable.
        for x in 0..10 {
            board.set(x, 15, true);
        }
        let before = Before {
            steps: 0,
            board,
            colours: vec![0; 200],
            active: Some(Placement {
                kind: PieceKind::O,
                state: 0,
                x: 3,
                y: 0,
            }),
            rotation: RotationSystem::Srs,
            ceiling: None,
        };
        let drop = TetrisAction::Drop {
            x: 0,
            rotation: 0,
            y: Some(18),
        };
        assert!(AiMove::new(&before, &drop, 1.0).is_none());
    }
}
