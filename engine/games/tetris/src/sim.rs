//! What tetris brings to the host's simulations (`tessera sim tetris`,
//! the Balance panel): its options (`pieces`, the piece cap; `preview`,
//! whether the AI sees the next piece; `endless`, a feed level without
//! its target, so an AI that would win is measured by how long it
//! survives), its benchmark boards, and the
//! figures a designer tunes by: lines, pieces survived, the AI's win
//! rate, time per decision. The games themselves are the host's
//! (`tessera_host::sim::run_sim`), each started through the project and
//! its AI seats driven by the host like any game's.

use tessera_host::options::SessionOptions;
use tessera_host::plugin::Outcome;
use tessera_host::sim::{SimFigure, SimOptionKind, SimOptionSpec, SimOptions, SimPlay};

use crate::Tetris;
use crate::level::TetrisLevel;

/// The piece cap when `--pieces` is not given.
pub const DEFAULT_PIECE_CAP: u64 = 100_000;

/// The options of tetris simulations.
pub const OPTIONS: &[SimOptionSpec] = &[
    SimOptionSpec {
        name: "pieces",
        kind: SimOptionKind::Count,
        help: "most pieces per game (a classic game that reaches it survived); 100000",
    },
    SimOptionSpec {
        name: "preview",
        kind: SimOptionKind::Flag,
        help: "the AI sees the next piece (default: no preview)",
    },
    SimOptionSpec {
        name: "endless",
        kind: SimOptionKind::Flag,
        help: "feed mode: no target, the AI plays until it tops out or the piece cap (survival on a level's board and ceiling)",
    },
];

/// A simulated game's settings, held by the game.
#[derive(Debug, Clone)]
pub(crate) struct SimSettings {
    /// The game stops (not over, "capped") once this many pieces locked.
    pub piece_cap: u64,
    /// Whether AI snapshots keep the next pieces.
    pub preview: bool,
}

impl SimSettings {
    /// Reads `options`. (The difficulty an agent plays is the bot's
    /// business: it reads the row from the script.)
    pub fn of(options: &SimOptions) -> Self {
        Self {
            piece_cap: options.count("pieces").unwrap_or(DEFAULT_PIECE_CAP),
            preview: options.flag("preview"),
        }
    }
}

impl Tetris {
    /// The simulation's board for `options`: the classic self-play board,
    /// or the feeder benchmark in feed mode.
    pub(crate) fn sim_board(options: &SessionOptions) -> TetrisLevel {
        if options.mode() == "feed" {
            feeder_benchmark_level()
        } else {
            classic_benchmark_level()
        }
    }

    /// Whether the piece cap stopped the game.
    pub(crate) fn sim_capped(&self) -> bool {
        self.sim
            .as_ref()
            .is_some_and(|s| !self.outcome.is_over() && self.field.locked() >= s.piece_cap)
    }

    /// The figures of one simulated game (finished or capped).
    pub(crate) fn figures(&self, play: &SimPlay) -> Vec<SimFigure> {
        let capped = !self.outcome.is_over();
        let feed = self.feed.is_some();
        // The AI is the last seat: 0 in classic play, 1 in feed mode.
        let ai_seat = usize::from(feed);
        let ai_won = match (feed, &self.outcome) {
            (false, outcome) => capped || *outcome == Outcome::Won,
            (true, Outcome::Winner(seat)) => *seat == ai_seat,
            (true, _) => false,
        };
        let mut figures = vec![
            SimFigure::count("lines", "lines", self.lines()),
            SimFigure::count("pieces", "pieces", self.field.locked()),
            SimFigure::flag(
                "ai_win",
                if feed { "AI win rate" } else { "survived cap" },
                ai_won,
            ),
            SimFigure::flag("capped", "capped", capped),
            SimFigure::real("decision_us", "us/decision", play.mean_decision_us(ai_seat)),
        ];
        // Over, and not by the AI: feed mode's player (the feeder) won; in
        // classic play the AI topped out.
        let player_won = !ai_won && !capped;
        figures.push(if feed {
            SimFigure::flag("player_win", "player win rate", player_won).with_interval()
        } else {
            SimFigure::flag("player_win", "topped out", player_won)
        });
        figures
    }
}

/// The board of the seed's classic self-play benchmark: 10 x 20, spawn
/// in the top rows, uniform random pieces, no garbage.
pub fn classic_benchmark_level() -> TetrisLevel {
    TetrisLevel {
        title: "self-play 10 x 20".into(),
        rows: 20,
        columns: 10,
        randomizer: Some("uniform".into()),
        // Played until the AI tops out or the simulation's piece cap.
        goal: crate::level::Goal::Survive(u64::MAX),
        ..TetrisLevel::default()
    }
}

/// The board of the benchmark against a feeder: 10 x 20 and no ceiling,
/// so only the pieces decide (`target_lines` is out of reach).
pub fn feeder_benchmark_level() -> TetrisLevel {
    TetrisLevel {
        title: "feeder benchmark 10 x 20, no ceiling".into(),
        rows: 20,
        columns: 10,
        feed: Some(crate::level::FeedLevel {
            difficulty: "GOD".into(),
            target_lines: 100_000,
            lowering_ceiling: false,
            ceiling_every: None,
        }),
        ..TetrisLevel::default()
    }
}
