//! Polycube packing (seed 003): fill an A x B x C box with polycube pieces.
//!
//! - [`geometry`]: cells, the 24 rotations, signatures.
//! - [`level`]: the RON level format and its diagnosis; [`import`]: the two
//!   JSON formats.
//! - [`rules`]: the board and the placement pipeline.
//! - [`solver`]: exact cover on bit masks; [`hint`] and [`disassembly`]
//!   build on it.
//!
//! Tunables (support rule, hints, stars, tick rate) come from
//! `scripts/polycube.lua`, read once per event.

pub mod budget;
pub mod cli;
pub mod count;
mod cover;
mod depth;
pub mod disassembly;
pub mod generate;
pub mod geometry;
pub mod hint;
pub mod import;
pub mod level;
pub mod mask;
mod near;
mod prune;
pub mod rules;
mod search;
pub mod solver;
mod unique_keys;
pub mod validate;

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, OnceLock};

use serde::{Deserialize, Serialize};

use tessera_host::AgentGame;
use tessera_host::level::Diagnostic;
use tessera_host::options::ModeSpec;
use tessera_host::plugin::{Game, GameError, GameEvent, Outcome, Setup};
use tessera_host::plugin::{LevelFormats, Scripted};
use tessera_host::registrar::{Plugin, Registrar};
use tessera_host::script::{FieldKind, FieldSpec, LiveScript, Script, ScriptSchema};
use tessera_host::text::count;
use tessera_host::{Agent, Decision, GameSpec, Thinking};

pub use count::{CountOptions, CountReport, Shard};
pub use level::{PieceSpec, PolycubeLevel};
pub use rules::{PlacedPiece, PlacementError, Pos, Rules, UserCell, user_cell};
pub use solver::{Counts, Solver, Verdict};

/// One player action. Cells and anchors are 1-based `(x, y, z)`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum PolycubeAction {
    /// Put a tray piece on these target cells (rotation and position are
    /// recovered from the shape).
    Place {
        /// Piece id.
        piece: String,
        /// Target cells.
        cells: Vec<(i32, i32, i32)>,
    },
    /// Put a tray piece in rotation `rotation` (0..24) with its bounding-box
    /// corner at `at`.
    PlaceAt {
        /// Piece id.
        piece: String,
        /// Rotation index.
        rotation: u8,
        /// Anchor cell.
        at: (i32, i32, i32),
    },
    /// Move a placed piece onto target cells (on failure it stays put).
    Move {
        /// Piece id.
        piece: String,
        /// Target cells.
        cells: Vec<(i32, i32, i32)>,
    },
    /// Move a placed piece to a rotation and anchor.
    MoveAt {
        /// Piece id.
        piece: String,
        /// Rotation index.
        rotation: u8,
        /// Anchor cell.
        at: (i32, i32, i32),
    },
    /// Take a placed piece back to the tray.
    PickUp {
        /// Piece id.
        piece: String,
    },
    /// Revert the last place, move or pick-up.
    Undo,
    /// Re-apply the last undone change.
    Redo,
    /// Let the solver place one piece (uses up one of the level's hints).
    Hint,
}

/// A saved game: the level, every piece's pose (1-based anchor), the undo
/// and redo stacks, and the clock. RON, like every other file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SavedGame {
    /// The level as played.
    pub level: PolycubeLevel,
    /// Pose of each piece, level order (`None`: in the tray).
    pub placed: Vec<Option<PlacedPiece>>,
    /// Undoable changes, oldest first.
    pub history: Vec<rules::Change>,
    /// Undone changes, for redo.
    pub future: Vec<rules::Change>,
    /// Ticks played.
    pub ticks: u64,
    /// Successful actions.
    pub moves: u32,
    /// Hints used.
    pub hints_used: u32,
}

/// The script's settings, read at start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Settings {
    /// Whether placements need support (the Floating check).
    pub support_rule: bool,
    /// Hints this level allows.
    pub hints_allowed: u32,
    /// Ticks per second, for the time shown and the star rating.
    pub ticks_per_second: u32,
}

/// Seed defaults, used where the script is silent.
const DEFAULT_SETTINGS: Settings = Settings {
    support_rule: true,
    hints_allowed: 3,
    ticks_per_second: 60,
};

/// Fastest tick rate a script may set.
pub const MAX_TICKS_PER_SECOND: u32 = 10_000;

/// The settings that do not depend on the level (`support_rule`,
/// `ticks_per_second`), read and range-checked: the one place start and
/// `check` read them.
fn read_fixed_settings(script: &Script) -> Result<(bool, u32), tessera_host::ScriptError> {
    let tps = script.value_or::<f64>(
        "ticks_per_second",
        f64::from(DEFAULT_SETTINGS.ticks_per_second),
    )?;
    if !(tps.fract() == 0.0 && (1.0..=f64::from(MAX_TICKS_PER_SECOND)).contains(&tps)) {
        return Err(script.field_error(
            &["ticks_per_second"],
            format!(
                "`ticks_per_second` must be a whole number 1 to {MAX_TICKS_PER_SECOND}, not {}",
                tessera_host::script::show_number(tps)
            ),
        ));
    }
    let support_rule = script.value_or("support_rule", DEFAULT_SETTINGS.support_rule)?;
    Ok((support_rule, tps as u32))
}

/// A polycube session.
pub struct Polycube {
    level: PolycubeLevel,
    rules: Rules,
    script: LiveScript,
    settings: Settings,
    /// Built on the first hint or AI move; later ones reuse it.
    solver: OnceLock<Arc<Solver>>,
    ticks: u64,
    moves: u32,
    hints_used: u32,
    last_error: Option<PlacementError>,
    /// Stars awarded at the win (0 to 3), from the script.
    stars: Option<u32>,
    /// Events since the host last took them.
    events: Vec<GameEvent>,
    /// A hint worked out elsewhere (the editor's worker thread) for the
    /// board it was computed on; the next `Hint` on that same board uses it
    /// instead of solving again on the caller's thread.
    offered_hint: Option<(BoardKey, PolycubeAction)>,
}

/// Which piece sits where: what a hint was computed for.
pub type BoardKey = Vec<Option<PlacedPiece>>;

/// The key of the board `rules` holds.
pub fn board_key(rules: &Rules) -> BoardKey {
    (0..rules.pieces().len())
        .map(|i| rules.placement(i).cloned())
        .collect()
}

/// The id of the assembly mode (`--mode assembly`, a level's
/// `assembly: true`).
pub const ASSEMBLY_MODE: &str = "assembly";

/// The name of polycube's one AI level.
pub const SOLVER_AI: &str = "solver";

/// What polycube's AI sees: the board, and the level's solver when the
/// game has built one already. Building it can take a while on a big box,
/// so a snapshot never builds it: [`PolycubeView::solver`] does, on the
/// thread that thinks.
pub struct PolycubeView {
    /// The board.
    pub rules: Rules,
    /// The level (for building the solver).
    pub level: PolycubeLevel,
    /// The game's solver, if it has one already.
    pub built: Option<Arc<Solver>>,
}

impl PolycubeView {
    /// The level's solver: the game's, or a new one built here.
    pub fn solver(&self) -> Result<Arc<Solver>, GameError> {
        if let Some(solver) = &self.built {
            return Ok(Arc::clone(solver));
        }
        Solver::new(self.level.extents(), &self.level.shapes())
            .map(Arc::new)
            .map_err(|e| GameError::Invalid(e.to_string()))
    }
}

/// Polycube's AI: places the piece a hint would (the solver's next piece).
struct SolverAgent;

impl Agent<Polycube> for SolverAgent {
    fn decide(
        &mut self,
        view: &PolycubeView,
        thinking: &mut Thinking<'_>,
    ) -> Result<Decision<PolycubeAction>, GameError> {
        let solver = view.solver()?;
        thinking.note("solving");
        let action = hint_action(&view.rules, &solver, thinking.cancel_flag())?;
        Ok(Decision::just(action))
    }
}

/// The one path from a hint to an action, shared by the Hint action and the
/// AI: the solver's next piece as a `PlaceAt`, or why there is none.
pub fn hint_action(
    rules: &Rules,
    solver: &Solver,
    cancel: &AtomicBool,
) -> Result<PolycubeAction, GameError> {
    let found = hint::hint(rules, solver, cancel).map_err(|e| match e {
        solver::SolveError::Cancelled => GameError::Cancelled,
        other => GameError::Invalid(other.to_string()),
    })?;
    match found {
        hint::Hint::Place { piece, pose } => Ok(PolycubeAction::PlaceAt {
            piece: rules.pieces()[piece].id.clone(),
            rotation: pose.rotation,
            at: rules::user_cell(pose.anchor),
        }),
        hint::Hint::Stuck { pick_up } => Err(GameError::Illegal(match pick_up {
            Some(piece) => format!(
                "Stuck: the box can no longer be completed with the pieces where they are; pick up piece `{}` (without it, a solution exists)",
                rules.pieces()[piece].id
            ),
            None => "Stuck: the box can no longer be completed with the pieces where they are; pick up some pieces".into(),
        })),
        hint::Hint::Done => Err(GameError::Illegal("Done: every piece is placed".into())),
    }
}

impl Polycube {
    /// The board.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The level being played.
    pub fn level(&self) -> &PolycubeLevel {
        &self.level
    }

    /// Hands the game a hint computed off its thread (from a snapshot, with
    /// [`hint_action`]) for the board `key`; the next `Hint` action on that
    /// board applies it without solving again. Any other board ignores it.
    pub fn offer_hint(&mut self, key: BoardKey, action: PolycubeAction) {
        self.offered_hint = Some((key, action));
    }

    /// The script settings in force.
    pub fn settings(&self) -> Settings {
        self.settings
    }

    /// The moves on the board: successful places, moves, pick-ups and
    /// hints, less those undone (a redo counts again). Stars are rated on
    /// these, so an undone try costs nothing.
    pub fn moves(&self) -> u32 {
        self.moves
    }

    /// Seconds played (ticks over the script's tick rate).
    pub fn seconds(&self) -> f64 {
        self.ticks as f64 / f64::from(self.settings.ticks_per_second.max(1))
    }

    /// Hints used and allowed.
    pub fn hints(&self) -> (u32, u32) {
        (self.hints_used, self.settings.hints_allowed)
    }

    /// The last refused action's error, cleared by the next success.
    pub fn last_error(&self) -> Option<&PlacementError> {
        self.last_error.as_ref()
    }

    /// Stars from the script once won.
    pub fn stars(&self) -> Option<u32> {
        self.stars
    }

    /// The game as a [`SavedGame`].
    pub fn save(&self) -> SavedGame {
        let n = self.rules.pieces().len();
        SavedGame {
            level: self.level.clone(),
            placed: (0..n).map(|i| self.rules.placement(i).cloned()).collect(),
            history: self.rules.history().to_vec(),
            future: self.rules.future().to_vec(),
            ticks: self.ticks,
            moves: self.moves,
            hints_used: self.hints_used,
        }
    }

    /// Resumes a saved game; every saved pose is checked against the level.
    pub fn resume(saved: SavedGame, script: LiveScript) -> Result<Self, GameError> {
        let options = <Self as LevelFormats>::level_options(&saved.level);
        let mut game = Self::start(Setup {
            level: saved.level,
            script,
            seed: 0,
            options,
        })?;
        game.rules
            .restore(saved.placed, saved.history, saved.future)
            .map_err(GameError::Invalid)?;
        game.ticks = saved.ticks;
        game.moves = saved.moves;
        game.hints_used = saved.hints_used;
        if game.rules.is_won() {
            game.rate()?;
        }
        Ok(game)
    }

    /// A solver for this level, built on first use.
    pub fn solver(&self) -> Result<Arc<Solver>, GameError> {
        if let Some(solver) = self.solver.get() {
            return Ok(Arc::clone(solver));
        }
        let solver = Solver::new(self.level.extents(), &self.level.shapes())
            .map_err(|e| GameError::Invalid(e.to_string()))?;
        Ok(Arc::clone(self.solver.get_or_init(|| Arc::new(solver))))
    }

    fn piece(&self, id: &str) -> Result<usize, PlacementError> {
        self.rules.piece_index(id)
    }

    fn apply_rules(&mut self, action: &PolycubeAction) -> Result<(), GameError> {
        let result = match action {
            PolycubeAction::Place { piece, cells } => self
                .piece(piece)
                .and_then(|p| self.rules.place_cells(p, cells)),
            PolycubeAction::PlaceAt {
                piece,
                rotation,
                at,
            } => self
                .piece(piece)
                .and_then(|p| self.rules.place_at(p, *rotation, *at)),
            PolycubeAction::Move { piece, cells } => self
                .piece(piece)
                .and_then(|p| self.rules.move_cells(p, cells)),
            PolycubeAction::MoveAt {
                piece,
                rotation,
                at,
            } => self
                .piece(piece)
                .and_then(|p| self.rules.move_at(p, *rotation, *at)),
            PolycubeAction::PickUp { piece } => {
                self.piece(piece).and_then(|p| self.rules.pick_up(p))
            }
            PolycubeAction::Undo => self.rules.undo(),
            PolycubeAction::Redo => self.rules.redo(),
            PolycubeAction::Hint => return self.apply_hint(),
        };
        match result {
            Ok(()) => {
                self.last_error = None;
                Ok(())
            }
            Err(e) => {
                let message = e.to_string();
                self.last_error = Some(e);
                Err(GameError::Illegal(message))
            }
        }
    }

    fn apply_hint(&mut self) -> Result<(), GameError> {
        if self.hints_used >= self.settings.hints_allowed {
            return Err(GameError::Illegal(format!(
                "NoHintsLeft: this level allows {}",
                count(self.settings.hints_allowed, "hint")
            )));
        }
        let board = board_key(&self.rules);
        let action = match self.offered_hint.take() {
            Some((key, action)) if key == board => action,
            _ => {
                let cancel = AtomicBool::new(false);
                hint_action(&self.rules, self.solver()?.as_ref(), &cancel)?
            }
        };
        // The hinted placement goes through the same pipeline as a player's.
        self.apply_rules(&action)?;
        self.hints_used += 1;
        Ok(())
    }

    /// Asks the script for the star rating of a finished game.
    fn rate(&mut self) -> Result<(), GameError> {
        let script = self.script.current();
        if script.has("stars") {
            let stars: u32 = script.call(
                "stars",
                (
                    self.seconds(),
                    self.moves,
                    self.hints_used,
                    self.rules.pieces().len(),
                ),
            )?;
            self.stars = Some(stars.min(3));
        } else {
            self.stars = Some(3);
        }
        Ok(())
    }
}

impl Game for Polycube {
    const ID: &'static str = "polycube";

    const TITLE: &'static str = "Polycube packing";

    type Level = PolycubeLevel;

    type Action = PolycubeAction;

    fn start(setup: Setup<PolycubeLevel>) -> Result<Self, GameError> {
        let Setup {
            level,
            script,
            options,
            ..
        } = setup;
        if let Some(error) = level.diagnose_errors().into_iter().next() {
            return Err(GameError::Level(error));
        }
        let current = script.current();
        let cells: usize = level.shapes().iter().map(Vec::len).sum();
        let hints_allowed = if current.has("hints_allowed") {
            let n: i64 = current.call(
                "hints_allowed",
                (level.name.clone(), level.pieces.len(), cells),
            )?;
            u32::try_from(n.max(0)).unwrap_or(u32::MAX)
        } else {
            DEFAULT_SETTINGS.hints_allowed
        };
        let (support_rule, ticks_per_second) = read_fixed_settings(&current)?;
        let settings = Settings {
            support_rule,
            hints_allowed,
            ticks_per_second,
        };
        let mut rules = Rules::new(&level, settings.support_rule);
        rules.set_assembly(options.mode() == ASSEMBLY_MODE);
        Ok(Self {
            rules,
            level,
            script,
            settings,
            solver: OnceLock::new(),
            ticks: 0,
            moves: 0,
            hints_used: 0,
            last_error: None,
            stars: None,
            events: Vec::new(),
            offered_hint: None,
        })
    }

    fn apply(&mut self, action: &PolycubeAction) -> Result<(), GameError> {
        if self.rules.is_won() && !matches!(action, PolycubeAction::Undo) {
            return Err(GameError::Illegal("the box is already solved".into()));
        }
        self.apply_rules(action)?;
        // The moves on the board: an undo takes its move back, a redo
        // puts it back (after place and undo the counter said "2 moves").
        self.moves = match action {
            PolycubeAction::Undo => self.moves.saturating_sub(1),
            _ => self.moves.saturating_add(1),
        };
        if self.rules.is_won() {
            self.rate()?;
            let stars = self.stars.unwrap_or(0);
            self.events.push(GameEvent::info(format!(
                "solved in {}, {:.1} s, {}",
                count(self.moves, "move"),
                self.seconds(),
                count(stars, "star")
            )));
        } else {
            self.stars = None;
        }
        Ok(())
    }

    fn advance(&mut self, ticks: u32) -> Result<(), GameError> {
        if !self.rules.is_won() {
            self.ticks += u64::from(ticks);
        }
        Ok(())
    }

    fn legal_actions(&self) -> Vec<PolycubeAction> {
        let mut out = Vec::new();
        if self.rules.is_won() {
            return out;
        }
        for (i, piece) in self.rules.pieces().iter().enumerate() {
            if self.rules.placement(i).is_some() {
                out.push(PolycubeAction::PickUp {
                    piece: piece.id.clone(),
                });
                continue;
            }
            let size = self.rules.size();
            for orientation in &piece.orientations {
                for z in 1..=size[2] as i32 {
                    for y in 1..=size[1] as i32 {
                        for x in 1..=size[0] as i32 {
                            if self
                                .rules
                                .try_at(i, orientation.rotation, (x, y, z))
                                .is_ok()
                            {
                                out.push(PolycubeAction::PlaceAt {
                                    piece: piece.id.clone(),
                                    rotation: orientation.rotation,
                                    at: (x, y, z),
                                });
                            }
                        }
                    }
                }
            }
        }
        if self.rules.can_undo() {
            out.push(PolycubeAction::Undo);
        }
        if self.rules.can_redo() {
            out.push(PolycubeAction::Redo);
        }
        out
    }

    fn take_events(&mut self) -> Vec<GameEvent> {
        std::mem::take(&mut self.events)
    }

    fn render_text(&self) -> String {
        let mut out = self.rules.render_text();
        let tray: Vec<&str> = self
            .rules
            .pieces()
            .iter()
            .enumerate()
            .filter(|(i, _)| self.rules.placement(*i).is_none())
            .map(|(_, p)| p.id.as_str())
            .collect();
        out.push_str(&format!(
            "placed {}/{}, tray: {}\n",
            self.rules.placed_count(),
            self.rules.pieces().len(),
            if tray.is_empty() {
                "empty".to_string()
            } else {
                tray.join(" ")
            }
        ));
        if let Some(e) = &self.last_error {
            out.push_str(&format!("refused: {e}\n"));
        }
        out
    }

    fn outcome(&self) -> Outcome {
        if self.rules.is_won() {
            Outcome::Won
        } else {
            Outcome::Playing
        }
    }
}

impl Scripted for Polycube {
    fn check_script(script: &Script) -> Result<(), tessera_host::ScriptError> {
        read_fixed_settings(script)?;
        // Start calls `hints_allowed` with the level's numbers: call it as
        // start would (a one-piece level), so a hook that cannot answer an
        // integer is refused by `check` as it is by `play`.
        if script.has("hints_allowed") {
            let _: i64 = script.call("hints_allowed", (String::from("check"), 1usize, 1usize))?;
        }
        Ok(())
    }

    /// The shipped `scripts/polycube.lua`: every tunable at the seed's value.
    const DEFAULT_SCRIPT: Option<&'static str> =
        Some(include_str!("../../../../scripts/polycube.lua"));

    fn script_schema() -> ScriptSchema {
        ScriptSchema {
            game: Self::ID,
            fields: vec![
                FieldSpec::optional(
                    "support_rule",
                    FieldKind::Boolean,
                    "whether a placed piece must touch the floor or another piece (default true)",
                ),
                FieldSpec::optional(
                    "ticks_per_second",
                    FieldKind::Integer,
                    "ticks in one second of play (default 60)",
                )
                .within(1.0, MAX_TICKS_PER_SECOND as f64),
                FieldSpec::optional(
                    "hints_allowed",
                    FieldKind::Function,
                    "hints_allowed(level_name, pieces, cells) -> how many hints the level allows (default 3)",
                ),
                FieldSpec::optional(
                    "stars",
                    FieldKind::Function,
                    "stars(seconds, moves, hints_used, pieces) -> 0 to 3 stars for a win",
                ),
            ],
        }
    }
}

/// Polycube registers a script, its seats and solver AI, its level
/// formats (RON and JSON) and its generator; reports, moves and
/// simulations are the host's defaults.
impl Plugin for Polycube {
    fn register(game: &mut Registrar<Self>) {
        game.scripted()
            .seats(Self::spec)
            .agents(Self::agent)
            .level_formats()
            .generator(generate::GENERATOR);
    }
}

impl AgentGame for Polycube {
    type Snapshot = PolycubeView;
    type Action = PolycubeAction;

    fn snapshot(&self) -> PolycubeView {
        PolycubeView {
            rules: self.rules.clone(),
            level: self.level.clone(),
            built: self.solver.get().cloned(),
        }
    }
}

impl Polycube {
    /// One seat; the AI (`solver`) places the piece a hint would, without
    /// using up a hint. Two modes: `play`, and `assembly` (the seed's
    /// assembly physics mode: every placement also slides straight in).
    pub fn spec(_script: &Script) -> Result<GameSpec, GameError> {
        let mut spec = GameSpec::single_player();
        spec.modes.push(ModeSpec::new(
            ASSEMBLY_MODE,
            "Assembly (pieces slide straight in)",
        ));
        spec.ai_levels = vec![SOLVER_AI.into()];
        Ok(spec)
    }

    /// The AI for a seat: the solver.
    pub fn agent(&self, _seat: usize, level: &str) -> Result<Box<dyn Agent<Self>>, GameError> {
        match level {
            SOLVER_AI => Ok(Box::new(SolverAgent)),
            other => Err(GameError::Invalid(format!(
                "no AI level `{other}` (polycube has `{SOLVER_AI}`)"
            ))),
        }
    }
}

impl LevelFormats for Polycube {
    /// A level with `assembly: true` is played in assembly mode.
    fn level_options(level: &PolycubeLevel) -> tessera_host::options::SessionOptions {
        tessera_host::options::SessionOptions {
            mode: level.assembly.then(|| ASSEMBLY_MODE.to_string()),
            seats: Vec::new(),
        }
    }

    const LEVEL_EXTENSIONS: &'static [&'static str] = &["ron", "json"];

    fn read_level(text: &str, path: &std::path::Path) -> Result<PolycubeLevel, Diagnostic> {
        import::read_level(text, path)
    }

    fn locate_finding(finding: Diagnostic, text: &str, path: &std::path::Path) -> Diagnostic {
        import::locate(finding, text, path)
    }
}

impl PolycubeLevel {
    /// Only the errors of [`tessera_host::level::LevelFile::diagnose`].
    pub fn diagnose_errors(&self) -> Vec<Diagnostic> {
        use tessera_host::level::LevelFile;
        self.diagnose()
            .into_iter()
            .filter(Diagnostic::is_error)
            .collect()
    }
}

// One test binary per crate: the tests in `tests/` are a module of the
// unit-test binary rather than integration binaries of their own (each would
// link the whole dependency tree again). They name the crate as
// `tessera_polycube`, like outside code, so they exercise only the public API.
#[cfg(test)]
extern crate self as tessera_polycube;
#[cfg(test)]
#[path = "../tests/main.rs"]
mod api_tests;
