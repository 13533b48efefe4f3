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
use tessera_host::{Game, GameError, LiveScript, Outcome, ScriptSchema};

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
    script: LiveScript,
    rng: GameRng,
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

    fn start(level: NimLevel, script: LiveScript, seed: u64) -> Result<Self, GameError> {
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
            rng,
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

    fn ai_action(&mut self) -> Result<Option<NimAction>, GameError> {
        if self.pile == 0 {
            return Ok(None);
        }
        let max = self.max_take()?;
        let winning = self.pile % (max + 1);
        let take = if winning == 0 {
            // A lost position: any move; draw it from the game's RNG.
            self.rng.random_range(1..=max.min(self.pile))
        } else {
            winning
        };
        Ok(Some(NimAction::Take(take)))
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

/// The script Nim tests use: 2 points per stone, at most 3 per move.
pub const NIM_SCRIPT: &str =
    "return {\n  max_take = 3,\n  score = function(n)\n    return n * 2\n  end,\n}\n";
