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
    landing.kind == PieceKind::T
        && !turning_first(board, system, landing.kind, spawn).contains(&landing.canonical())
}

/// Every landing of `kind` (canonical states) reached by a path whose
/// turns all come before its first soft drop: a breadth-first search over
/// turns and slides from the spawn, then over slides and drops from
/// everything that found. A landing of the move generator missing here
/// needs a turn down in the stack.
pub fn turning_first(
    board: &Board,
    system: RotationSystem,
    kind: PieceKind,
    spawn: (i32, i32),
) -> Vec<Placement> {
    let mut found = Vec::new();
    if !board.fits(kind, 0, spawn.0, spawn.1) {
        return found;
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
    // Per position: reached turning and sliding (phase 0), then sliding
    // and dropping (phase 1).
    let mut seen = vec![[false; 2]; (4 * span_x * span_y) as usize];
    let mut queue = VecDeque::new();
    let mut turned = Vec::new();
    if let Some(i) = index(spawn.0, spawn.1, 0) {
        seen[i][0] = true;
    }
    queue.push_back((spawn.0, spawn.1, 0u8));
    for phase in [0usize, 1] {
        if phase == 1 {
            queue.extend(turned.iter().copied());
            for &(x, y, s) in &turned {
                if let Some(i) = index(x, y, s) {
                    seen[i][1] = true;
                }
            }
        }
        while let Some((x, y, s)) = queue.pop_front() {
            if phase == 0 {
                turned.push((x, y, s));
            } else if !board.fits(kind, s, x, y + 1) {
                let landing = Placement {
                    kind,
                    state: s,
                    x,
                    y,
                }
                .canonical();
                if !found.contains(&landing) {
                    found.push(landing);
                }
            }
            let mut next = [None; 4];
            for (slot, dx) in [-1, 1].into_iter().enumerate() {
                next[slot] = board.fits(kind, s, x + dx, y).then_some((x + dx, y, s));
            }
            if phase == 0 {
                next[2] = turn(board, system, kind, s, x, y, true);
                next[3] = turn(board, system, kind, s, x, y, false);
            } else {
                next[2] = board.fits(kind, s, x, y + 1).then_some((x, y + 1, s));
            }
            for (nx, ny, ns) in next.into_iter().flatten() {
                if let Some(i) = index(nx, ny, ns)
                    && !seen[i][phase]
                {
                    seen[i][phase] = true;
                    queue.push_back((nx, ny, ns));
                }
            }
        }
    }
    found
}
