//! Nim, the tiny test game that proves the plugin host before (and beside)
//! the real games: two players take 1..=`max_take` stones from a pile; who
//! takes the last stone wins. It exercises every part of the `Game` trait:
//! a RON level, a script (settings and a scoring hook), the seeded RNG (the
//! starting pile and the AI's moves in lost positions), actions, an AI,
//! a text render and an outcome.

use rand::Rng;
use serde::{Deserialize, Serialize};
use tessera_host::level::{Diagnostic, LevelFile};
use tessera_host::rng::{GameRng, game_rng};
use tessera_host::script::{FieldKind, FieldSpec};
use tessera_host::{
    Agent, AgentGame, Decision, Game, GameError, GameSpec, ModeSpec, Outcome, Plugin, Registrar,
    Reports, Script, ScriptSchema, Scripted, Seat, Setup, Thinking, Turn,
};

/// A Nim level.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NimLevel {
    /// Format version.
    pub version: u32,
    /// Stones at the start, before the random extra.
    pub stones: u32,
    /// Up to this many extra stones are added, drawn from the seed.
    #[serde(default)]
    pub random_extra: u32,
}

impl Default for NimLevel {
    fn default() -> Self {
        Self {
            version: 1,
            stones: 10,
            random_extra: 0,
        }
    }
}

impl LevelFile for NimLevel {
    const VERSION: u32 = 1;

    fn version(&self) -> u32 {
        self.version
    }

    fn diagnose(&self) -> Vec<Diagnostic> {
        if self.stones == 0 {
            return vec![Diagnostic::error(
                std::path::Path::new(""),
                "field `stones`: must be at least 1",
            )];
        }
        Vec::new()
    }
}

/// A move: take this many stones.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum NimAction {
    /// Take stones from the pile.
    Take(u32),
}

/// A Nim session.
pub struct Nim {
    pile: u32,
    to_move: usize,
    scores: [i64; 2],
    last_taker: Option<usize>,
    script: tessera_host::LiveScript,
    /// Unused by the rules today; kept so the level's random extra and
    /// later rules draw from the one seeded stream.
    _rng: GameRng,
}

/// What Nim's AI sees: the pile and the most one move may take.
#[derive(Debug, Clone, Copy)]
pub struct NimView {
    /// Stones left.
    pub pile: u32,
    /// Most stones one move may take (read from the script beforehand).
    pub max_take: u32,
}

/// Nim's one AI level, `perfect`: leaves a multiple of `max_take + 1`
/// when it can, and otherwise takes a random legal number from its own
/// stream.
struct PerfectNim;

impl Agent<Nim> for PerfectNim {
    fn decide(
        &mut self,
        view: &NimView,
        thinking: &mut Thinking<'_>,
    ) -> Result<Decision<NimAction>, GameError> {
        if view.pile == 0 {
            return Err(GameError::Illegal("the pile is empty".into()));
        }
        thinking.count_nodes(1);
        let winning = view.pile % (view.max_take + 1);
        let take = if winning == 0 {
            thinking.rng.random_range(1..=view.max_take.min(view.pile))
        } else {
            winning
        };
        Ok(Decision::just(NimAction::Take(take)))
    }
}

impl Nim {
    /// Stones left.
    pub fn pile(&self) -> u32 {
        self.pile
    }

    /// Scores so far, from the script's `score` hook.
    pub fn scores(&self) -> [i64; 2] {
        self.scores
    }

    fn max_take(&self) -> Result<u32, GameError> {
        let max: i64 = self.script.current().value_or("max_take", 3)?;
        u32::try_from(max).ok().filter(|m| *m >= 1).ok_or_else(|| {
            GameError::Invalid(format!("`max_take` must be at least 1, it is {max}"))
        })
    }
}

impl Game for Nim {
    const ID: &'static str = "nim";

    const TITLE: &'static str = "Nim (test game)";

    type Level = NimLevel;

    type Action = NimAction;

    fn start(setup: Setup<NimLevel>) -> Result<Self, GameError> {
        let Setup {
            level,
            script,
            seed,
            ..
        } = setup;
        let mut rng = game_rng(seed);
        let extra = if level.random_extra > 0 {
            rng.random_range(0..=level.random_extra)
        } else {
            0
        };
        Ok(Self {
            pile: level.stones + extra,
            to_move: 0,
            scores: [0; 2],
            last_taker: None,
            script,
            _rng: rng,
        })
    }

    fn apply(&mut self, action: &NimAction) -> Result<(), GameError> {
        let NimAction::Take(n) = *action;
        let max = self.max_take()?;
        if self.pile == 0 {
            return Err(GameError::Illegal(
                "the pile is empty: the game is over".into(),
            ));
        }
        if n == 0 || n > max || n > self.pile {
            return Err(GameError::Illegal(format!(
                "take {n}: must take 1 to {} stones",
                max.min(self.pile)
            )));
        }
        let points: i64 = self.script.current().call("score", n)?;
        self.pile -= n;
        self.scores[self.to_move] += points;
        self.last_taker = Some(self.to_move);
        self.to_move = 1 - self.to_move;
        Ok(())
    }

    fn legal_actions(&self) -> Vec<NimAction> {
        let max = self.max_take().unwrap_or(1);
        (1..=max.min(self.pile)).map(NimAction::Take).collect()
    }

    fn turn(&self) -> Turn {
        if self.pile == 0 {
            Turn::Over
        } else {
            Turn::Seat(self.to_move)
        }
    }

    fn render_text(&self) -> String {
        format!(
            "pile {:>3} |{}|\nto move: player {}\nscores: {} / {}\n",
            self.pile,
            "o".repeat(self.pile as usize),
            self.to_move + 1,
            self.scores[0],
            self.scores[1]
        )
    }

    fn outcome(&self) -> Outcome {
        match (self.pile, self.last_taker) {
            (0, Some(player)) => Outcome::Winner(player),
            _ => Outcome::Playing,
        }
    }
}

impl Scripted for Nim {
    fn script_schema() -> ScriptSchema {
        ScriptSchema {
            game: "nim",
            fields: vec![
                FieldSpec::required("score", FieldKind::Function, "points for taking `n` stones"),
                FieldSpec::optional(
                    "max_take",
                    FieldKind::Integer,
                    "most stones one move may take",
                ),
            ],
        }
    }
}

/// Nim registers a script, two seats with an AI, and scores; its levels,
/// moves and simulations are the host's defaults, so it names none of them.
impl Plugin for Nim {
    fn register(game: &mut Registrar<Self>) {
        game.scripted()
            .seats(Self::spec)
            .agents(Self::agent)
            .reports();
    }
}

impl AgentGame for Nim {
    type Snapshot = NimView;
    type Action = NimAction;

    fn snapshot(&self) -> NimView {
        NimView {
            pile: self.pile,
            max_take: self.max_take().unwrap_or(1),
        }
    }
}

impl Nim {
    /// Two seats, a human and the `perfect` AI by default.
    pub fn spec(_script: &Script) -> Result<GameSpec, GameError> {
        Ok(GameSpec {
            modes: vec![ModeSpec::new("play", "Play")],
            min_seats: 2,
            max_seats: 2,
            default_seats: vec![
                Seat::Human,
                Seat::Ai {
                    level: "perfect".into(),
                },
            ],
            ai_levels: vec!["perfect".into()],
            also_accepts: None,
        })
    }

    /// The AI for `seat` at `level`.
    pub fn agent(
        &self,
        _seat: usize,
        level: &str,
    ) -> Result<Box<dyn tessera_host::Agent<Self>>, GameError> {
        match level {
            "perfect" => {
                // Read the script now: the agent never calls Lua.
                self.max_take()?;
                Ok(Box::new(PerfectNim))
            }
            other => Err(GameError::Invalid(format!("no AI level `{other}`"))),
        }
    }
}

impl Reports for Nim {
    fn scores(&self) -> Vec<i64> {
        self.scores.to_vec()
    }
}

/// The script Nim tests use: 2 points per stone, at most 3 per move.
pub const NIM_SCRIPT: &str =
    "return {\n  max_take = 3,\n  score = function(n)\n    return n * 2\n  end,\n}\n";
