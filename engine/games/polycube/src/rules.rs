//! The board and the placement pipeline: WrongCount, ShapeMismatch,
//! OutOfBounds, Collision, Floating, and in assembly mode Blocked, checked
//! in that order; move with rollback, pick up, undo and redo.

use std::fmt;

use serde::{Deserialize, Serialize};
use tessera_host::text::count;

use super::disassembly::{Blocked, Direction, slide_path};
use super::geometry::{
    Cell, DIRECTIONS, MIRROR_X, Orientation, normalize, orientations, rotations, transform,
};
use super::level::{MAX_EXTENT, PolycubeLevel};

/// A cell as players, files, actions and messages write it: 1-based
/// `(x, y, z)`, z = 1 the floor. The engine works 0-based ([`Cell`]);
/// this type is the one place the two meet, so no call site adds or
/// subtracts 1 by hand. Wide (`i64`) so that any `i32` input converts
/// without overflow.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Pos(pub i64, pub i64, pub i64);

/// A 1-based cell as actions and level files store it: `(x, y, z)`.
pub type UserCell = (i32, i32, i32);

impl Pos {
    /// The 1-based position of a 0-based cell.
    pub fn of(c: Cell) -> Self {
        Pos(
            i64::from(c[0]) + 1,
            i64::from(c[1]) + 1,
            i64::from(c[2]) + 1,
        )
    }

    /// A position as written in an action or a level file.
    pub fn from_user(c: UserCell) -> Self {
        Pos(i64::from(c.0), i64::from(c.1), i64::from(c.2))
    }

    /// The 0-based cell, widened (may lie outside any box).
    pub fn zero_based(self) -> [i64; 3] {
        [self.0 - 1, self.1 - 1, self.2 - 1]
    }

    /// The form actions and level files store (saturating at `i32`'s
    /// range, far outside any box).
    pub fn user(self) -> UserCell {
        let narrow = |v: i64| v.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32;
        (narrow(self.0), narrow(self.1), narrow(self.2))
    }
}

/// The 1-based form of a 0-based cell, as actions store it.
pub fn user_cell(c: Cell) -> UserCell {
    Pos::of(c).user()
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {}, {})", self.0, self.1, self.2)
    }
}

/// Why a placement, move, pick-up, undo or redo was refused. The first
/// word of each message is the error's name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlacementError {
    /// No piece has this id.
    #[error("UnknownPiece: there is no piece `{0}`")]
    UnknownPiece(String),
    /// Placing a piece that is already in the box.
    #[error("AlreadyPlaced: piece `{0}` is already in the box (move it instead)")]
    AlreadyPlaced(String),
    /// Moving or picking up a piece that is in the tray.
    #[error("NotPlaced: piece `{0}` is not in the box")]
    NotPlaced(String),
    /// The number of target cells differs from the piece's size.
    #[error(
        "WrongCount: piece `{piece}` has {}, {given} {} given",
        count(*expected, "cell"),
        if *given == 1 { "was" } else { "were" }
    )]
    WrongCount {
        /// The piece id.
        piece: String,
        /// Its cell count.
        expected: usize,
        /// Distinct target cells given.
        given: usize,
    },
    /// The target cells are not the piece in any rotation.
    #[error("ShapeMismatch: those cells are not piece `{0}` in any of its rotations")]
    ShapeMismatch(String),
    /// The target cells are the piece's mirror image: the right shape, the
    /// wrong hand (no rotation turns a chiral piece into its mirror).
    #[error(
        "ShapeMismatch: those cells are the mirror image of piece `{0}`; no rotation makes it fit that way (it is the other hand)"
    )]
    MirrorImage(String),
    /// A cell would lie outside the box.
    #[error("OutOfBounds: cell {cell} is outside the {a}x{b}x{c} box")]
    OutOfBounds {
        /// The first offending cell (1-based).
        cell: Pos,
        /// Box extent x.
        a: usize,
        /// Box extent y.
        b: usize,
        /// Box extent z.
        c: usize,
    },
    /// A cell is already taken.
    #[error("Collision: cell {cell} is taken by piece `{other}`")]
    Collision {
        /// The first taken cell (1-based).
        cell: Pos,
        /// The piece holding it.
        other: String,
    },
    /// No face touches the floor or another piece.
    #[error("Floating: piece `{0}` would touch neither the floor (z = 1) nor another piece")]
    Floating(String),
    /// Assembly mode: the piece cannot slide into place in a straight line
    /// from outside the box; every way in passes through other pieces.
    #[error(
        "Blocked: piece `{piece}` cannot slide in along a straight line from outside the box (assembly mode); the least blocked way, from the {side} side, passes through {}",
        list_cells(.cells)
    )]
    Blocked {
        /// The piece id.
        piece: String,
        /// The side of the box it would come in from (`+z`: from above).
        side: String,
        /// Other pieces' cells in the way on that side (1-based, sorted).
        cells: Vec<Pos>,
    },
    /// A rotation index outside 0..24.
    #[error("BadRotation: there is no rotation {0}; rotations are numbered 0 to 23")]
    BadRotation(u8),
    /// Undo with an empty history.
    #[error("NothingToUndo: there is nothing to undo")]
    NothingToUndo,
    /// Redo with nothing undone.
    #[error("NothingToRedo: there is nothing to redo")]
    NothingToRedo,
}

impl PlacementError {
    /// The error's name, as shown on the ghost.
    pub fn name(&self) -> &'static str {
        match self {
            PlacementError::UnknownPiece(_) => "UnknownPiece",
            PlacementError::AlreadyPlaced(_) => "AlreadyPlaced",
            PlacementError::NotPlaced(_) => "NotPlaced",
            PlacementError::WrongCount { .. } => "WrongCount",
            PlacementError::ShapeMismatch(_) | PlacementError::MirrorImage(_) => "ShapeMismatch",
            PlacementError::OutOfBounds { .. } => "OutOfBounds",
            PlacementError::Collision { .. } => "Collision",
            PlacementError::Floating(_) => "Floating",
            PlacementError::Blocked { .. } => "Blocked",
            PlacementError::BadRotation(_) => "BadRotation",
            PlacementError::NothingToUndo => "NothingToUndo",
            PlacementError::NothingToRedo => "NothingToRedo",
        }
    }
}

/// `(1, 2, 3), (1, 2, 4)`: cells in a message.
fn list_cells(cells: &[Pos]) -> String {
    let text: Vec<String> = cells.iter().map(Pos::to_string).collect();
    text.join(", ")
}

impl PlacementError {
    /// The message in words a player understands, without the error's name
    /// (shown on the ghost and in the playtest).
    pub fn explanation(&self) -> String {
        let text = self.to_string();
        match text.split_once(": ") {
            Some((name, rest)) if name == self.name() => rest.to_string(),
            _ => text,
        }
    }
}

/// A piece's pose in the box: a rotation and where the rotated piece's
/// bounding-box corner (its anchor) sits, plus the cells that results in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlacedPiece {
    /// Index into [`rotations`] (the first rotation giving this shape).
    pub rotation: u8,
    /// 0-based anchor: the smallest x, y and z of the cells.
    pub anchor: Cell,
    /// 0-based cells, sorted.
    pub cells: Vec<Cell>,
}

/// One piece of the level as the rules see it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PieceInfo {
    /// Id from the level.
    pub id: String,
    /// One letter for text pictures.
    pub letter: char,
    /// Normalised 0-based cells.
    pub shape: Vec<Cell>,
    /// Its distinct orientations.
    pub orientations: Vec<Orientation>,
}

/// One undoable change: a piece's pose before and after.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Change {
    /// Index of the piece.
    pub piece: usize,
    /// Pose before (`None`: in the tray).
    pub before: Option<PlacedPiece>,
    /// Pose after.
    pub after: Option<PlacedPiece>,
}

/// The board state: which piece holds each cell, each piece's pose, and
/// the undo and redo stacks.
#[derive(Debug, Clone)]
pub struct Rules {
    size: [usize; 3],
    pieces: Vec<PieceInfo>,
    owner: Vec<Option<u16>>,
    placed: Vec<Option<PlacedPiece>>,
    history: Vec<Change>,
    future: Vec<Change>,
    support_rule: bool,
    /// Assembly mode: every placement must slide straight in.
    assembly: bool,
}

/// Letters for pieces whose ids do not give unique first letters.
const LETTERS: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

impl Rules {
    /// An empty box for a level (which must have passed its diagnosis).
    pub fn new(level: &PolycubeLevel, support_rule: bool) -> Self {
        let size = level.extents();
        let shapes = level.shapes();
        let firsts: Vec<Option<char>> = level
            .pieces
            .iter()
            .map(|p| p.id.chars().next().filter(|c| c.is_ascii_alphanumeric()))
            .collect();
        let unique = firsts
            .iter()
            .enumerate()
            .all(|(i, c)| c.is_some() && !firsts[..i].contains(c));
        let pieces = level
            .pieces
            .iter()
            .zip(shapes)
            .enumerate()
            .map(|(i, (spec, shape))| PieceInfo {
                id: spec.id.clone(),
                letter: match firsts[i] {
                    Some(c) if unique => c,
                    _ => LETTERS.chars().nth(i % LETTERS.len()).unwrap_or('#'),
                },
                orientations: orientations(&shape),
                shape,
            })
            .collect::<Vec<_>>();
        Self {
            size,
            owner: vec![None; size[0] * size[1] * size[2]],
            placed: vec![None; pieces.len()],
            pieces,
            history: Vec::new(),
            future: Vec::new(),
            support_rule,
            assembly: false,
        }
    }

    /// Box extents (x, y, z).
    pub fn size(&self) -> [usize; 3] {
        self.size
    }

    /// The pieces, level order.
    pub fn pieces(&self) -> &[PieceInfo] {
        &self.pieces
    }

    /// Pose of piece `i`, `None` while in the tray.
    pub fn placement(&self, i: usize) -> Option<&PlacedPiece> {
        self.placed.get(i).and_then(Option::as_ref)
    }

    /// Whether the support rule is on.
    pub fn support_rule(&self) -> bool {
        self.support_rule
    }

    /// Turns the support rule on or off (script setting).
    pub fn set_support_rule(&mut self, on: bool) {
        self.support_rule = on;
    }

    /// Whether assembly mode is on (placements must slide straight in).
    pub fn assembly(&self) -> bool {
        self.assembly
    }

    /// Turns assembly mode on or off (the session's mode).
    pub fn set_assembly(&mut self, on: bool) {
        self.assembly = on;
    }

    /// The piece holding a 0-based cell.
    pub fn owner(&self, c: Cell) -> Option<usize> {
        self.index(c).and_then(|i| self.owner[i]).map(usize::from)
    }

    /// Undoable changes so far.
    pub fn history(&self) -> &[Change] {
        &self.history
    }

    /// Undone changes, most recent last.
    pub fn future(&self) -> &[Change] {
        &self.future
    }

    /// Whether undo is possible.
    pub fn can_undo(&self) -> bool {
        !self.history.is_empty()
    }

    /// Whether redo is possible.
    pub fn can_redo(&self) -> bool {
        !self.future.is_empty()
    }

    /// The index of piece `id`.
    pub fn piece_index(&self, id: &str) -> Result<usize, PlacementError> {
        self.pieces
            .iter()
            .position(|p| p.id == id)
            .ok_or_else(|| PlacementError::UnknownPiece(id.to_string()))
    }

    fn index(&self, c: Cell) -> Option<usize> {
        let inside = (0..3).all(|a| c[a] >= 0 && (c[a] as usize) < self.size[a]);
        inside
            .then(|| c[0] as usize + self.size[0] * (c[1] as usize + self.size[1] * c[2] as usize))
    }

    /// Every piece placed and every cell filled.
    pub fn is_won(&self) -> bool {
        self.placed.iter().all(Option::is_some) && self.owner.iter().all(Option::is_some)
    }

    /// Pieces placed so far.
    pub fn placed_count(&self) -> usize {
        self.placed.iter().filter(|p| p.is_some()).count()
    }

    /// Recovers a pose from 1-based target cells: WrongCount, then
    /// ShapeMismatch. Does not look at the box.
    pub fn match_cells(
        &self,
        piece: usize,
        targets: &[(i32, i32, i32)],
    ) -> Result<PlacedPiece, PlacementError> {
        let info = &self.pieces[piece];
        // i64 so that any i32 input subtracts without overflow.
        let mut wide: Vec<[i64; 3]> = targets
            .iter()
            .map(|&c| Pos::from_user(c).zero_based())
            .collect();
        wide.sort_unstable();
        wide.dedup();
        if wide.len() != info.shape.len() {
            return Err(PlacementError::WrongCount {
                piece: info.id.clone(),
                expected: info.shape.len(),
                given: wide.len(),
            });
        }
        let min: [i64; 3] = std::array::from_fn(|a| wide.iter().map(|c| c[a]).min().unwrap_or(0));
        let mut shape = Vec::with_capacity(wide.len());
        for c in &wide {
            let rel: [i64; 3] = std::array::from_fn(|a| c[a] - min[a]);
            if rel.iter().any(|&v| v > MAX_EXTENT) {
                return Err(PlacementError::ShapeMismatch(info.id.clone()));
            }
            shape.push([rel[0] as i32, rel[1] as i32, rel[2] as i32]);
        }
        let shape = normalize(&shape);
        let Some(orientation) = info.orientations.iter().find(|o| o.cells == shape) else {
            // An achiral piece's mirror images are among its rotations, so
            // this only names the wrong hand of a chiral piece.
            let other_hand = info
                .orientations
                .iter()
                .any(|o| transform(&o.cells, &MIRROR_X) == shape);
            return Err(if other_hand {
                PlacementError::MirrorImage(info.id.clone())
            } else {
                PlacementError::ShapeMismatch(info.id.clone())
            });
        };
        // The anchor may lie outside the box (or even outside i32); keep it
        // saturated so OutOfBounds reports the right first cell.
        let anchor: Cell = std::array::from_fn(|a| min[a].clamp(-(1 << 20), 1 << 20) as i32);
        Ok(PlacedPiece {
            rotation: orientation.rotation,
            anchor,
            cells: orientation
                .cells
                .iter()
                .map(|c| [c[0] + anchor[0], c[1] + anchor[1], c[2] + anchor[2]])
                .collect(),
        })
    }

    /// The pose for rotation `rotation` (0..24) with the anchor at the
    /// 1-based `at`.
    pub fn pose_at(
        &self,
        piece: usize,
        rotation: u8,
        at: (i32, i32, i32),
    ) -> Result<PlacedPiece, PlacementError> {
        let Some(r) = rotations().get(usize::from(rotation)) else {
            return Err(PlacementError::BadRotation(rotation));
        };
        let shape = transform(&self.pieces[piece].shape, r);
        // The first rotation index that gives this shape, so equal poses
        // compare equal.
        let rotation = self.pieces[piece]
            .orientations
            .iter()
            .find(|o| o.cells == shape)
            .map_or(rotation, |o| o.rotation);
        let clamp = |v: i64| v.clamp(-(1 << 20), 1 << 20) as i32;
        let [x, y, z] = Pos::from_user(at).zero_based();
        let anchor = [clamp(x), clamp(y), clamp(z)];
        Ok(PlacedPiece {
            rotation,
            anchor,
            cells: shape
                .iter()
                .map(|c| [c[0] + anchor[0], c[1] + anchor[1], c[2] + anchor[2]])
                .collect(),
        })
    }

    /// OutOfBounds, Collision, Floating and (assembly mode) Blocked for
    /// `piece` at `pose` (its own current cells count as free, so this
    /// also checks moves).
    pub fn check_pose(&self, piece: usize, pose: &PlacedPiece) -> Result<(), PlacementError> {
        self.check_fit(piece, pose)?;
        if self.support_rule && self.supports(piece, &pose.cells).is_empty() {
            return Err(PlacementError::Floating(self.pieces[piece].id.clone()));
        }
        if self.assembly
            && let Err(blocked) = self.slide_in(piece, &pose.cells)
        {
            return Err(PlacementError::Blocked {
                piece: self.pieces[piece].id.clone(),
                side: blocked.direction.to_string(),
                cells: blocked.cells.into_iter().map(Pos::of).collect(),
            });
        }
        Ok(())
    }

    /// How `piece` could slide straight into `cells` from outside the box
    /// past the other placed pieces, or what blocks its least blocked way.
    pub fn slide_in(&self, piece: usize, cells: &[Cell]) -> Result<Direction, Blocked> {
        slide_path(self.size, cells, |c| {
            self.owner(c).is_some_and(|o| o != piece)
        })
    }

    /// OutOfBounds and Collision only.
    fn check_fit(&self, piece: usize, pose: &PlacedPiece) -> Result<(), PlacementError> {
        for &c in &pose.cells {
            if self.index(c).is_none() {
                return Err(PlacementError::OutOfBounds {
                    cell: Pos::of(c),
                    a: self.size[0],
                    b: self.size[1],
                    c: self.size[2],
                });
            }
        }
        for &c in &pose.cells {
            if let Some(other) = self.owner(c).filter(|&o| o != piece) {
                return Err(PlacementError::Collision {
                    cell: Pos::of(c),
                    other: self.pieces[other].id.clone(),
                });
            }
        }
        Ok(())
    }

    /// The cells of `cells` that give support: on the floor, or face to
    /// face with another piece (for highlighting contacts).
    pub fn supports(&self, piece: usize, cells: &[Cell]) -> Vec<Cell> {
        cells
            .iter()
            .copied()
            .filter(|c| {
                c[2] == 0
                    || DIRECTIONS.iter().any(|d| {
                        self.owner([c[0] + d[0], c[1] + d[1], c[2] + d[2]])
                            .is_some_and(|o| o != piece)
                    })
            })
            .collect()
    }

    /// The whole pipeline for target cells: what placing `piece` there
    /// would give (no change is made).
    pub fn try_cells(
        &self,
        piece: usize,
        targets: &[(i32, i32, i32)],
    ) -> Result<PlacedPiece, PlacementError> {
        let pose = self.match_cells(piece, targets)?;
        self.check_pose(piece, &pose)?;
        Ok(pose)
    }

    /// The pipeline for rotation + anchor (no change is made).
    pub fn try_at(
        &self,
        piece: usize,
        rotation: u8,
        at: (i32, i32, i32),
    ) -> Result<PlacedPiece, PlacementError> {
        let pose = self.pose_at(piece, rotation, at)?;
        self.check_pose(piece, &pose)?;
        Ok(pose)
    }

    /// Places a tray piece on 1-based target cells.
    pub fn place_cells(
        &mut self,
        piece: usize,
        targets: &[(i32, i32, i32)],
    ) -> Result<(), PlacementError> {
        self.require_tray(piece)?;
        let pose = self.try_cells(piece, targets)?;
        self.commit(piece, Some(pose));
        Ok(())
    }

    /// Places a tray piece by rotation and 1-based anchor.
    pub fn place_at(
        &mut self,
        piece: usize,
        rotation: u8,
        at: (i32, i32, i32),
    ) -> Result<(), PlacementError> {
        self.require_tray(piece)?;
        let pose = self.try_at(piece, rotation, at)?;
        self.commit(piece, Some(pose));
        Ok(())
    }

    /// Moves a placed piece to target cells; on failure it stays where it
    /// was (the checks run with its own cells free, nothing is changed).
    pub fn move_cells(
        &mut self,
        piece: usize,
        targets: &[(i32, i32, i32)],
    ) -> Result<(), PlacementError> {
        self.require_placed(piece)?;
        let pose = self.try_cells(piece, targets)?;
        self.commit(piece, Some(pose));
        Ok(())
    }

    /// Moves a placed piece by rotation and anchor; rollback as
    /// [`Rules::move_cells`].
    pub fn move_at(
        &mut self,
        piece: usize,
        rotation: u8,
        at: (i32, i32, i32),
    ) -> Result<(), PlacementError> {
        self.require_placed(piece)?;
        let pose = self.try_at(piece, rotation, at)?;
        self.commit(piece, Some(pose));
        Ok(())
    }

    /// Takes a placed piece back to the tray.
    pub fn pick_up(&mut self, piece: usize) -> Result<(), PlacementError> {
        self.require_placed(piece)?;
        self.commit(piece, None);
        Ok(())
    }

    /// Reverts the last change.
    pub fn undo(&mut self) -> Result<(), PlacementError> {
        let change = self.history.pop().ok_or(PlacementError::NothingToUndo)?;
        self.set(change.piece, change.before.clone());
        self.future.push(change);
        Ok(())
    }

    /// Re-applies the last undone change.
    pub fn redo(&mut self) -> Result<(), PlacementError> {
        let change = self.future.pop().ok_or(PlacementError::NothingToRedo)?;
        self.set(change.piece, change.after.clone());
        self.history.push(change);
        Ok(())
    }

    fn require_tray(&self, piece: usize) -> Result<(), PlacementError> {
        match self.placed[piece] {
            Some(_) => Err(PlacementError::AlreadyPlaced(self.pieces[piece].id.clone())),
            None => Ok(()),
        }
    }

    fn require_placed(&self, piece: usize) -> Result<(), PlacementError> {
        match self.placed[piece] {
            Some(_) => Ok(()),
            None => Err(PlacementError::NotPlaced(self.pieces[piece].id.clone())),
        }
    }

    fn commit(&mut self, piece: usize, after: Option<PlacedPiece>) {
        let before = self.placed[piece].clone();
        self.set(piece, after.clone());
        self.history.push(Change {
            piece,
            before,
            after,
        });
        self.future.clear();
    }

    /// Puts a piece in a pose (or the tray), keeping `owner` equal to the
    /// union of the placed pieces.
    fn set(&mut self, piece: usize, pose: Option<PlacedPiece>) {
        if let Some(old) = self.placed[piece].take() {
            for c in old.cells {
                if let Some(i) = self.index(c) {
                    self.owner[i] = None;
                }
            }
        }
        if let Some(new) = &pose {
            for &c in &new.cells {
                if let Some(i) = self.index(c) {
                    self.owner[i] = Some(piece as u16);
                }
            }
        }
        self.placed[piece] = pose;
    }

    /// Whether `pose` is really piece `piece` in that rotation and anchor,
    /// inside the box and clear of other pieces (support not checked).
    fn is_pose_of(&self, piece: usize, pose: &PlacedPiece) -> bool {
        self.pose_at(piece, pose.rotation, user_cell(pose.anchor))
            .is_ok_and(|c| c.cells == pose.cells && self.check_fit(piece, &c).is_ok())
    }

    /// Restores poses and stacks (a saved game), checking every pose.
    pub fn restore(
        &mut self,
        placed: Vec<Option<PlacedPiece>>,
        history: Vec<Change>,
        future: Vec<Change>,
    ) -> Result<(), String> {
        if placed.len() != self.pieces.len() {
            return Err(format!(
                "the save holds {}, the level {}",
                count(placed.len(), "piece"),
                self.pieces.len()
            ));
        }
        for (i, pose) in placed.into_iter().enumerate() {
            if let Some(pose) = pose {
                if !self.is_pose_of(i, &pose) {
                    return Err(format!(
                        "piece `{}` has an impossible pose",
                        self.pieces[i].id
                    ));
                }
                self.set(i, Some(pose));
            }
        }
        let bad = |c: &Change| c.piece >= self.pieces.len();
        if history.iter().chain(&future).any(bad) {
            return Err("the history names a piece the level does not have".into());
        }
        // Replay the stacks on copies: undo must walk back from the saved
        // board and redo forward from it, through legal boards only.
        let consistent = |start: &Rules,
                          steps: &mut dyn Iterator<
            Item = (usize, &Option<PlacedPiece>, &Option<PlacedPiece>),
        >| {
            let mut board = start.clone();
            for (piece, from, to) in steps {
                if board.placed[piece] != *from {
                    return false;
                }
                if let Some(pose) = to
                    && !board.is_pose_of(piece, pose)
                {
                    return false;
                }
                board.set(piece, to.clone());
            }
            true
        };
        let back = consistent(
            self,
            &mut history.iter().rev().map(|c| (c.piece, &c.after, &c.before)),
        );
        let forward = consistent(
            self,
            &mut future.iter().rev().map(|c| (c.piece, &c.before, &c.after)),
        );
        if !back || !forward {
            return Err("the saved undo history does not match the saved board".into());
        }
        self.history = history;
        self.future = future;
        Ok(())
    }

    /// The box as text, one block per layer, z = 1 first; rows y = 1 first,
    /// columns x = 1 first; a letter per piece, `.` for empty.
    pub fn render_text(&self) -> String {
        // Past 62 pieces one character cannot tell them apart: every cell
        // gets a two-character label (`AA`, `AB`, ..., `..` for empty).
        let wide = self.pieces.len() > LETTERS.len();
        let letters: Vec<char> = LETTERS.chars().collect();
        let mut out = String::new();
        for z in 0..self.size[2] {
            out.push_str(&format!("z={}\n", Pos::of([0, 0, z as i32]).2));
            for y in 0..self.size[1] {
                for x in 0..self.size[0] {
                    let c = [x as i32, y as i32, z as i32];
                    match (self.owner(c), wide) {
                        (Some(p), false) => out.push(self.pieces[p].letter),
                        (None, false) => out.push('.'),
                        (Some(p), true) => {
                            out.push(letters[(p / letters.len()) % letters.len()]);
                            out.push(letters[p % letters.len()]);
                        }
                        (None, true) => out.push_str(".."),
                    }
                }
                out.push('\n');
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::{Pos, user_cell};

    #[test]
    fn one_based_positions_convert_both_ways_without_overflow() {
        assert_eq!(user_cell([0, 0, 0]), (1, 1, 1));
        assert_eq!(Pos::from_user((1, 2, 3)).zero_based(), [0, 1, 2]);
        assert_eq!(Pos::from_user(user_cell([4, 5, 6])).zero_based(), [4, 5, 6]);
        assert_eq!(
            Pos::from_user((i32::MIN, 0, 0)).zero_based()[0],
            i64::from(i32::MIN) - 1
        );
        assert_eq!(user_cell([i32::MAX, 0, 0]).0, i32::MAX);
        assert_eq!(Pos::of([2, 0, 9]).to_string(), "(3, 1, 10)");
    }
}
