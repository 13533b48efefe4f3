//! Every landing a piece can reach from its spawn: the move generator the
//! game's `Drop` action, the puzzle search ("Solvable?") and the AI share.
//!
//! [`MoveGen::generate`] works on whole rows at once. For each rotation
//! state and each row it keeps a 64-bit mask of the columns where the piece
//! fits (`fits`) and of the columns it can reach (`reach`), both indexed by
//! the column of the piece's leftmost cell and the row of its top cell (so
//! two states with the same cells share coordinates, which is how landings
//! are deduped by cell set). A sideways slide is an occluded flood fill in
//! one row, a soft drop an AND with the row below, and a turn with its kick
//! tests a shift of the not-yet-kicked bits per test. The passes repeat
//! until nothing new is reached (kicks may lift a piece, so one top-down
//! pass is not always enough). A landing is a reached state that cannot
//! move down.
//!
//! [`find_path`] answers the question the bit-parallel search cannot: which
//! inputs lead to a given landing. It is a plain breadth-first search over
//! (x, y, state), run once per landing that needs its path.

use std::collections::VecDeque;

use serde::{Deserialize, Serialize};

use crate::board::{Board, MAX_SIZE};
use crate::piece::{Orientation, PieceKind, RotationSystem, orientation};

mod hard_drops;
pub use hard_drops::Surface;

/// Where a piece ends up: its kind, rotation state and box position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Placement {
    /// The piece.
    pub kind: PieceKind,
    /// Rotation state (the lowest state with these cells).
    pub state: u8,
    /// Column of the rotation box's left edge (may be negative).
    pub x: i32,
    /// Row of the rotation box's top edge.
    pub y: i32,
}

impl Placement {
    /// The board cells (x, y): four, or five for a special.
    #[inline]
    pub fn cells(&self) -> impl Iterator<Item = (i32, i32)> + use<> {
        let (x, y) = (self.x, self.y);
        orientation(self.kind, self.state)
            .cells()
            .iter()
            .map(move |&(dx, dy)| (x + i32::from(dx), y + i32::from(dy)))
    }

    /// Column of the leftmost cell (what `Drop { x }` names).
    #[inline]
    pub fn left_column(&self) -> i32 {
        self.x + i32::from(orientation(self.kind, self.state).left)
    }

    /// Row of the topmost cell.
    #[inline]
    pub fn top_row(&self) -> i32 {
        self.y + i32::from(orientation(self.kind, self.state).top)
    }

    /// The same cells, with the state made canonical (I, S, Z states 2 and
    /// 3 become 0 and 1; O's become 0).
    #[inline]
    pub fn canonical(&self) -> Placement {
        let o = orientation(self.kind, self.state);
        let c = orientation(self.kind, o.canonical);
        Placement {
            kind: self.kind,
            state: o.canonical,
            x: self.x + i32::from(o.left) - i32::from(c.left),
            y: self.y + i32::from(o.top) - i32::from(c.top),
        }
    }
}

/// One input of a path to a landing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Move {
    /// One column left.
    Left,
    /// One column right.
    Right,
    /// One row down (soft drop).
    Down,
    /// Turn clockwise (with the system's kicks).
    Cw,
    /// Turn counter-clockwise.
    Ccw,
}

/// The bit-parallel landing search. Holds its buffers, so a search after
/// the first allocates nothing.
pub struct MoveGen {
    fits: [[u64; MAX_SIZE]; 4],
    reach: [[u64; MAX_SIZE]; 4],
    rotated: [[u64; MAX_SIZE]; 4],
    landed: [[u64; MAX_SIZE]; 4],
    landings: Vec<Placement>,
    /// Each piece's orientations and turns under each rotation system,
    /// prepared on its first search ([`Shape::index`]).
    shapes: Vec<Option<Shape>>,
    /// Whether boards without holes take the hard-drop shortcut.
    shortcut: bool,
}

impl Default for MoveGen {
    fn default() -> Self {
        Self::new()
    }
}

#[inline]
fn shift(v: u64, d: i32) -> u64 {
    if d >= 0 {
        v.checked_shl(d as u32).unwrap_or(0)
    } else {
        v.checked_shr((-d) as u32).unwrap_or(0)
    }
}

/// Bits of `seed` spread left and right through the runs of `open` that
/// hold them. Toward higher bits by a carry: adding a seed bit to its run
/// of ones clears the run from that bit up, so `(open + seed) ^ open` marks
/// exactly those bits (and the one past the run, outside `open`). Toward
/// lower bits, where no carry runs, by a Kogge-Stone occluded fill.
#[inline]
fn slide(seed: u64, open: u64, width: usize) -> u64 {
    let seed = seed & open;
    let up = if width < 64 {
        // `open` < 2^63, so the sum cannot overflow.
        (((open + seed) ^ open) & open) | seed
    } else {
        let mut up = seed;
        let mut pr = open;
        let mut step = 1u32;
        while step < 64 {
            up |= pr & (up << step);
            pr &= pr << step;
            step <<= 1;
        }
        up
    };
    let mut down = seed;
    let mut pl = open;
    let mut step = 1u32;
    while (step as usize) < width {
        down |= pl & (down >> step);
        pl &= pl >> step;
        step <<= 1;
    }
    up | down
}

/// One turn of a rotation state: the state it ends in and its kicks,
/// tried in order, as shifts of the (top row, left column) coordinates.
#[derive(Clone, Copy, Default)]
struct Turn {
    to: usize,
    kicks: [(i32, i32); 5],
    len: usize,
}

/// What a search needs of one piece under one rotation system: its
/// orientations and turns, looked up once rather than per row.
#[derive(Clone, Copy)]
struct Shape {
    states: usize,
    orientations: [Orientation; 4],
    /// Per state, the clockwise and the counter-clockwise turn.
    turns: [[Turn; 2]; 4],
    /// Per state and column of its cells (from its leftmost), the row of
    /// the column's lowest cell below the state's top row: where a hard
    /// drop stops it.
    bottoms: [[u8; 8]; 4],
    /// Whether every turn first tries the piece where it is (no kick) and
    /// clockwise turns visit every state: then, in rows of open air, the
    /// piece turns in place into every state.
    turns_in_place: bool,
    /// Whether the piece cannot enter a sealed hole ([`Surface`]): every
    /// orientation is one connected piece, and every turn has no kick but
    /// the turn in place, whose cells share one with the cells before.
    /// A piece all in open air then reaches no hole by any move: a drop
    /// stops on a column's top; a slide moves every cell one column, so a
    /// cell entering a hole comes from the open cell beside it; after a
    /// turn the shared cell is in open air, so the piece, connected,
    /// would have a hole's cell beside an open one. It moves and lands
    /// as on the board with its holes filled in: the hard drops.
    keeps_out_of_sealed_holes: bool,
}

impl Shape {
    /// Its slot in [`MoveGen`]'s table.
    fn index(kind: PieceKind, system: RotationSystem) -> usize {
        2 * kind.index() + usize::from(system == RotationSystem::Srs)
    }

    fn new(kind: PieceKind, system: RotationSystem) -> Self {
        let states = usize::from(system.states(kind));
        let orientations = std::array::from_fn(|s| *orientation(kind, (s % states) as u8));
        let mut turns = [[Turn::default(); 2]; 4];
        for (s, state_turns) in turns.iter_mut().enumerate().take(states) {
            let os = orientation(kind, s as u8);
            for (turn, clockwise) in state_turns.iter_mut().zip([true, false]) {
                let t = system.turned(kind, s as u8, clockwise);
                let ot = orientation(kind, t);
                turn.to = usize::from(t);
                for &(kx, ky) in system.kicks(kind, s as u8, clockwise) {
                    // Every system has at most five tests (SRS's).
                    if turn.len == turn.kicks.len() {
                        break;
                    }
                    turn.kicks[turn.len] = (
                        i32::from(ky) - i32::from(os.top) + i32::from(ot.top),
                        i32::from(kx) - i32::from(os.left) + i32::from(ot.left),
                    );
                    turn.len += 1;
                }
            }
        }
        let mut bottoms = [[0u8; 8]; 4];
        for (s, o) in orientations.iter().enumerate().take(states) {
            for (i, &row) in o.rows.iter().enumerate().take(o.height as usize) {
                let mut bits = row;
                while bits != 0 {
                    let column = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    if column < 8 {
                        bottoms[s][column] = i as u8;
                    }
                }
            }
        }
        let turns_in_place = (0..states).all(|s| {
            let clockwise = system.turned(kind, s as u8, true);
            usize::from(clockwise) == (s + 1) % states
                && [true, false]
                    .into_iter()
                    .all(|cw| system.kicks(kind, s as u8, cw).first() == Some(&(0, 0)))
        });
        let connected = |o: &Orientation| {
            let cells = o.cells();
            let mut reached = 1u32;
            for _ in 0..cells.len() {
                for (i, &(x, y)) in cells.iter().enumerate() {
                    let beside = cells.iter().enumerate().any(|(j, &(u, v))| {
                        reached >> j & 1 == 1 && (x - u).abs() + (y - v).abs() == 1
                    });
                    if beside {
                        reached |= 1 << i;
                    }
                }
            }
            reached.count_ones() as usize == cells.len()
        };
        let keeps_out_of_sealed_holes = (0..states).all(|s| {
            let before = orientation(kind, s as u8);
            connected(before)
                && [true, false].into_iter().all(|clockwise| {
                    let after = orientation(kind, system.turned(kind, s as u8, clockwise));
                    system.kicks(kind, s as u8, clockwise) == [(0, 0)]
                        && before.cells().iter().any(|c| after.cells().contains(c))
                })
        });
        Self {
            states,
            orientations,
            turns,
            bottoms,
            turns_in_place,
            keeps_out_of_sealed_holes,
        }
    }
}

/// The first row (from the top) with a filled cell; the height when the
/// board is empty.
#[inline]
pub fn first_filled_row(board: &Board) -> usize {
    let height = board.height();
    board.rows()[..height]
        .iter()
        .position(|&row| row != 0)
        .unwrap_or(height)
}

impl MoveGen {
    /// A generator with empty buffers.
    pub fn new() -> Self {
        Self {
            fits: [[0; MAX_SIZE]; 4],
            reach: [[0; MAX_SIZE]; 4],
            rotated: [[0; MAX_SIZE]; 4],
            landed: [[0; MAX_SIZE]; 4],
            landings: Vec::with_capacity(256),
            shapes: vec![None; 2 * PieceKind::EVERY.len()],
            shortcut: true,
        }
    }

    /// A generator that always runs the full search, even where the
    /// hard drops are the answer: what tests hold the shortcut to.
    pub fn searching_only() -> Self {
        Self {
            shortcut: false,
            ..Self::new()
        }
    }

    /// Every distinct landing (by cell set) of `kind` spawned with its box
    /// at `spawn`, reachable by slides, soft drops and turns of `system`.
    /// Empty when the piece cannot spawn.
    ///
    /// One function on purpose (about 180 lines): it is the hot loop of
    /// every AI decision, and its three phases (fit masks, the reach
    /// passes, the landings) share the per-state tables and counts.
    pub fn generate(
        &mut self,
        board: &Board,
        kind: PieceKind,
        system: RotationSystem,
        spawn: (i32, i32),
    ) -> &[Placement] {
        // Indexing by state keeps the four per-state tables in step.
        #![allow(clippy::needless_range_loop)]
        self.landings.clear();
        let width = board.width();
        let height = board.height();
        let index = Shape::index(kind, system);
        // Borrowed, not copied (it is about 750 bytes): the fields below
        // are borrowed apart from it.
        let shape: &Shape = self.shapes[index].get_or_insert_with(|| Shape::new(kind, system));
        let n = shape.states;
        let turns = &shape.turns;
        let mut rows_of = [0usize; 4];
        let mut valid_of = [0u64; 4];
        // Rows from the top in which every state fits everywhere (the air
        // above the stack).
        let mut open_air = height;
        // Rows above the first filled one are empty: a state whose rows all
        // lie there fits everywhere, with no per-cell test.
        let first_filled = first_filled_row(board);
        // Only a piece that turns in place may take the shortcut: the
        // board's surface is scanned for no other.
        if self.shortcut && shape.turns_in_place {
            let surface = Surface::scan(board, first_filled, shape.keeps_out_of_sealed_holes);
            if Self::hard_drops(&mut self.landings, &surface, kind, shape, spawn, true) {
                return &self.landings;
            }
        }
        for s in 0..n {
            let o = &shape.orientations[s];
            let (w, h) = (o.width as usize, o.height as usize);
            if w > width || h > height {
                rows_of[s] = 0;
                continue;
            }
            let rows = height - h + 1;
            rows_of[s] = rows;
            let valid = if width - w + 1 >= 64 {
                u64::MAX
            } else {
                (1u64 << (width - w + 1)) - 1
            };
            let clear_rows = (first_filled + 1).saturating_sub(h).min(rows);
            self.fits[s][..clear_rows].fill(valid);
            for q in clear_rows..rows {
                let mut f = valid;
                for i in 0..h {
                    let free = !board.row(q + i);
                    let mut m = o.rows[i];
                    while m != 0 {
                        let b = m.trailing_zeros();
                        f &= free >> b;
                        m &= m - 1;
                    }
                }
                self.fits[s][q] = f;
                if f != valid {
                    open_air = open_air.min(q);
                }
            }
            valid_of[s] = valid;
            open_air = open_air.min(rows);
            self.reach[s][..rows].fill(0);
            self.rotated[s][..rows].fill(0);
        }

        let o0 = &shape.orientations[0];
        let p0 = spawn.0 + i32::from(o0.left);
        let q0 = spawn.1 + i32::from(o0.top);
        if !board.fits(kind, 0, spawn.0, spawn.1) {
            return &self.landings;
        }
        self.reach[0][q0 as usize] = 1u64 << p0;

        // A row of open air whose row above is reached everywhere in every
        // state is reached everywhere too, and its turns (kicks move a piece
        // at most two rows) land in open air that is reached everywhere
        // already: such rows are filled in without sliding or turning.
        let reached_everywhere =
            |reach: &[[u64; MAX_SIZE]; 4], q: usize| (0..n).all(|s| reach[s][q] == valid_of[s]);
        // The first row of a pass: a turn that lifts a piece (or reaches an
        // earlier state of its own row) sends the search back to that row
        // only; the rows above it are final.
        let mut start = 0usize;
        loop {
            let mut again = false;
            let mut restart = height;
            for q in start..height {
                if q > 0 && q + 2 < open_air && reached_everywhere(&self.reach, q - 1) {
                    for s in 0..n {
                        self.reach[s][q] = valid_of[s];
                        self.rotated[s][q] = valid_of[s];
                    }
                    continue;
                }
                for s in 0..n {
                    if q >= rows_of[s] {
                        continue;
                    }
                    let f = self.fits[s][q];
                    let mut r = self.reach[s][q];
                    if q > 0 {
                        r |= self.reach[s][q - 1] & f;
                    }
                    if r == 0 {
                        continue;
                    }
                    // `rotated` holds what was slid and turned before: a
                    // closed set. Nothing outside it, nothing to do.
                    if r & !self.rotated[s][q] == 0 {
                        continue;
                    }
                    r = slide(r, f, width);
                    self.reach[s][q] = r;
                    let fresh = r & !self.rotated[s][q];
                    self.rotated[s][q] |= fresh;
                    if fresh == 0 || n == 1 {
                        continue;
                    }
                    for turn in &turns[s] {
                        let t = turn.to;
                        let mut rest = fresh;
                        for &(dq, d) in &turn.kicks[..turn.len] {
                            let qt = q as i32 + dq;
                            if qt >= 0 && (qt as usize) < rows_of[t] {
                                let qt = qt as usize;
                                let ft = self.fits[t][qt];
                                let moved = shift(rest, d) & ft;
                                if moved & !self.reach[t][qt] != 0 {
                                    self.reach[t][qt] |= moved;
                                    if qt < q || (qt == q && t <= s) {
                                        again = true;
                                        restart = restart.min(qt);
                                    }
                                }
                                rest &= !shift(ft, -d);
                                if rest == 0 {
                                    break;
                                }
                            }
                        }
                    }
                }
            }
            if !again {
                break;
            }
            start = restart;
        }

        for c in 0..n {
            self.landed[c][..height].fill(0);
        }
        for s in 0..n {
            let o = &shape.orientations[s];
            let c = usize::from(o.canonical);
            for q in 0..rows_of[s] {
                let below = if q + 1 < rows_of[s] {
                    self.fits[s][q + 1]
                } else {
                    0
                };
                self.landed[c][q] |= self.reach[s][q] & !below;
            }
        }
        for c in 0..n {
            let o = &shape.orientations[c];
            if usize::from(o.canonical) != c {
                continue;
            }
            for q in 0..rows_of[c] {
                let mut bits = self.landed[c][q];
                while bits != 0 {
                    let p = bits.trailing_zeros() as i32;
                    bits &= bits - 1;
                    self.landings.push(Placement {
                        kind,
                        state: c as u8,
                        x: p - i32::from(o.left),
                        y: q as i32 - i32::from(o.top),
                    });
                }
            }
        }
        &self.landings
    }

    /// The landings of the last [`MoveGen::generate`].
    #[inline]
    pub fn landings(&self) -> &[Placement] {
        &self.landings
    }
}

/// The board a placement leaves after it locks and full rows clear, and
/// how many rows cleared.
#[inline]
pub fn after_lock(board: &Board, placement: &Placement) -> (Board, u32) {
    let mut next = *board;
    next.place(placement.kind, placement.state, placement.x, placement.y);
    let cleared = next.clear_full_rows();
    (next, cleared.count_ones())
}

/// The shortest input path (slides, soft drops, turns) from the spawn to
/// `target` (any state with the same cells); the piece is then locked
/// there by a hard drop. `None` when it is not reachable.
pub fn find_path(
    board: &Board,
    system: RotationSystem,
    spawn: (i32, i32),
    target: &Placement,
) -> Option<Vec<Move>> {
    let kind = target.kind;
    let goal = target.canonical();
    if !board.fits(kind, 0, spawn.0, spawn.1) {
        return None;
    }
    const PAD: i32 = 4;
    let span_x = board.width() as i32 + 2 * PAD;
    let span_y = board.height() as i32 + 2 * PAD;
    let index = |x: i32, y: i32, s: u8| -> usize {
        ((i32::from(s) * span_y + (y + PAD)) * span_x + (x + PAD)) as usize
    };
    let mut parent: Vec<Option<(usize, Move)>> = vec![None; (4 * span_x * span_y) as usize];
    let mut seen = vec![false; parent.len()];
    let mut queue = VecDeque::new();
    let start = (spawn.0, spawn.1, 0u8);
    seen[index(start.0, start.1, start.2)] = true;
    queue.push_back(start);
    while let Some((x, y, s)) = queue.pop_front() {
        let here = Placement {
            kind,
            state: s,
            x,
            y,
        };
        if !board.fits(kind, s, x, y + 1) && here.canonical() == goal {
            let mut path = Vec::new();
            let mut at = index(x, y, s);
            while let Some((from, step)) = parent[at] {
                path.push(step);
                at = from;
            }
            path.reverse();
            return Some(path);
        }
        let mut next =
            |nx: i32, ny: i32, ns: u8, step: Move, queue: &mut VecDeque<(i32, i32, u8)>| {
                if nx < -PAD || ny < -PAD || nx >= span_x - PAD || ny >= span_y - PAD {
                    return;
                }
                let i = index(nx, ny, ns);
                if !seen[i] {
                    seen[i] = true;
                    parent[i] = Some((index(x, y, s), step));
                    queue.push_back((nx, ny, ns));
                }
            };
        if board.fits(kind, s, x - 1, y) {
            next(x - 1, y, s, Move::Left, &mut queue);
        }
        if board.fits(kind, s, x + 1, y) {
            next(x + 1, y, s, Move::Right, &mut queue);
        }
        for (clockwise, step) in [(true, Move::Cw), (false, Move::Ccw)] {
            if let Some((nx, ny, ns)) = turn(board, system, kind, s, x, y, clockwise) {
                next(nx, ny, ns, step, &mut queue);
            }
        }
        if board.fits(kind, s, x, y + 1) {
            next(x, y + 1, s, Move::Down, &mut queue);
        }
    }
    None
}

/// Where a turn takes a piece: the first kick test that fits, or `None`
/// (the turn is refused).
pub fn turn(
    board: &Board,
    system: RotationSystem,
    kind: PieceKind,
    state: u8,
    x: i32,
    y: i32,
    clockwise: bool,
) -> Option<(i32, i32, u8)> {
    if system.states(kind) == 1 {
        return None;
    }
    let to = system.turned(kind, state, clockwise);
    system
        .kicks(kind, state, clockwise)
        .iter()
        .map(|&(kx, ky)| (x + i32::from(kx), y + i32::from(ky)))
        .find(|&(nx, ny)| board.fits(kind, to, nx, ny))
        .map(|(nx, ny)| (nx, ny, to))
}
