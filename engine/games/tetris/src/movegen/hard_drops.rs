//! The hard-drop shortcut of [`super::MoveGen`]: on a board whose every
//! landing is a hard drop (no hole a piece can reach, the spawn rows open
//! air), the landings straight from the columns' heights, without the
//! search. Tests hold them to the search's, landing for landing.

use super::{MoveGen, Placement, Shape, first_filled_row};
use crate::board::{Board, MAX_SIZE};
use crate::piece::{Orientation, PieceKind, RotationSystem};

/// What the hard-drop shortcut reads of a board: its first filled row,
/// whether it has a hole, and each column's highest filled row. Found
/// once per board; the same for every piece that may come to it.
#[derive(Clone, Copy)]
pub struct Surface {
    width: usize,
    /// The first row (from the top) with a filled cell; the height when
    /// the board is empty.
    first_filled: usize,
    /// Whether every empty cell is open to the sky (and the board no
    /// wider than [`MAX_SIZE`]); `tops` is only filled in when it is or
    /// when `holes_sealed`.
    hole_free: bool,
    /// Whether no hole (an empty cell under a filled one) has an open
    /// cell (one with no filled cell above it) beside it, left or right
    /// (and the board no wider than [`MAX_SIZE`]).
    holes_sealed: bool,
    /// Each column's highest filled row (the height when empty).
    tops: [i32; MAX_SIZE],
}

impl Surface {
    /// The surface of `board`.
    pub fn of(board: &Board) -> Self {
        Self::scan(board, first_filled_row(board), true)
    }

    /// The surface of `board`, whose first filled row is `first_filled`.
    /// Without `sealed_matters` (for a piece that may enter a sealed
    /// hole) the scan stops at the first hole: such a board goes to the
    /// search whether its holes are sealed or not.
    pub(super) fn scan(board: &Board, first_filled: usize, sealed_matters: bool) -> Self {
        let (width, height) = (board.width(), board.height());
        let mut surface = Self {
            width,
            first_filled,
            hole_free: false,
            holes_sealed: false,
            tops: [height as i32; MAX_SIZE],
        };
        if width > MAX_SIZE {
            return surface;
        }
        // A hole is an empty cell under a filled one.
        let full = board.full_row();
        let mut above = 0u64;
        let mut has_holes = false;
        for (y, &row) in board.rows()[..height].iter().enumerate().skip(first_filled) {
            let holes = above & !row & full;
            if holes != 0 {
                if !sealed_matters {
                    return surface;
                }
                has_holes = true;
                let open = !(above | row) & full;
                if holes & (open << 1 | open >> 1) != 0 {
                    return surface;
                }
            }
            let mut fresh = row & !above;
            while fresh != 0 {
                let x = fresh.trailing_zeros() as usize;
                fresh &= fresh - 1;
                surface.tops[x] = y as i32;
            }
            above |= row;
        }
        surface.hole_free = !has_holes;
        surface.holes_sealed = true;
        surface
    }
}

/// The top row (at least 0: the piece spawns above the stack) where a
/// state `W` columns wide, its cells' lowest rows `bottoms` below its top,
/// comes to rest when dropped at column `p` onto columns whose highest
/// filled rows are `tops`.
#[inline(always)]
fn drop_row<const W: usize>(tops: &[i32; MAX_SIZE], bottoms: &[u8; 8], p: usize) -> i32 {
    let mut q = i32::MAX;
    for i in 0..W {
        q = q.min(tops[p + i] - 1 - i32::from(bottoms[i]));
    }
    q.max(0)
}

/// [`drop_row`] for a width only known at run time (the specials').
fn drop_row_any(tops: &[i32; MAX_SIZE], bottoms: &[u8; 8], width: usize, p: usize) -> i32 {
    let mut q = i32::MAX;
    for (i, &top) in tops[p..p + width].iter().enumerate() {
        q = q.min(top - 1 - i32::from(bottoms[i]));
    }
    q.max(0)
}

/// Appends to `landings` the hard drops of state `c` of `kind` (cells `o`,
/// `W` columns wide) at every column of a board `width` wide whose
/// columns' highest filled rows are `tops`: in the search's order (row,
/// then column) when `in_search_order`, else by column.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn push_drops<const W: usize>(
    landings: &mut Vec<Placement>,
    (kind, c, o): (PieceKind, usize, &Orientation),
    tops: &[i32; MAX_SIZE],
    bottoms: &[u8; 8],
    width: usize,
    in_search_order: bool,
) {
    let count = width - W + 1;
    let (dx, dy) = (i32::from(o.left), i32::from(o.top));
    let landing = |q: i32, p: i32| Placement {
        kind,
        state: c as u8,
        x: p - dx,
        y: q - dy,
    };
    if !in_search_order {
        // A plain loop, reserved once: it inlines here, where `extend`
        // over a mapped range was a call per state.
        landings.reserve(count);
        for p in 0..count {
            landings.push(landing(drop_row::<W>(tops, bottoms, p), p as i32));
        }
        return;
    }
    // Sorted by (row, column), packed in one number (rows and columns are
    // below 64).
    let mut found = [0u32; MAX_SIZE];
    for (p, slot) in found[..count].iter_mut().enumerate() {
        *slot = (drop_row::<W>(tops, bottoms, p) as u32) << 8 | p as u32;
    }
    found[..count].sort_unstable();
    landings.extend(
        found[..count]
            .iter()
            .map(|&key| landing((key >> 8) as i32, (key & 0xff) as i32)),
    );
}

impl MoveGen {
    /// The landings of [`MoveGen::generate`] when the board's `surface`
    /// takes the hard-drop shortcut, state by state and, within a state,
    /// column by column (not the search's row order: for a caller that
    /// only takes the best of them, which saves the sort); `None` when the
    /// board needs the search. `surface` is [`Surface::of`] the board,
    /// found once for all the pieces that may come to it.
    pub fn hard_drops_unordered(
        &mut self,
        surface: &Surface,
        kind: PieceKind,
        system: RotationSystem,
        spawn: (i32, i32),
    ) -> Option<&[Placement]> {
        let index = Shape::index(kind, system);
        let shape = self.shapes[index].get_or_insert_with(|| Shape::new(kind, system));
        Self::hard_drops(&mut self.landings, surface, kind, shape, spawn, false)
            .then_some(&self.landings[..])
    }

    /// The landings of [`MoveGen::generate`] on `board`, in any order:
    /// the unordered hard drops where `surface` (the board's) takes the
    /// shortcut, else the search's; and whether they came in the search's
    /// order. For a caller that ranks them by a total order of its own.
    pub fn landings_any_order(
        &mut self,
        board: &Board,
        surface: &Surface,
        kind: PieceKind,
        system: RotationSystem,
        spawn: (i32, i32),
    ) -> (&[Placement], bool) {
        let index = Shape::index(kind, system);
        let shape = self.shapes[index].get_or_insert_with(|| Shape::new(kind, system));
        if Self::hard_drops(&mut self.landings, surface, kind, shape, spawn, false) {
            return (&self.landings[..], false);
        }
        (self.generate(board, kind, system, spawn), true)
    }

    /// The landings of [`MoveGen::generate`] on a board where they are
    /// exactly the hard drops: no hole (every empty cell open to the sky),
    /// or only holes sealed from the open air for a piece that cannot
    /// enter them ([`Shape::keeps_out_of_sealed_holes`]), so a piece
    /// comes to rest only on the surface, once per state and column; and
    /// the piece spawning, in every state, in rows of open air
    /// inside the walls (so it turns in place into every state and slides
    /// to every column). The common mid-game board of a good player. Found
    /// from the columns' heights without the search, in the search's order
    /// (state, row, column) when `in_search_order`, else by state and
    /// column; `false` (nothing written) on any other board. The search
    /// and this agree landing for landing (a property test compares them
    /// on random boards).
    pub(super) fn hard_drops(
        landings: &mut Vec<Placement>,
        surface: &Surface,
        kind: PieceKind,
        shape: &Shape,
        spawn: (i32, i32),
        in_search_order: bool,
    ) -> bool {
        let Surface {
            width,
            first_filled,
            hole_free,
            holes_sealed,
            ref tops,
        } = *surface;
        let landings_on_the_surface =
            hole_free || (holes_sealed && shape.keeps_out_of_sealed_holes);
        if !landings_on_the_surface || !shape.turns_in_place {
            return false;
        }
        let n = shape.states;
        let in_open_air = shape.orientations[..n].iter().all(|o| {
            let left = spawn.0 + i32::from(o.left);
            let top = spawn.1 + i32::from(o.top);
            left >= 0
                && left + i32::from(o.width) <= width as i32
                && top >= 0
                && top + i32::from(o.height) <= first_filled as i32
        });
        if !in_open_air {
            return false;
        }
        landings.clear();
        for c in 0..n {
            let o = &shape.orientations[c];
            if usize::from(o.canonical) != c {
                continue;
            }
            let w = o.width as usize;
            let bottoms = &shape.bottoms[c];
            let state = (kind, c, o);
            // The width a constant, so the minimum over it unrolls.
            match w {
                1 => push_drops::<1>(landings, state, tops, bottoms, width, in_search_order),
                2 => push_drops::<2>(landings, state, tops, bottoms, width, in_search_order),
                3 => push_drops::<3>(landings, state, tops, bottoms, width, in_search_order),
                4 => push_drops::<4>(landings, state, tops, bottoms, width, in_search_order),
                _ => {
                    // The specials: the same, the width a variable.
                    let count = width - w + 1;
                    let mut found = [0u32; MAX_SIZE];
                    for (p, slot) in found[..count].iter_mut().enumerate() {
                        *slot = (drop_row_any(tops, bottoms, w, p) as u32) << 8 | p as u32;
                    }
                    if in_search_order {
                        found[..count].sort_unstable();
                    }
                    let (dx, dy) = (i32::from(o.left), i32::from(o.top));
                    landings.extend(found[..count].iter().map(|&key| Placement {
                        kind,
                        state: c as u8,
                        x: (key & 0xff) as i32 - dx,
                        y: (key >> 8) as i32 - dy,
                    }));
                }
            }
        }
        true
    }
}
