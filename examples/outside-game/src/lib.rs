//! Cairns, a game from outside: two players take turns taking 1 to
//! `max_take` stones from the end of one row of a grid, and whoever takes
//! the last stone wins. It is not one of Tessera's built-in games: this
//! package brings the rules, the script, the levels, the editor view and
//! the replays, and builds its own `tessera` command line (`cairn`) and
//! editor (`cairn-editor`) with the built-in games plus this one.
//!
//! The files, as in every game crate: `lib.rs` the [`Game`] impl and its
//! capabilities, `rules.rs` the grid and its moves, `level.rs` the RON
//! level, `settings.rs` what the script tunes, `ai.rs` the agent, `ui/`
//! the editor view (feature `ui`), `bin/` the two programs.

pub mod ai;
pub mod level;
pub mod rules;
pub mod settings;
#[cfg(feature = "ui")]
pub mod ui;

use rand::Rng;
use tessera_host::command::CommandContext;
use tessera_host::rng::game_rng;
use tessera_host::{
    Agent, AgentGame, Game, GameError, GameEvent, GameSpec, LiveScript, ModeSpec, Outcome, Plugin,
    Registrar, Registry, Reports, Script, ScriptError, ScriptSchema, Scripted, Seat, Setup, Turn,
};

pub use ai::{CairnAgent, CairnView};
pub use level::CairnLevel;
pub use rules::{CairnAction, Refusal, Rows};
pub use settings::Settings;

/// The shipped script, `scripts/cairn.lua`: what File ▸ New script writes.
pub const SCRIPT: &str = include_str!("../scripts/cairn.lua");

/// The built-in games and Cairns: what this package's editor and tests
/// run with.
pub fn registry() -> Registry {
    let mut registry = tessera_builtin::registry();
    registry.register::<Cairn>();
    registry
}

/// What this package's `tessera` runs with: the built-in list's context
/// (its games keep their own commands, `solve` and the rest) and Cairns,
/// which brings no command of its own.
pub fn command_context() -> CommandContext {
    let mut context = tessera_builtin::command_context();
    context.register::<Cairn>();
    context
}

/// A game of Cairns.
pub struct Cairn {
    rows: Rows,
    /// Each row's stones at the start: the width the picture draws.
    start: Vec<u32>,
    to_move: usize,
    last_taker: Option<usize>,
    scores: [i64; 2],
    script: LiveScript,
    /// The script version's settings, read again at every move, so a
    /// reload applies from the next move on; the legal moves and the AI
    /// read them here, without Lua.
    settings: Settings,
    events: Vec<GameEvent>,
}

impl Cairn {
    /// The grid as it stands.
    pub fn rows(&self) -> &Rows {
        &self.rows
    }

    /// Each row's stones at the start of the game.
    pub fn start_rows(&self) -> &[u32] {
        &self.start
    }

    /// The settings the last move (or the start) read.
    pub fn settings(&self) -> Settings {
        self.settings
    }

    /// The seat to move (0 or 1), also after the game ended.
    pub fn to_move(&self) -> usize {
        self.to_move
    }

    fn read_settings(&self) -> Result<Settings, ScriptError> {
        Settings::read(&self.script.current())
    }
}

impl Game for Cairn {
    const ID: &'static str = "cairn";

    const TITLE: &'static str = "Cairns";

    type Level = CairnLevel;

    type Action = CairnAction;

    fn start(setup: Setup<CairnLevel>) -> Result<Self, GameError> {
        let Setup {
            level,
            script,
            seed,
            ..
        } = setup;
        let settings = Settings::read(&script.current())?;
        // The seed deals the extra stones, so each seed is another grid.
        let mut rng = game_rng(seed);
        let start: Vec<u32> = level
            .rows
            .iter()
            .map(|&n| n.saturating_add(rng.random_range(0..=level.random_extra)))
            .collect();
        Ok(Self {
            rows: Rows::new(start.clone()),
            start,
            to_move: 0,
            last_taker: None,
            scores: [0; 2],
            script,
            settings,
            events: Vec::new(),
        })
    }

    fn apply(&mut self, action: &CairnAction) -> Result<(), GameError> {
        self.settings = self.read_settings()?;
        let left = self
            .rows
            .check(*action, self.settings.max_take)
            .map_err(|refusal| GameError::Illegal(refusal.to_string()))?;
        let CairnAction::Take { row, stones } = *action;
        // Score before taking: a failing hook leaves the grid as it was.
        let points = settings::score(&self.script.current(), stones, left)?;
        self.rows
            .take(*action, self.settings.max_take)
            .map_err(|refusal| GameError::Illegal(refusal.to_string()))?;
        self.scores[self.to_move] += points;
        let unit = if points.abs() == 1 { "point" } else { "points" };
        self.events.push(GameEvent::info(format!(
            "seat {} takes {stones} from row {row} ({left} left), {points:+} {unit}",
            self.to_move + 1
        )));
        self.last_taker = Some(self.to_move);
        self.to_move = 1 - self.to_move;
        if self.rows.is_empty() {
            self.events.push(GameEvent::info(format!(
                "seat {} takes the last stone and wins",
                2 - self.to_move
            )));
        }
        Ok(())
    }

    fn legal_actions(&self) -> Vec<CairnAction> {
        self.rows.moves(self.settings.max_take)
    }

    fn turn(&self) -> Turn {
        if self.rows.is_empty() {
            Turn::Over
        } else {
            Turn::Seat(self.to_move)
        }
    }

    fn outcome(&self) -> Outcome {
        match (self.rows.is_empty(), self.last_taker) {
            (true, Some(seat)) => Outcome::Winner(seat),
            _ => Outcome::Playing,
        }
    }

    fn take_events(&mut self) -> Vec<GameEvent> {
        std::mem::take(&mut self.events)
    }

    fn render_text(&self) -> String {
        let width = self.start.iter().copied().max().unwrap_or(0) as usize;
        let mut text = String::new();
        for (index, (&left, &start)) in self.rows.stones().iter().zip(&self.start).enumerate() {
            let taken = (start - left) as usize;
            text.push_str(&format!(
                "row {} |{}{}{}| {left}\n",
                index + 1,
                "o".repeat(left as usize),
                ".".repeat(taken),
                " ".repeat(width - start as usize),
            ));
        }
        match self.turn() {
            Turn::Seat(seat) => text.push_str(&format!(
                "seat {} to move, 1 to {} stones from one row\n",
                seat + 1,
                self.settings.max_take
            )),
            _ => text.push_str("every stone is taken\n"),
        }
        text.push_str(&format!(
            "scores: {} / {}\n",
            self.scores[0], self.scores[1]
        ));
        text
    }
}

impl Scripted for Cairn {
    fn script_schema() -> ScriptSchema {
        settings::schema()
    }

    const DEFAULT_SCRIPT: Option<&'static str> = Some(SCRIPT);

    fn check_script(script: &Script) -> Result<(), ScriptError> {
        settings::check(script)
    }
}

/// What Cairns has beside its rules: a script, two seats with AI players,
/// and scores. Its levels are plain RON, every action is a move, and its
/// simulations are seat against seat: the host's defaults, never named.
impl Plugin for Cairn {
    fn register(game: &mut Registrar<Self>) {
        game.scripted()
            .seats(Self::spec)
            .agents(Self::agent)
            .reports();
    }
}

impl AgentGame for Cairn {
    type Snapshot = CairnView;
    type Action = CairnAction;

    fn snapshot(&self) -> CairnView {
        CairnView {
            rows: self.rows.stones().to_vec(),
            max_take: self.settings.max_take,
        }
    }
}

impl Cairn {
    /// Two seats, a human and the `hard` AI by default.
    pub fn spec(_script: &Script) -> Result<GameSpec, GameError> {
        Ok(GameSpec {
            modes: vec![ModeSpec::new("play", "Play")],
            min_seats: 2,
            max_seats: 2,
            default_seats: vec![
                Seat::Human,
                Seat::Ai {
                    level: "hard".into(),
                },
            ],
            ai_levels: settings::AI_LEVELS.iter().map(|l| l.to_string()).collect(),
            also_accepts: None,
        })
    }

    /// The AI for a seat at `level`.
    pub fn agent(&self, _seat: usize, level: &str) -> Result<Box<dyn Agent<Self>>, GameError> {
        // Read the script now, on the game's thread: the agent never calls
        // Lua.
        let settings = self.read_settings()?;
        let Some(mistake) = settings.mistake(level) else {
            return Err(GameError::Invalid(format!(
                "Cairns has no AI level `{level}` (its levels: {})",
                settings::AI_LEVELS.join(", ")
            )));
        };
        Ok(Box::new(CairnAgent { mistake }))
    }
}

impl Reports for Cairn {
    fn scores(&self) -> Vec<i64> {
        self.scores.to_vec()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use std::path::Path;

    use tessera_host::{Recorded, ScriptLimits, SessionOptions};

    fn script(text: &str) -> LiveScript {
        LiveScript::new(
            Script::load(
                Path::new("scripts/cairn.lua"),
                text,
                None,
                ScriptLimits::default(),
            )
            .expect("the script loads"),
        )
    }

    fn take(row: u32, stones: u32) -> CairnAction {
        CairnAction::Take { row, stones }
    }

    #[test]
    fn the_last_stone_wins_and_the_hook_scores_each_move() {
        let level = CairnLevel {
            version: 1,
            rows: vec![1, 2],
            random_extra: 0,
        };
        let mut game =
            Recorded::<Cairn>::start(level, script(SCRIPT), 0, &SessionOptions::default())
                .expect("starts");
        game.apply(&take(2, 2)).expect("legal");
        assert_eq!(game.turn(), Turn::Seat(1));
        assert!(game.apply(&take(2, 1)).is_err(), "row 2 is empty");
        game.apply(&take(1, 1)).expect("legal");
        assert_eq!(game.game().outcome(), Outcome::Winner(1));
        // The shipped hook: a move that empties its row scores double.
        assert_eq!(game.game().scores(), vec![4, 2]);
    }

    #[test]
    fn a_misspelt_mistake_level_is_refused_with_the_nearest_key() {
        let text = SCRIPT.replace("hard =", "hrad =");
        let error = settings::check(&script(&text).current()).expect_err("refused");
        let message = error.to_string();
        assert!(message.contains("hrad"), "{message}");
        assert!(message.contains("hard"), "{message}");
    }
}
