//! The rules core: the falling piece, inputs with auto-repeat, gravity,
//! lock delay, line clears, hold and the piece queue. It knows nothing of
//! the script: the game hands it plain numbers ([`Config`]) and scores the
//! [`Lock`]s it reports. A tick, an input, a lock and a clear allocate
//! nothing (the buffers are sized when the field is made).

use std::collections::VecDeque;

use rand::Rng;

use tessera_host::rng::GameRng;

use crate::board::{Board, spawn_position};
use crate::movegen::{Placement, turn};
use crate::piece::{PieceKind, RotationSystem};
use crate::settings::Randomizer;

/// The numbers the rules run on, copied from the script's settings (and
/// the level's overrides) at each event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Config {
    /// How pieces turn.
    pub rotation: RotationSystem,
    /// Gravity ticks per row at the current level.
    pub fall_ticks: u32,
    /// Gravity ticks per row while down is held.
    pub soft_drop_ticks: u32,
    /// Ticks on the ground before a lock (0: lock at the next gravity step).
    pub lock_delay_ticks: u32,
    /// Moves on the ground that restart the lock delay.
    pub lock_resets: u32,
    /// Ticks before a held side key repeats.
    pub das_ticks: u32,
    /// Ticks between repeats (0: straight to the wall).
    pub arr_ticks: u32,
    /// Pieces shown in the preview.
    pub preview: usize,
    /// Whether hold is allowed.
    pub hold: bool,
}

/// A key that can be held down for auto-repeat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Key {
    /// Left arrow.
    Left,
    /// Right arrow.
    Right,
    /// Down arrow (soft drop).
    Down,
}

/// The piece in play.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Active {
    /// Which piece.
    pub kind: PieceKind,
    /// Rotation state.
    pub state: u8,
    /// Box column.
    pub x: i32,
    /// Box row.
    pub y: i32,
}

impl Active {
    /// As a placement (cells, canonical form).
    pub fn placement(&self) -> Placement {
        Placement {
            kind: self.kind,
            state: self.state,
            x: self.x,
            y: self.y,
        }
    }
}

/// What one lock did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lock {
    /// Where the piece locked.
    pub placement: Placement,
    /// Rows cleared by it.
    pub lines: u32,
    /// A block is left in the top row, or the next piece cannot spawn.
    pub topped_out: bool,
    /// A fixed sequence ran out: there is no next piece.
    pub out_of_pieces: bool,
}

/// Where pieces come from: a fixed sequence or the randomizer.
pub struct PieceSource {
    sequence: Vec<PieceKind>,
    next_in_sequence: usize,
    randomizer: Randomizer,
    bag: [PieceKind; 7],
    bag_left: usize,
    rng: GameRng,
}

impl PieceSource {
    /// A source drawing from `sequence` when it is not empty, else from
    /// the randomizer with `rng` (the game's seeded stream).
    pub fn new(sequence: Vec<PieceKind>, randomizer: Randomizer, rng: GameRng) -> Self {
        Self {
            sequence,
            next_in_sequence: 0,
            randomizer,
            bag: PieceKind::ALL,
            bag_left: 0,
            rng,
        }
    }

    /// Whether pieces come from a fixed sequence.
    pub fn is_fixed(&self) -> bool {
        !self.sequence.is_empty()
    }

    /// Sets the randomizer (takes effect at the next bag).
    pub fn set_randomizer(&mut self, randomizer: Randomizer) {
        self.randomizer = randomizer;
    }

    /// The next piece, or `None` when a fixed sequence is used up.
    pub fn draw(&mut self) -> Option<PieceKind> {
        if !self.sequence.is_empty() {
            let piece = self.sequence.get(self.next_in_sequence).copied();
            self.next_in_sequence += usize::from(piece.is_some());
            return piece;
        }
        match self.randomizer {
            Randomizer::Uniform => Some(PieceKind::ALL[self.rng.random_range(0..7)]),
            Randomizer::Bag => {
                if self.bag_left == 0 {
                    self.bag = PieceKind::ALL;
                    self.bag_left = 7;
                }
                // Draw one of the pieces left in the bag and move it to
                // the used end.
                let i = self.rng.random_range(0..self.bag_left);
                self.bag_left -= 1;
                self.bag.swap(i, self.bag_left);
                Some(self.bag[self.bag_left])
            }
        }
    }
}

#[derive(Debug, Clone, Copy, Default)]
struct Held {
    down: bool,
    clock: u32,
}

/// The playing field: everything the rules change from tick to tick.
pub struct Field {
    board: Board,
    colours: Vec<u8>,
    garbage: Board,
    active: Option<Active>,
    queue: VecDeque<PieceKind>,
    source: PieceSource,
    hold: Option<PieceKind>,
    hold_used: bool,
    config: Config,
    gravity_clock: u32,
    lock_clock: u32,
    resets_used: u32,
    held: [Held; 3],
    /// The side key pressed last (it wins when both are held).
    last_side: Key,
    paused: bool,
    over: bool,
    /// Feed mode: pieces come only from [`Field::feed`], one at a time.
    fed: bool,
    /// The row a piece's box spawns at (0, or just under feed mode's
    /// ceiling).
    spawn_row: i32,
    /// Rows from the top where a locked cell tops out (1 = the seed's top
    /// row; feed mode: the rows above the ceiling and the one under it).
    danger_rows: usize,
    ticks: u64,
    locked: u64,
    spawned: u64,
    rows_cleared: u64,
}

impl Field {
    /// A field with `board` (and its colours) and the first pieces drawn.
    pub fn new(board: Board, colours: Vec<u8>, source: PieceSource, config: Config) -> Self {
        let garbage = board;
        let mut field = Self {
            board,
            colours,
            garbage,
            active: None,
            queue: VecDeque::with_capacity(8),
            source,
            hold: None,
            hold_used: false,
            config,
            gravity_clock: 0,
            lock_clock: 0,
            resets_used: 0,
            held: [Held::default(); 3],
            last_side: Key::Left,
            paused: false,
            over: false,
            fed: false,
            spawn_row: 0,
            danger_rows: 1,
            ticks: 0,
            locked: 0,
            spawned: 0,
            rows_cleared: 0,
        };
        field.fill_queue();
        if !field.spawn_next() {
            field.over = true;
        }
        field
    }

    /// A feed-mode field: no queue, no gravity of its own; each piece is
    /// given by [`Field::feed`] and placed by [`Field::lock_at`].
    pub fn fed(board: Board, colours: Vec<u8>, source: PieceSource, config: Config) -> Self {
        let mut field = Self::new(board, colours, source, config);
        field.fed = true;
        field.queue.clear();
        field.active = None;
        field.spawned = 0;
        field.over = false;
        field
    }

    /// Feed mode: puts `kind` in play just under the ceiling; false (and
    /// the game over) when it does not fit or a piece is already in play.
    pub fn feed(&mut self, kind: PieceKind) -> bool {
        if !self.fed || self.active.is_some() || self.over {
            return false;
        }
        if !self.spawn(kind) {
            self.over = true;
            return false;
        }
        true
    }

    /// Moves the ceiling: `rows_above` rows are closed off, pieces spawn
    /// just under them, and a locked cell in the row under the line tops
    /// out. Returns whether the stack already reaches the new line.
    pub fn set_ceiling(&mut self, rows_above: usize) -> bool {
        let rows_above = rows_above.min(self.board.height().saturating_sub(1));
        self.spawn_row = rows_above as i32;
        self.danger_rows = rows_above + 1;
        self.reaches_danger()
    }

    /// The row pieces spawn at.
    pub fn spawn_row(&self) -> i32 {
        self.spawn_row
    }

    /// Rows from the top where a locked cell tops out.
    pub fn danger_rows(&self) -> usize {
        self.danger_rows
    }

    /// Whether this is a feed-mode field.
    pub fn is_fed(&self) -> bool {
        self.fed
    }

    fn reaches_danger(&self) -> bool {
        self.board.rows()[..self.danger_rows.min(self.board.height())]
            .iter()
            .any(|&r| r != 0)
    }

    fn fill_queue(&mut self) {
        if self.fed {
            return;
        }
        while self.queue.len() < self.config.preview.max(1) {
            match self.source.draw() {
                Some(piece) => self.queue.push_back(piece),
                None => break,
            }
        }
    }

    /// Spawns the next queued piece; false when there is none or it does
    /// not fit (the caller decides which).
    fn spawn_next(&mut self) -> bool {
        let Some(kind) = self.queue.pop_front() else {
            self.active = None;
            return false;
        };
        self.fill_queue();
        self.spawn(kind)
    }

    fn spawn(&mut self, kind: PieceKind) -> bool {
        let (x, _) = spawn_position(kind, self.board.width());
        let y = self.spawn_row;
        self.active = Some(Active {
            kind,
            state: 0,
            x,
            y,
        });
        self.spawned += 1;
        self.gravity_clock = 0;
        self.lock_clock = 0;
        self.resets_used = 0;
        self.board.fits(kind, 0, x, y)
    }

    /// Replaces the numbers the rules run on (at an event).
    pub fn set_config(&mut self, config: Config) {
        self.config = config;
        self.fill_queue();
    }

    /// The numbers the rules run on.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Sets the randomizer for pieces drawn from now on.
    pub fn set_randomizer(&mut self, randomizer: Randomizer) {
        self.source.set_randomizer(randomizer);
    }

    /// The locked cells.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Colour code per cell, row-major (0 empty, 1-7 pieces, 8 garbage).
    pub fn colours(&self) -> &[u8] {
        &self.colours
    }

    /// The garbage cells still on the board.
    pub fn garbage(&self) -> &Board {
        &self.garbage
    }

    /// The piece in play.
    pub fn active(&self) -> Option<Active> {
        self.active
    }

    /// Where the piece in play would land on a hard drop.
    pub fn ghost(&self) -> Option<Active> {
        let mut a = self.active?;
        while self.board.fits(a.kind, a.state, a.x, a.y + 1) {
            a.y += 1;
        }
        Some(a)
    }

    /// The next pieces, first to come first.
    pub fn queue(&self) -> impl Iterator<Item = PieceKind> + '_ {
        self.queue.iter().copied().take(self.config.preview)
    }

    /// The held piece.
    pub fn held_piece(&self) -> Option<PieceKind> {
        self.hold
    }

    /// Whether hold was used for the piece in play.
    pub fn hold_used(&self) -> bool {
        self.hold_used
    }

    /// Whether time is stopped.
    pub fn is_paused(&self) -> bool {
        self.paused
    }

    /// Whether the field takes no more input (top-out, pieces used up).
    pub fn is_over(&self) -> bool {
        self.over
    }

    /// Ends play (the game decided: won or lost).
    pub fn finish(&mut self) {
        self.over = true;
        self.held = [Held::default(); 3];
    }

    /// Ticks played (paused ticks do not count).
    pub fn ticks(&self) -> u64 {
        self.ticks
    }

    /// Pieces locked.
    pub fn locked(&self) -> u64 {
        self.locked
    }

    /// Pieces spawned (a held piece swapped back in counts again).
    pub fn spawned(&self) -> u64 {
        self.spawned
    }

    /// Rows cleared.
    pub fn rows_cleared(&self) -> u64 {
        self.rows_cleared
    }

    /// Toggles pause.
    pub fn toggle_pause(&mut self) {
        if !self.over {
            self.paused = !self.paused;
        }
    }

    fn playing(&self) -> Option<Active> {
        if self.paused || self.over {
            None
        } else {
            self.active
        }
    }

    fn grounded(&self, a: &Active) -> bool {
        !self.board.fits(a.kind, a.state, a.x, a.y + 1)
    }

    /// A successful move or turn on the ground restarts the lock delay
    /// (up to the reset limit).
    fn moved(&mut self, was_grounded: bool) {
        if self.config.lock_delay_ticks > 0
            && was_grounded
            && self.resets_used < self.config.lock_resets
        {
            self.lock_clock = 0;
            self.resets_used += 1;
        }
    }

    /// One column left or right; false when blocked.
    pub fn shift(&mut self, dx: i32) -> bool {
        let Some(mut a) = self.playing() else {
            return false;
        };
        if !self.board.fits(a.kind, a.state, a.x + dx, a.y) {
            return false;
        }
        let grounded = self.grounded(&a);
        a.x += dx;
        self.active = Some(a);
        self.moved(grounded);
        true
    }

    /// A turn with the rotation system's kicks; false when refused.
    pub fn rotate(&mut self, clockwise: bool) -> bool {
        let Some(a) = self.playing() else {
            return false;
        };
        let system = self.config.rotation;
        // A state the system does not have (after a switch) turns from 0.
        let state = if a.state >= system.states(a.kind) {
            0
        } else {
            a.state
        };
        let Some((x, y, state)) = turn(&self.board, system, a.kind, state, a.x, a.y, clockwise)
        else {
            return false;
        };
        let grounded = self.grounded(&a);
        self.active = Some(Active { state, x, y, ..a });
        self.moved(grounded);
        true
    }

    /// One row down; false on the ground (soft drop never locks).
    pub fn soft_drop(&mut self) -> bool {
        let Some(mut a) = self.playing() else {
            return false;
        };
        if self.grounded(&a) {
            return false;
        }
        a.y += 1;
        self.active = Some(a);
        self.gravity_clock = 0;
        true
    }

    /// Drops to the bottom and locks.
    pub fn hard_drop(&mut self) -> Option<Lock> {
        let a = self.ghost()?;
        self.playing()?;
        Some(self.lock(a))
    }

    /// Swaps the piece in play with the hold box (once per piece).
    pub fn hold(&mut self) -> Option<Lock> {
        let a = self.playing()?;
        if !self.config.hold || self.hold_used {
            return None;
        }
        let previous = self.hold.replace(a.kind);
        self.hold_used = true;
        let spawned = match previous {
            Some(kind) => self.spawn(kind),
            None => self.spawn_next(),
        };
        if !spawned {
            self.over = true;
            return Some(Lock {
                placement: a.placement(),
                lines: 0,
                topped_out: self.active.is_some(),
                out_of_pieces: self.active.is_none(),
            });
        }
        None
    }

    /// Puts the piece in play at `placement` (already known reachable) and
    /// locks it there.
    pub fn lock_at(&mut self, placement: Placement) -> Option<Lock> {
        let a = self.playing()?;
        if a.kind != placement.kind {
            return None;
        }
        Some(self.lock(Active {
            kind: placement.kind,
            state: placement.state,
            x: placement.x,
            y: placement.y,
        }))
    }

    /// Presses a key: one move now, auto-repeat while held.
    pub fn press(&mut self, key: Key) {
        let held = &mut self.held[key as usize];
        if held.down {
            return;
        }
        *held = Held {
            down: true,
            clock: 0,
        };
        match key {
            Key::Left => {
                self.last_side = Key::Left;
                self.shift(-1);
            }
            Key::Right => {
                self.last_side = Key::Right;
                self.shift(1);
            }
            Key::Down => {
                self.soft_drop();
            }
        }
    }

    /// Releases a key.
    pub fn release(&mut self, key: Key) {
        self.held[key as usize] = Held::default();
    }

    /// Whether a key is held.
    pub fn is_held(&self, key: Key) -> bool {
        self.held[key as usize].down
    }

    /// One tick: auto-repeat, gravity, lock delay. Returns the lock when
    /// the piece locked.
    pub fn tick(&mut self) -> Option<Lock> {
        let a = self.playing()?;
        self.ticks += 1;
        // Auto-repeat of the side key pressed last.
        let side = self.last_side;
        let held = &mut self.held[side as usize];
        if held.down {
            held.clock += 1;
            let (das, arr) = (self.config.das_ticks, self.config.arr_ticks);
            let clock = held.clock;
            let dx = if side == Key::Left { -1 } else { 1 };
            if clock >= das {
                if arr == 0 {
                    while self.shift(dx) {}
                } else if (clock - das).is_multiple_of(arr) {
                    self.shift(dx);
                }
            }
        }
        let a = self.active.unwrap_or(a);
        let interval = if self.held[Key::Down as usize].down {
            self.config.soft_drop_ticks.min(self.config.fall_ticks)
        } else {
            self.config.fall_ticks
        }
        .max(1);
        self.gravity_clock += 1;
        if !self.grounded(&a) {
            if self.gravity_clock >= interval {
                self.gravity_clock = 0;
                self.active = Some(Active { y: a.y + 1, ..a });
            }
            return None;
        }
        if self.config.lock_delay_ticks == 0 {
            if self.gravity_clock >= interval {
                return Some(self.lock(a));
            }
        } else {
            self.lock_clock += 1;
            if self.lock_clock >= self.config.lock_delay_ticks {
                return Some(self.lock(a));
            }
        }
        None
    }

    fn lock(&mut self, a: Active) -> Lock {
        let width = self.board.width();
        let colour = a.kind.colour();
        self.board.place(a.kind, a.state, a.x, a.y);
        for (x, y) in a.placement().cells() {
            if x >= 0 && y >= 0 {
                self.colours[y as usize * width + x as usize] = colour;
            }
        }
        let cleared = self.board.clear_full_rows();
        if cleared != 0 {
            self.garbage.clear_rows(cleared);
            clear_colour_rows(&mut self.colours, width, self.board.height(), cleared);
        }
        let lines = cleared.count_ones();
        self.locked += 1;
        self.rows_cleared += u64::from(lines);
        self.hold_used = false;
        let mut topped_out = self.reaches_danger();
        let mut out_of_pieces = false;
        if self.fed {
            self.active = None;
        } else if !topped_out {
            if self.queue.is_empty() && self.source.is_fixed() {
                self.fill_queue();
            }
            if self.queue.is_empty() {
                out_of_pieces = true;
                self.active = None;
            } else if !self.spawn_next() {
                topped_out = true;
            }
        }
        if topped_out || out_of_pieces {
            self.over = true;
        }
        Lock {
            placement: a.placement(),
            lines,
            topped_out,
            out_of_pieces,
        }
    }
}

/// Removes the rows of `cleared` from a row-major colour grid, moving the
/// rows above down (the same as [`Board::clear_full_rows`]).
fn clear_colour_rows(colours: &mut [u8], width: usize, height: usize, cleared: u64) {
    let mut write = height;
    for read in (0..height).rev() {
        if cleared >> read & 1 == 1 {
            continue;
        }
        write -= 1;
        if write != read {
            colours.copy_within(read * width..(read + 1) * width, write * width);
        }
    }
    colours[..write * width].fill(0);
}
