//! What a game adds to a simulation, and the level it plays
//! ([`SimLevel`]): the options it takes beyond seats
//! and mode ([`SimOptionSpec`], [`SimOptions`]), and the figures it reports
//! for each finished game ([`SimFigure`]), from the game and from how its
//! AI seats played ([`SimPlay`]). The host folds the figures into running
//! summaries ([`super::tally`]); the game only says what each number is.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

use serde::{Deserialize, Serialize};

/// How a game's simulations are set up on the command line and in panels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SimStyle {
    /// Seat against seat: `--seats ai:A,ai:B`, the order rotating each
    /// game; each move within `--move-ms` / `--nodes`, a game within
    /// `--max-moves` (board games: azul).
    Seats,
    /// A ladder: each AI level of `--ai` plays its own games on the same
    /// seeds, in the last seat, the other seats filled by `--feeder` (or
    /// the game's first AI level); the game's own options bound a game
    /// (tetris: `--pieces`), and its AI its own time.
    Ladder,
}

/// The kind of value a game's simulation option takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SimOptionKind {
    /// On when given (`--preview`).
    Flag,
    /// A whole number, at least 1 (`--pieces 300`).
    Count,
}

/// One option a game's simulations take (the CLI refuses those a game
/// does not list).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SimOptionSpec {
    /// The option's name (`pieces`: `--pieces` on the command line).
    pub name: &'static str,
    /// Flag or count.
    pub kind: SimOptionKind,
    /// One line for help texts.
    pub help: &'static str,
}

/// The game options of one simulation, by name: flags hold 1 when on.
/// Options not given are absent (the game's default applies).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SimOptions(BTreeMap<String, u64>);

impl SimOptions {
    /// Sets option `name` (a flag: 1).
    pub fn set(&mut self, name: &str, value: u64) {
        self.0.insert(name.to_string(), value);
    }

    /// The value of a count option, when given.
    pub fn count(&self, name: &str) -> Option<u64> {
        self.0.get(name).copied()
    }

    /// Whether a flag is on.
    pub fn flag(&self, name: &str) -> bool {
        self.0.get(name).is_some_and(|v| *v != 0)
    }

    /// Every option given, by name.
    pub fn iter(&self) -> impl Iterator<Item = (&str, u64)> {
        self.0.iter().map(|(k, v)| (k.as_str(), *v))
    }
}

/// How the AI seats of one simulated game played, measured by the host.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SimPlay {
    /// Per seat: decisions made.
    pub decisions: Vec<u64>,
    /// Per seat: time spent deciding (the search alone, not applying).
    pub thinking: Vec<Duration>,
}

impl SimPlay {
    /// An empty record for `seats` seats.
    pub fn new(seats: usize) -> Self {
        Self {
            decisions: vec![0; seats],
            thinking: vec![Duration::ZERO; seats],
        }
    }

    /// Notes one decision of `seat` that took `took`.
    pub fn note(&mut self, seat: usize, took: Duration) {
        if let (Some(d), Some(t)) = (self.decisions.get_mut(seat), self.thinking.get_mut(seat)) {
            *d += 1;
            *t += took;
        }
    }

    /// Mean time per decision of `seat`, in microseconds (0 without one).
    pub fn mean_decision_us(&self, seat: usize) -> f64 {
        match (self.decisions.get(seat), self.thinking.get(seat)) {
            (Some(&n), Some(t)) if n > 0 => t.as_nanos() as f64 / n as f64 / 1000.0,
            _ => 0.0,
        }
    }
}

/// One number a game reports for a finished simulated game.
#[derive(Debug, Clone, PartialEq)]
pub struct SimFigure {
    /// Its name in CSV columns and JSON keys (`lines`, `ai_win`).
    pub key: &'static str,
    /// Its column title in tables (`lines`, `AI win rate`).
    pub label: &'static str,
    /// The value.
    pub value: SimValue,
    /// For a flag: show its rate's 95% interval in tables too.
    pub interval: bool,
}

/// The value of a figure, which says how it is summarised.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum SimValue {
    /// A count (lines, pieces): mean and median.
    Count(u64),
    /// Yes or no (the AI won): the share of games, with its 95% interval.
    Flag(bool),
    /// A measurement (time per decision): the mean.
    Real(f64),
}

impl SimFigure {
    /// A count: mean and median.
    pub fn count(key: &'static str, label: &'static str, value: u64) -> Self {
        Self {
            key,
            label,
            value: SimValue::Count(value),
            interval: false,
        }
    }

    /// A yes/no figure: its rate.
    pub fn flag(key: &'static str, label: &'static str, value: bool) -> Self {
        Self {
            key,
            label,
            value: SimValue::Flag(value),
            interval: false,
        }
    }

    /// A measurement: its mean.
    pub fn real(key: &'static str, label: &'static str, value: f64) -> Self {
        Self {
            key,
            label,
            value: SimValue::Real(value),
            interval: false,
        }
    }

    /// This figure with its rate's 95% interval shown in tables.
    pub fn with_interval(mut self) -> Self {
        self.interval = true;
        self
    }

    /// The value as a CSV cell: counts whole, flags `true`/`false`,
    /// measurements with three decimals.
    pub fn csv_cell(&self) -> String {
        match self.value {
            SimValue::Count(n) => n.to_string(),
            SimValue::Flag(b) => b.to_string(),
            SimValue::Real(x) => format!("{x:.3}"),
        }
    }
}

/// The level a simulation plays.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum SimLevel {
    /// The game's simulation board ([`crate::plugin::Simulated::sim_level`]),
    /// else its default level.
    #[default]
    Default,
    /// A level file.
    File(PathBuf),
    /// A level's text as if read from `path` (an editor's level that may
    /// be unsaved): read and diagnosed as the file would be.
    Text {
        /// The name errors give.
        path: PathBuf,
        /// The level's text.
        text: String,
    },
}
