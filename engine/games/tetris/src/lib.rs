//! Classic Tetris (seed 002) with levels: falling tetrominoes on a bit-row
//! board, the seed's cycle rotation or SRS with wall kicks, 7-bag or
//! uniform pieces, hold, preview, lock delay and DAS/ARR in ticks; level
//! files add goals, starting garbage and fixed piece sequences.
//!
//! - [`piece`]: shapes, orientations, kick tables; [`board`]: bit rows;
//!   [`movegen`]: every reachable landing (bit-parallel) and the input path
//!   to one; [`rules`]: the script-free core (inputs, gravity, lock,
//!   clears); [`settings`]: what `scripts/tetris.lua` tunes; [`level`]:
//!   the RON format; [`solver`]: the fixed-sequence puzzle search;
//!   [`scenarios`]: bench positions.
//! - This file holds the flow: scoring, levels and goals through the
//!   script (per lock), events, and the `Game` impl.
//!
//! Flow decisions (RULINGS "Classic Tetris" plus our choices where it is
//! silent):
//! - Level = the script's `level_for(score)` (seed: 1000 points per
//!   level, starting at 0 with the seed's 2 s per row); the marathon goal
//!   is won when `won(score, level, lines)` says so (seed: level 9 passed,
//!   9000 points).
//! - Top-out: after a lock and its clears, a block in the board's top row
//!   (row 0, hidden rows included), or a next piece that cannot spawn.
//! - Soft drop never locks; hard drop locks at once; with the seed's lock
//!   delay of 0 a grounded piece locks at its next gravity step.
//! - Script settings are re-read at each lock when the script changed; a
//!   bad value is reported with its line and the last good settings stay.

pub mod board;
pub mod level;
pub mod movegen;
pub mod piece;
pub mod rules;
pub mod scenarios;
pub mod settings;
pub mod solver;

use serde::{Deserialize, Serialize};

use tessera_host::level::{Diagnostic, LevelFile};
use tessera_host::options::{GameSpec, ModeSpec, Seat};
use tessera_host::plugin::{Game, GameError, GameEvent, Outcome, Setup, Turn};
use tessera_host::rng::game_rng;
use tessera_host::script::{LiveScript, Script, ScriptError, ScriptSchema};

use board::{Board, spawn_position};
use level::{Goal, TetrisLevel, colour_letter};
use movegen::{MoveGen, Placement};
use piece::{PieceKind, RotationSystem};
use rules::{Config, Field, Key, Lock, PieceSource};
use settings::Settings;

pub use level::TetrisLevel as Level;

/// A player input, a tick, or a scripted placement.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum TetrisAction {
    /// One column left (a tap).
    Left,
    /// One column right (a tap).
    Right,
    /// One row down (a tap; never locks).
    SoftDrop,
    /// Drop to the bottom and lock.
    HardDrop,
    /// Turn clockwise.
    RotateCw,
    /// Turn counter-clockwise.
    RotateCcw,
    /// Swap with the hold box (when the script allows hold).
    Hold,
    /// Pause or resume.
    Pause,
    /// Key down: moves now, repeats after DAS every ARR ticks while held.
    Press(Key),
    /// Key up.
    Release(Key),
    /// Let `n` ticks pass.
    Tick(u32),
    /// Lock the piece in play at a reachable landing: `rotation` state,
    /// leftmost cell in column `x` (0-based), and, for tucks, the top
    /// cell in row `y` (the highest such landing when left out).
    Drop {
        /// Column of the piece's leftmost cell.
        x: i32,
        /// Rotation state (0 = spawn; SRS 1 = R, 2, 3 = L).
        rotation: u8,
        /// Row of the piece's top cell, to pick one of several landings.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        y: Option<i32>,
    },
}

/// What an AI (next issue) or the puzzle search decides from: the board
/// bits and the piece state, no script.
#[derive(Debug, Clone)]
pub struct TetrisSnapshot {
    /// Locked cells.
    pub board: Board,
    /// The piece in play.
    pub active: Option<Placement>,
    /// Next pieces, first to come first.
    pub queue: Vec<PieceKind>,
    /// The held piece.
    pub hold: Option<PieceKind>,
    /// Whether hold may be used now.
    pub hold_allowed: bool,
    /// The rotation system in force.
    pub rotation: RotationSystem,
}

/// One scored lock in the clear log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ClearRecord {
    /// Tick of the lock.
    pub tick: u64,
    /// Lines cleared.
    pub lines: u32,
    /// Points the script gave.
    pub points: u64,
    /// Level after it.
    pub level: u32,
}

/// A game of tetris.
pub struct Tetris {
    level: TetrisLevel,
    script: LiveScript,
    generation: u64,
    settings: Settings,
    field: Field,
    movegen: Box<MoveGen>,
    seed: u64,
    score: u64,
    level_no: u32,
    outcome: Outcome,
    log: Vec<ClearRecord>,
    events: Vec<GameEvent>,
    over_reason: Option<String>,
}

fn config_of(settings: &Settings, level: &TetrisLevel, level_no: u32) -> Config {
    Config {
        rotation: level.rotation_override().unwrap_or(settings.rotation),
        fall_ticks: settings.fall_ticks_at(level_no),
        soft_drop_ticks: settings.soft_drop_ticks,
        lock_delay_ticks: settings.lock_delay_ticks,
        lock_resets: settings.lock_resets,
        das_ticks: settings.das_ticks,
        arr_ticks: settings.arr_ticks,
        preview: settings.preview,
        hold: settings.hold,
    }
}

impl Tetris {
    /// The level played.
    pub fn level(&self) -> &TetrisLevel {
        &self.level
    }

    /// The rules core (board, piece, queue, hold).
    pub fn field(&self) -> &Field {
        &self.field
    }

    /// The settings in force.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The rotation system in force.
    pub fn rotation(&self) -> RotationSystem {
        self.field.config().rotation
    }

    /// Score.
    pub fn score(&self) -> u64 {
        self.score
    }

    /// Lines cleared.
    pub fn lines(&self) -> u64 {
        self.field.rows_cleared()
    }

    /// Current level (0-based).
    pub fn level_number(&self) -> u32 {
        self.level_no
    }

    /// Why the game ended, in words (`OVER: ...`, `won: ...`).
    pub fn over_reason(&self) -> Option<&str> {
        self.over_reason.as_deref()
    }

    /// Every scoring lock so far.
    pub fn clear_log(&self) -> &[ClearRecord] {
        &self.log
    }

    /// Hidden rows above the visible field.
    pub fn hidden_rows(&self) -> usize {
        self.level.hidden_rows as usize
    }

    /// How far the goal is, as (done, needed), for the progress display.
    pub fn goal_progress(&self) -> (u64, u64) {
        match self.level.goal {
            Goal::Marathon => (self.score, 9000),
            Goal::Score(n) => (self.score, n),
            Goal::Lines(n) => (self.lines(), n),
            Goal::Survive(n) => (self.field.locked(), n),
            Goal::ClearGarbage => {
                let (start, _) = self.level.starting_cells();
                let total = u64::from(start.count());
                (
                    total - u64::from(self.field.garbage().count()).min(total),
                    total,
                )
            }
        }
    }

    /// Every landing of the piece in play (deduped by cell set).
    pub fn landings(&mut self) -> Vec<Placement> {
        let Some(active) = self.field.active() else {
            return Vec::new();
        };
        let spawn = spawn_position(active.kind, self.field.board().width());
        self.movegen
            .generate(self.field.board(), active.kind, self.rotation(), spawn)
            .to_vec()
    }

    /// The landing `Drop { x, rotation, y }` names, or why none does.
    pub fn find_drop(
        &mut self,
        x: i32,
        rotation: u8,
        y: Option<i32>,
    ) -> Result<Placement, GameError> {
        let Some(active) = self.field.active() else {
            return Err(GameError::Illegal("no piece in play".into()));
        };
        let system = self.rotation();
        if rotation >= system.states(active.kind) {
            return Err(GameError::Illegal(format!(
                "rotation {rotation}: the {} piece has {} states under {system}",
                active.kind,
                system.states(active.kind)
            )));
        }
        let state = piece::orientation(active.kind, rotation).canonical;
        let landings = self.landings();
        landings
            .into_iter()
            .filter(|p| p.state == state && p.left_column() == x)
            .find(|p| y.is_none_or(|y| p.top_row() == y))
            .ok_or_else(|| {
                GameError::Illegal(format!(
                    "the {} piece cannot reach a landing in rotation {rotation} at column {x}{}",
                    active.kind,
                    y.map(|y| format!(", row {y}")).unwrap_or_default()
                ))
            })
    }

    /// Re-reads the settings when the script changed since the last read;
    /// a bad value is reported and the last good settings stay.
    fn refresh_settings(&mut self, script: &Script) {
        let generation = self.script.generation();
        if generation == self.generation {
            return;
        }
        self.generation = generation;
        match Settings::read(script) {
            Ok(settings) => {
                self.settings = settings;
                if let Some(r) = self.level.randomizer_override() {
                    self.field.set_randomizer(r);
                } else {
                    self.field.set_randomizer(self.settings.randomizer);
                }
                self.field
                    .set_config(config_of(&self.settings, &self.level, self.level_no));
            }
            Err(error) => self.report(&error, "keeping the last good settings"),
        }
    }

    fn report(&mut self, error: &ScriptError, what: &str) {
        self.events
            .push(GameEvent::error(format!("{error} ({what})")));
    }

    fn forward_prints(&mut self, script: &Script) {
        for line in script.take_printed() {
            self.events.push(GameEvent::info(format!("script: {line}")));
        }
    }

    /// Scores a lock through the script and decides the outcome.
    fn on_lock(&mut self, lock: Lock) {
        let script = self.script.current();
        self.refresh_settings(&script);
        let tick = self.field.ticks();
        let p = lock.placement;
        self.events.push(GameEvent::info(format!(
            "lock {} at column {}, row {}",
            p.kind,
            p.left_column(),
            p.top_row()
        )));
        if lock.lines > 0 {
            let points = match settings::score(&script, lock.lines, self.level_no) {
                Ok(points) => points,
                Err(error) => {
                    self.report(&error, "this clear scores 0");
                    0
                }
            };
            self.score = self.score.saturating_add(points);
            let level = match settings::level_for(&script, self.score) {
                Ok(level) => level,
                Err(error) => {
                    self.report(&error, "the level stays");
                    self.level_no
                }
            };
            self.events.push(GameEvent::info(format!(
                "clear {} line{} +{points} (score {})",
                lock.lines,
                if lock.lines == 1 { "" } else { "s" },
                self.score
            )));
            if level != self.level_no {
                self.level_no = level;
                self.events.push(GameEvent::info(format!("level {level}")));
                if let Err(error) = settings::hook(&script, "on_level_up", level) {
                    self.report(&error, "hook failed");
                }
                self.field
                    .set_config(config_of(&self.settings, &self.level, self.level_no));
            }
            self.log.push(ClearRecord {
                tick,
                lines: lock.lines,
                points,
                level: self.level_no,
            });
        }
        if let Err(error) = settings::hook(
            &script,
            "on_lock",
            (p.kind.letter().to_string(), lock.lines, self.score),
        ) {
            self.report(&error, "hook failed");
        }
        if lock.topped_out {
            let reason = if self.field.board().row(0) != 0 {
                "OVER: a block locked in the top row"
            } else {
                "OVER: the next piece cannot spawn"
            };
            self.end(Outcome::Lost, reason.into(), &script);
        } else if self.goal_met(&script) {
            self.end(Outcome::Won, format!("won: {}", self.level.goal), &script);
        } else if lock.out_of_pieces {
            self.end(
                Outcome::Lost,
                format!(
                    "OVER: the sequence ran out before the goal ({})",
                    self.level.goal
                ),
                &script,
            );
        }
        self.forward_prints(&script);
    }

    fn goal_met(&mut self, script: &Script) -> bool {
        match self.level.goal {
            Goal::Marathon => {
                match settings::won(script, self.score, self.level_no, self.lines()) {
                    Ok(won) => won,
                    Err(error) => {
                        self.report(&error, "not won");
                        false
                    }
                }
            }
            Goal::Score(n) => self.score >= n,
            Goal::Lines(n) => self.lines() >= n,
            Goal::ClearGarbage => self.field.garbage().is_empty(),
            Goal::Survive(n) => self.field.locked() >= n,
        }
    }

    fn end(&mut self, outcome: Outcome, reason: String, script: &Script) {
        self.field.finish();
        let won = outcome == Outcome::Won;
        self.outcome = outcome;
        self.events.push(GameEvent::info(reason.clone()));
        self.over_reason = Some(reason);
        if let Err(error) = settings::hook(script, "on_game_over", (self.score, won)) {
            self.report(&error, "hook failed");
        }
    }

    fn after(&mut self, lock: Option<Lock>) {
        if let Some(lock) = lock {
            self.on_lock(lock);
        }
    }

    /// The board with the piece in play (lower case) and its ghost (`:`),
    /// hidden rows above a `--` line.
    pub fn board_text(&self) -> String {
        let board = self.field.board();
        let (w, h) = (board.width(), board.height());
        let mut grid: Vec<char> = self
            .field
            .colours()
            .iter()
            .map(|&c| colour_letter(c))
            .collect();
        if !self.outcome.is_over() {
            if let Some(ghost) = self.field.ghost() {
                for (x, y) in ghost.placement().cells() {
                    if x >= 0 && y >= 0 && (x as usize) < w && (y as usize) < h {
                        grid[y as usize * w + x as usize] = ':';
                    }
                }
            }
            if let Some(active) = self.field.active() {
                let letter = active.kind.letter().to_ascii_lowercase();
                for (x, y) in active.placement().cells() {
                    if x >= 0 && y >= 0 && (x as usize) < w && (y as usize) < h {
                        grid[y as usize * w + x as usize] = letter;
                    }
                }
            }
        }
        let mut out = String::with_capacity((w + 1) * (h + 1));
        for y in 0..h {
            if y == self.hidden_rows() && y > 0 {
                out.push_str(&"-".repeat(w));
                out.push('\n');
            }
            out.extend(&grid[y * w..(y + 1) * w]);
            out.push('\n');
        }
        out
    }

    fn queue_text(&self) -> String {
        self.field.queue().map(|p| p.letter()).collect()
    }

    /// What `tessera play tetris` prints.
    pub fn summary(&self, render: bool) -> String {
        let mut out = format!(
            "tetris  seed {}  ticks {}  pieces {}  lines {}  level {}  score {}\n",
            self.seed,
            self.field.ticks(),
            self.field.locked(),
            self.lines(),
            self.level_no,
            self.score
        );
        out.push_str(&format!("goal: {}  ", self.level.goal));
        let (done, needed) = self.goal_progress();
        out.push_str(&format!("progress {done}/{needed}\n"));
        out.push_str("clear log:\n");
        if self.log.is_empty() {
            out.push_str("  (no clears)\n");
        }
        for r in &self.log {
            out.push_str(&format!(
                "  tick {}  {} lines  +{}  level {}\n",
                r.tick, r.lines, r.points, r.level
            ));
        }
        if let Some(reason) = &self.over_reason {
            out.push_str(reason);
            out.push('\n');
        }
        out.push_str(&format!("outcome: {}\n", self.outcome));
        if render {
            out.push_str(&self.board_text());
        }
        out
    }
}

impl Game for Tetris {
    const ID: &'static str = "tetris";
    const TITLE: &'static str = "Tetris";
    type Level = TetrisLevel;
    type Action = TetrisAction;
    type Snapshot = TetrisSnapshot;

    fn script_schema() -> ScriptSchema {
        settings::schema()
    }

    /// The settings reader is the one check: a speed table that is not
    /// decreasing or an unknown rotation system is refused by `check`,
    /// `watch`, the editor's reload and game start alike.
    fn check_script(script: &Script) -> Result<(), ScriptError> {
        Settings::read(script).map(|_| ())
    }

    fn spec(_script: &Script) -> Result<GameSpec, GameError> {
        Ok(GameSpec {
            modes: vec![ModeSpec {
                id: "classic".into(),
                title: "Classic".into(),
            }],
            min_seats: 1,
            max_seats: 1,
            default_seats: vec![Seat::Human],
            ai_levels: Vec::new(),
        })
    }

    fn start(setup: Setup<TetrisLevel>) -> Result<Self, GameError> {
        let Setup {
            level,
            script,
            seed,
            ..
        } = setup;
        if let Some(error) = level.diagnose().into_iter().find(Diagnostic::is_error) {
            return Err(GameError::Level(error));
        }
        let current = script.current();
        let settings = Settings::read(&current)?;
        let (board, colours) = level.starting_cells();
        let randomizer = level.randomizer_override().unwrap_or(settings.randomizer);
        let source = PieceSource::new(level.sequence_pieces(), randomizer, game_rng(seed));
        let config = config_of(&settings, &level, 0);
        let field = Field::new(board, colours, source, config);
        let mut game = Self {
            generation: script.generation(),
            level,
            script,
            settings,
            field,
            movegen: Box::new(MoveGen::new()),
            seed,
            score: 0,
            level_no: 0,
            outcome: Outcome::Playing,
            log: Vec::new(),
            events: Vec::new(),
            over_reason: None,
        };
        if game.field.is_over() {
            game.end(
                Outcome::Lost,
                "OVER: the first piece cannot spawn".into(),
                &current,
            );
        }
        Ok(game)
    }

    fn apply(&mut self, action: &TetrisAction) -> Result<(), GameError> {
        if self.outcome.is_over() {
            return Err(GameError::Illegal("the game is over".into()));
        }
        let paused = self.field.is_paused();
        if paused
            && !matches!(
                action,
                TetrisAction::Pause | TetrisAction::Tick(_) | TetrisAction::Release(_)
            )
        {
            return Err(GameError::Illegal("the game is paused".into()));
        }
        match *action {
            TetrisAction::Left => {
                self.field.shift(-1);
            }
            TetrisAction::Right => {
                self.field.shift(1);
            }
            TetrisAction::SoftDrop => {
                self.field.soft_drop();
            }
            TetrisAction::RotateCw => {
                self.field.rotate(true);
            }
            TetrisAction::RotateCcw => {
                self.field.rotate(false);
            }
            TetrisAction::HardDrop => {
                let lock = self.field.hard_drop();
                self.after(lock);
            }
            TetrisAction::Hold => {
                if !self.field.config().hold {
                    return Err(GameError::Illegal(
                        "hold is switched off in the script (`hold = false`)".into(),
                    ));
                }
                if self.field.hold_used() {
                    return Err(GameError::Illegal(
                        "hold was already used for this piece".into(),
                    ));
                }
                let lock = self.field.hold();
                if let Some(lock) = lock {
                    let script = self.script.current();
                    let reason = if lock.out_of_pieces {
                        "OVER: the sequence ran out"
                    } else {
                        "OVER: the held-out piece cannot spawn"
                    };
                    self.end(Outcome::Lost, reason.into(), &script);
                }
            }
            TetrisAction::Pause => self.field.toggle_pause(),
            TetrisAction::Press(key) => self.field.press(key),
            TetrisAction::Release(key) => self.field.release(key),
            TetrisAction::Tick(n) => self.advance(n)?,
            TetrisAction::Drop { x, rotation, y } => {
                let placement = self.find_drop(x, rotation, y)?;
                let lock = self.field.lock_at(placement);
                self.after(lock);
            }
        }
        Ok(())
    }

    fn advance(&mut self, ticks: u32) -> Result<(), GameError> {
        for _ in 0..ticks {
            if self.outcome.is_over() || self.field.is_paused() {
                break;
            }
            let lock = self.field.tick();
            self.after(lock);
        }
        Ok(())
    }

    fn legal_actions(&self) -> Vec<TetrisAction> {
        let Some(active) = self.field.active() else {
            return Vec::new();
        };
        if self.outcome.is_over() {
            return Vec::new();
        }
        let spawn = spawn_position(active.kind, self.field.board().width());
        let mut generator = MoveGen::new();
        let mut out: Vec<TetrisAction> = generator
            .generate(self.field.board(), active.kind, self.rotation(), spawn)
            .iter()
            .map(|p| TetrisAction::Drop {
                x: p.left_column(),
                rotation: p.state,
                y: Some(p.top_row()),
            })
            .collect();
        if self.field.config().hold && !self.field.hold_used() {
            out.push(TetrisAction::Hold);
        }
        out
    }

    fn turn(&self) -> Turn {
        if self.outcome.is_over() {
            Turn::Over
        } else {
            Turn::RealTime
        }
    }

    fn outcome(&self) -> Outcome {
        self.outcome.clone()
    }

    fn scores(&self) -> Vec<i64> {
        vec![i64::try_from(self.score).unwrap_or(i64::MAX)]
    }

    fn take_events(&mut self) -> Vec<GameEvent> {
        std::mem::take(&mut self.events)
    }

    fn render_text(&self) -> String {
        let hold = self
            .field
            .held_piece()
            .map_or("-".to_string(), |p| p.to_string());
        format!(
            "score {}  lines {}  level {}  pieces {}  next [{}]  hold {}  {}\n{}",
            self.score,
            self.lines(),
            self.level_no,
            self.field.locked(),
            self.queue_text(),
            hold,
            self.outcome,
            self.board_text()
        )
    }

    fn report_text(&self, render: bool) -> String {
        self.summary(render)
    }

    fn report_json(&self) -> serde_json::Value {
        serde_json::json!({
            "game": "tetris",
            "seed": self.seed,
            "ticks": self.field.ticks(),
            "pieces": self.field.locked(),
            "lines": self.lines(),
            "level": self.level_no,
            "score": self.score,
            "goal": self.level.goal.to_string(),
            "outcome": self.outcome.to_string(),
            "over_reason": self.over_reason,
            "clear_log": self.log,
            "board": self.board_text().lines().collect::<Vec<_>>(),
        })
    }

    fn snapshot(&self) -> TetrisSnapshot {
        TetrisSnapshot {
            board: *self.field.board(),
            active: self.field.active().map(|a| a.placement()),
            queue: self.field.queue().collect(),
            hold: self.field.held_piece(),
            hold_allowed: self.field.config().hold && !self.field.hold_used(),
            rotation: self.rotation(),
        }
    }
}

impl std::fmt::Debug for Tetris {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tetris")
            .field("score", &self.score)
            .field("level", &self.level_no)
            .field("outcome", &self.outcome)
            .finish_non_exhaustive()
    }
}
