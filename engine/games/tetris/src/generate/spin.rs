//! What a T-spin is for the generator and its proof: a T landing that no
//! path reaches whose turns all come before its first soft drop. Turning
//! and sliding in the spawn rows and then dropping (with tucks under an
//! overhang by a slide) reach every other landing; a T-spin needs a turn
//! with its kicks once the piece is down in the stack.

use std::collections::VecDeque;

use crate::board::Board;
use crate::movegen::{Placement, turn};
use crate::piece::{PieceKind, RotationSystem};

/// Whether `landing`, a T landing the move generator found from `spawn`,
/// is a T-spin: reachable only by turning after the piece came down.
/// Any other piece is never a T-spin.
pub fn is_t_spin(
    board: &Board,
    system: RotationSystem,
    spawn: (i32, i32),
    landing: &Placement,
) -> bool {
    landing.kind == PieceKind::T && !reachable_turning_first(board, system, spawn, landing)
}

/// Whether `target` is reached by a path whose turns all come before its
/// first soft drop: a breadth-first search over turns and slides from the
/// spawn, then over slides and drops from everything that found.
fn reachable_turning_first(
    board: &Board,
    system: RotationSystem,
    spawn: (i32, i32),
    target: &Placement,
) -> bool {
    let kind = target.kind;
    let goal = target.canonical();
    if !board.fits(kind, 0, spawn.0, spawn.1) {
        return false;
    }
    // Box positions run a few cells past the board on each side (a box is
    // larger than its cells).
    const PAD: i32 = 4;
    let span_x = board.width() as i32 + 2 * PAD;
    let span_y = board.height() as i32 + 2 * PAD;
    let index = |x: i32, y: i32, s: u8| -> Option<usize> {
        let inside = (-PAD..span_x - PAD).contains(&x) && (-PAD..span_y - PAD).contains(&y);
        inside.then(|| ((i32::from(s) * span_y + (y + PAD)) * span_x + (x + PAD)) as usize)
    };
    let mut seen = vec![[false; 2]; (4 * span_x * span_y) as usize];
    let mut queue = VecDeque::new();
    // Phase 0: turns and slides before any drop; phase 1: slides and drops.
    for phase in [0usize, 1] {
        if let Some(i) = index(spawn.0, spawn.1, 0) {
            seen[i][phase] = true;
        }
        if phase == 0 {
            queue.push_back((spawn.0, spawn.1, 0u8));
        } else {
            // Everything phase 0 reached starts phase 1.
            for s in 0..4u8 {
                for y in -PAD..span_y - PAD {
                    for x in -PAD..span_x - PAD {
                        if let Some(i) = index(x, y, s)
                            && seen[i][0]
                        {
                            seen[i][1] = true;
                            queue.push_back((x, y, s));
                        }
                    }
                }
            }
        }
        while let Some((x, y, s)) = queue.pop_front() {
            let here = Placement {
                kind,
                state: s,
                x,
                y,
            };
            if phase == 1 && !board.fits(kind, s, x, y + 1) && here.canonical() == goal {
                return true;
            }
            let mut next = Vec::with_capacity(4);
            for dx in [-1, 1] {
                if board.fits(kind, s, x + dx, y) {
                    next.push((x + dx, y, s));
                }
            }
            if phase == 0 {
                for clockwise in [true, false] {
                    if let Some(turned) = turn(board, system, kind, s, x, y, clockwise) {
                        next.push(turned);
                    }
                }
            } else if board.fits(kind, s, x, y + 1) {
                next.push((x, y + 1, s));
            }
            for (nx, ny, ns) in next {
                if let Some(i) = index(nx, ny, ns)
                    && !seen[i][phase]
                {
                    seen[i][phase] = true;
                    queue.push_back((nx, ny, ns));
                }
            }
        }
    }
    false
}
