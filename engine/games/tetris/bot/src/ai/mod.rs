//! The tetris AI (seed 004, closing its section 6 gaps): every landing the
//! piece can really reach ([`tessera_tetris::movegen`], kicks included), measured
//! after lock and clears ([`metrics`]), ranked by a difficulty from the
//! script: weighted (EASY with noise, NORMAL, HARD), GOD's lexicographic
//! order with netBenefit, or weighted with lookahead (the level above
//! GOD). [`feeder`] holds the headless feeders of feed mode; [`log`] the
//! AI log of the seed's section 5 and its `explain`.
//!
//! The script is read once per decision into a [`Difficulty`] (plain
//! numbers); nothing here calls Lua.

pub mod feeder;
pub mod hatetris_offline;
pub mod limits;
pub mod log;
pub mod metrics;
pub mod settings;

mod best_landing;
mod cancel;
mod column_base;
mod hatetris_plan;
mod hatetris_search;
mod lookahead;
mod reader;

pub use cancel::Cancelled;
pub(crate) use cancel::cancelled;
pub use hatetris_plan::PlanStats;
pub use hatetris_search::SearchStats;

use std::sync::atomic::AtomicBool;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use metrics::{BeforeMove, Metric, Metrics};
use tessera_tetris::board::Board;
pub use tessera_tetris::feed_rules::CeilingClock;
use tessera_tetris::feed_rules::FeedRules;
use tessera_tetris::movegen::{MoveGen, Placement};
use tessera_tetris::piece::{PieceKind, RotationSystem};

/// The seed's section 3.2 order, taken literally (`GOD_SEED` in the
/// script): it builds towers against a hostile feeder, so GOD's own order
/// adds guards in front of it; this one stays for comparison.
pub const SEED_ORDER: [Metric; 10] = [
    Metric::GameOverAfterMove,
    Metric::NetBenefit,
    Metric::LinesCleared,
    Metric::Holes,
    Metric::Blockades,
    Metric::WellSums,
    Metric::AggregateHeight,
    Metric::Bumpiness,
    Metric::EdgeDistance,
    Metric::Score,
];

/// A weight per metric (the script's `weights` table; missing = 0).
/// Written and read by metric name (`{"holes": -0.36}`), the weights that
/// are not 0 only, so a logged table says what it weighs.
#[derive(Debug, Clone, PartialEq)]
pub struct Weights {
    /// Indexed by `Metric as usize`.
    values: [f64; Metric::ALL.len()],
    /// The metrics weighed other than 0, in `Metric::ALL`'s order (the
    /// first `weighed`), kept with the values: the score adds only them.
    nonzero: [u8; Metric::ALL.len()],
    weighed: u8,
}

impl Serialize for Weights {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let set: Vec<Metric> = Metric::ALL
            .into_iter()
            .filter(|&m| self.get(m) != 0.0)
            .collect();
        let mut map = serializer.serialize_map(Some(set.len()))?;
        for m in set {
            map.serialize_entry(m.name(), &self.get(m))?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for Weights {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let named = std::collections::BTreeMap::<String, f64>::deserialize(deserializer)?;
        let mut weights = Weights::default();
        for (name, w) in named {
            let metric = Metric::from_name(&name)
                .ok_or_else(|| serde::de::Error::custom(format!("no metric `{name}`")))?;
            weights.set(metric, w);
        }
        Ok(weights)
    }
}

impl Default for Weights {
    fn default() -> Self {
        Self {
            values: [0.0; Metric::ALL.len()],
            nonzero: [0; Metric::ALL.len()],
            weighed: 0,
        }
    }
}

impl Weights {
    /// The weight of one metric.
    pub fn get(&self, metric: Metric) -> f64 {
        self.values[metric as usize]
    }

    /// Sets one weight.
    pub fn set(&mut self, metric: Metric, weight: f64) {
        self.values[metric as usize] = weight;
        // `Score` comes last in `Metric::ALL` and has no weight of its own.
        let scored = Metric::ALL.len() - 1;
        self.weighed = 0;
        for (i, w) in self.values[..scored].iter().enumerate() {
            if *w != 0.0 {
                self.nonzero[usize::from(self.weighed)] = i as u8;
                self.weighed += 1;
            }
        }
    }

    /// The weighted sum of `m` (the seed's 3.1 `score`; higher is better).
    ///
    /// The sum skips the metrics weighed 0 (most tables weigh six to ten
    /// of eighteen), so it is a short chain of additions: the AI adds it up
    /// for every landing it weighs. Adding a zero to a sum that is not zero
    /// leaves it as it was, bit for bit, so the short sum equals the full
    /// one unless it comes to zero, where only the sign of the zero could
    /// differ: that case is summed in full.
    #[inline]
    pub fn score(&self, m: &Metrics) -> f64 {
        let values = m.values();
        // The sum `Iterator::sum` makes: from -0.0, in `Metric::ALL` order.
        let mut sum = -0.0;
        for &i in &self.nonzero[..usize::from(self.weighed)] {
            sum += self.values[usize::from(i)] * values[usize::from(i)];
        }
        if sum != 0.0 {
            return sum;
        }
        let scored = Metric::ALL.len() - 1;
        self.values[..scored]
            .iter()
            .zip(values)
            .map(|(w, v)| w * v)
            .sum()
    }
}

/// One row of the script's difficulty table, read into plain numbers.
/// (Written and read as [`log::TableRow`], the flat row a log's `table:`
/// has always held.)
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(into = "log::TableRow", from = "log::TableRow")]
pub struct Difficulty {
    /// Its name (`EASY`, `GOD`, ...): the AI level seats name.
    pub name: String,
    /// Weights of the score.
    pub weights: Weights,
    /// Amplitude of the uniform noise added to each score (EASY).
    pub noise: f64,
    /// The lexicographic order (GOD); empty = rank by score.
    pub order: Vec<Metric>,
    /// Pieces looked ahead: 0 none, 1 = the next piece (the known one,
    /// else the expectation over the pieces that may come).
    pub lookahead: u8,
    /// How many of the best one-piece candidates the lookahead examines.
    pub beam: usize,
    /// The decision delay of the seed (presentation only).
    pub decision_ms: u32,
    /// Feed mode's rules in this row (`special_chance`, `ceiling_every`):
    /// the rules' own, read by their reader and kept here only so that the
    /// row a log's `table:` writes is the whole script row.
    pub feed: FeedRules,
    /// Feed mode: which piece the lookahead expects the player to give.
    pub adversary: Adversary,
    /// Feed mode with a `height` or `own` adversary: the plies the
    /// expected-line search follows (0 = `lookahead`), so a difficulty can
    /// search deep in feed mode and keep a one-piece lookahead in classic
    /// play.
    pub line_depth: u8,
    /// The boards the expected-line search keeps per ply (0 = `beam`).
    pub line_beam: usize,
    /// Against a `height` adversary: 0 searches afresh at every decision;
    /// more keeps the search's tree for the next decision and extends it
    /// by this many plies' worth of boards (`line_beam` each) a decision.
    /// (Left out of a log's table when 0, so the logs of every other
    /// difficulty read as before.)
    pub line_step: u8,
    /// Against a `height` adversary: more than 0 plays a plan for the
    /// whole game and improves it with a whole-game beam of `line_beam`
    /// boards a ply rooted this many moves ahead, built with `line_step`
    /// plies' worth of boards a decision (`hatetris_plan.rs`); 0 uses the
    /// kept tree above. (Left out of a log's table when 0.)
    pub line_lead: u8,
    /// Against an `own` adversary, the ranking for a player who is off
    /// the expected line: when the piece just given is not the one a
    /// reader of the AI gives on this board, the decision is made by this
    /// difficulty instead (the row's `off_line_order` with the worst-case
    /// lookahead over the offer). Built from the same script row, so a
    /// log's table carries it. (Left out of a log's table when absent.)
    pub off_line: Option<Box<Difficulty>>,
    /// With an `off_line` ranking: the reader's pieces in a row the player
    /// must give before the expected line is trusted (a person feeding
    /// what they like gives the reader's piece now and then by chance).
    pub line_trust: u8,
}

/// Whom the feed-mode lookahead expects to choose the next piece.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Adversary {
    /// The piece whose best landing scores worst by the AI's own weights
    /// (minimax over every piece the player may give), `lookahead` plies
    /// deep (at most 2: seven replies per ply).
    #[default]
    Score,
    /// The piece whose lowest reachable stack is highest (ties S Z O I L J
    /// T): a player who raises the stack, as HATETRIS does. One piece per
    /// ply, so the search follows the expected lines `line_depth` plies
    /// deep, keeping the best `line_beam` boards at each ply, ranked by
    /// rows cleared plus the last board, its tree kept between decisions
    /// with `line_step` (`hatetris_search.rs`).
    Height,
    /// The piece whose best landing by this difficulty's own one-piece
    /// ranking leaves the highest stack, then the most holes: a player who
    /// reads the AI, as the `hate` feeder does. One piece per ply, like
    /// `Height`.
    Own,
}

impl Difficulty {
    /// The ranking that decides at `position`: the row's own, or, in feed
    /// mode, its `off_line` ranking while the player has given the
    /// reader's piece fewer than `line_trust` times in a row; and whether
    /// it is the `off_line` one.
    pub fn ranking_at(&self, position: &Position) -> (&Difficulty, bool) {
        match &self.off_line {
            Some(other)
                if matches!(position.unknown_next, UnknownNext::Worst(_))
                    && position.next.is_none()
                    && position.reader_streak < u32::from(self.line_trust) =>
            {
                (other.as_ref(), true)
            }
            _ => (self, false),
        }
    }
}

impl Adversary {
    /// The script's name for it.
    pub fn name(self) -> &'static str {
        match self {
            Adversary::Score => "score",
            Adversary::Height => "height",
            Adversary::Own => "own",
        }
    }

    /// The adversary a name stands for.
    pub fn from_name(name: &str) -> Option<Self> {
        [Adversary::Score, Adversary::Height, Adversary::Own]
            .into_iter()
            .find(|a| a.name() == name)
    }

    /// The deepest lookahead this adversary allows.
    pub fn max_lookahead(self) -> u8 {
        match self {
            Adversary::Score => 2,
            Adversary::Height | Adversary::Own => 32,
        }
    }
}

impl Difficulty {
    /// Why this difficulty cannot be played, naming the first field out of
    /// range (`None` = fine). Used on values that did not come through the
    /// script reader, such as a pasted AI log's `table:`.
    pub fn problem(&self) -> Option<String> {
        let out_of = |key: &str, v: f64, range: &std::ops::RangeInclusive<f64>| {
            (!v.is_finite() || !range.contains(&v)).then(|| {
                format!(
                    "`{key}` must be {} to {}, not {v}",
                    range.start(),
                    range.end()
                )
            })
        };
        if self.name.trim().is_empty() || self.name.contains([' ', ',', ':']) {
            return Some(format!(
                "difficulty name {:?}: one word, no spaces, commas or colons",
                self.name
            ));
        }
        for metric in Metric::ALL {
            let w = self.weights.get(metric);
            if !w.is_finite() || w.abs() > limits::WEIGHT {
                return Some(format!(
                    "weight `{}` must be a finite number within +-{:e}, not {w}",
                    metric.name(),
                    limits::WEIGHT
                ));
            }
        }
        let deepest = 0.0..=f64::from(self.adversary.max_lookahead());
        out_of("noise", self.noise, &limits::NOISE)
            .or_else(|| out_of("lookahead", f64::from(self.lookahead), &deepest))
            .or_else(|| out_of("beam", self.beam as f64, &limits::BEAM))
            .or_else(|| {
                out_of(
                    "line_depth",
                    f64::from(self.line_depth),
                    &limits::LINE_DEPTH,
                )
            })
            .or_else(|| out_of("line_beam", self.line_beam as f64, &limits::LINE_BEAM))
            .or_else(|| out_of("line_step", f64::from(self.line_step), &limits::LINE_STEP))
            .or_else(|| out_of("line_lead", f64::from(self.line_lead), &limits::LINE_LEAD))
            .or_else(|| {
                out_of(
                    "decision_ms",
                    f64::from(self.decision_ms),
                    &limits::DECISION_MS,
                )
            })
            .or_else(|| {
                out_of(
                    "special_chance",
                    self.feed.special_chance,
                    &limits::SPECIAL_CHANCE,
                )
            })
            .or_else(|| {
                out_of(
                    "ceiling_every",
                    f64::from(self.feed.ceiling_every),
                    &limits::CEILING_EVERY,
                )
            })
            .or_else(|| {
                out_of(
                    "line_trust",
                    f64::from(self.line_trust),
                    &limits::LINE_TRUST,
                )
            })
            .or_else(|| {
                let off_line = self.off_line.as_deref()?;
                if off_line.off_line.is_some() {
                    return Some("`off_line` has an `off_line` of its own".into());
                }
                off_line.problem().map(|p| format!("off_line: {p}"))
            })
            .or_else(|| self.search_over_budget())
    }
}

/// What the AI decides from: the board, the piece and how it enters.
#[derive(Debug, Clone, PartialEq)]
pub struct Position {
    /// Locked cells.
    pub board: Board,
    /// The piece to place.
    pub piece: PieceKind,
    /// The next piece, when it is known (classic preview).
    pub next: Option<PieceKind>,
    /// The rotation system in force.
    pub rotation: RotationSystem,
    /// The row the piece's box spawns at (0, or just under the ceiling).
    pub spawn_row: i32,
    /// Rows from the top that top out when filled.
    pub danger_rows: usize,
    /// When feed mode's ceiling drops next (the default: never), so a
    /// search many pieces deep sees the spawn row and the danger rows
    /// come down as the game will bring them.
    pub ceiling: CeilingClock,
    /// What may come after an unknown next piece, and how to weigh it:
    /// the randomizer's pieces on average, or the worst of the pieces a
    /// hostile feeder may give.
    pub unknown_next: UnknownNext,
    /// Feed mode: how many pieces in a row, this one included, the player
    /// gave as a reader of the AI's difficulty would (the `hate` rule on
    /// the board it was given for); 0 outside feed mode. A difficulty with
    /// an `off_line` ranking follows its expected line only after
    /// `line_trust` of them.
    pub reader_streak: u32,
}

/// How the lookahead treats a next piece it does not know.
#[derive(Debug, Clone, PartialEq)]
pub enum UnknownNext {
    /// The average over these pieces (a randomizer).
    Average(Vec<PieceKind>),
    /// The worst of these pieces (a feeder that wants the AI to lose).
    Worst(Vec<PieceKind>),
}

impl Position {
    /// `piece` on `board` as the shipped script plays it: no preview,
    /// rotation `"cycle"`, spawning at row 0 with one danger row, no
    /// ceiling, the worst of all seven pieces after an unknown next, no
    /// reader streak. Tools and tests that drive a brain by hand start
    /// from it and change what they need.
    pub fn shipped(board: Board, piece: PieceKind) -> Self {
        Self {
            board,
            piece,
            next: None,
            rotation: RotationSystem::Cycle,
            spawn_row: 0,
            danger_rows: 1,
            ceiling: CeilingClock::default(),
            reader_streak: 0,
            unknown_next: UnknownNext::Worst(PieceKind::ALL.to_vec()),
        }
    }

    /// The metrics of `placement` on the `before` board, with the height
    /// guard for this position's board and danger rows.
    #[inline]
    pub fn measure(&self, before: &BeforeMove, placement: &Placement) -> Metrics {
        before
            .metrics(placement, self.danger_rows)
            .with_high_rows(self.board.height(), self.danger_rows)
    }

    /// Where `kind` spawns on this position's board.
    pub fn spawn(&self, kind: PieceKind) -> (i32, i32) {
        let (x, _) = tessera_tetris::board::spawn_position(kind, self.board.width());
        (x, self.spawn_row)
    }
}

/// One landing the AI weighed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Candidate {
    /// Where the piece locks.
    pub placement: Placement,
    /// Its metrics after lock and clears.
    pub metrics: Metrics,
    /// The weighted score (with noise, for a noisy difficulty).
    pub score: f64,
    /// The lookahead's value, when it looked at this candidate.
    pub ahead: Option<f64>,
    /// The lookahead's guard, when it looked at this candidate: whether
    /// some next piece has no landing that avoids topping out.
    pub next_tops_out: Option<bool>,
    /// The expected-line search's guard, when it followed this candidate:
    /// the pieces of the expected line its boards lasted (`linePlies`).
    #[serde(default)]
    pub line_plies: Option<u8>,
}

impl Candidate {
    /// A metric's value as the ranking sees it (`Score` = the score).
    pub fn value(&self, metric: Metric) -> f64 {
        match metric {
            Metric::Score => self.score,
            Metric::Lookahead => self.ahead.unwrap_or(f64::NEG_INFINITY),
            Metric::LinePlies => f64::from(self.line_plies.unwrap_or(0)),
            Metric::NextTopOut => match self.next_tops_out {
                Some(true) => 1.0,
                Some(false) => 0.0,
                None => 0.5,
            },
            other => self.metrics.get(other),
        }
    }
}

/// A decision: every candidate, best first, and why the best won.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Choice {
    /// Every reachable landing, best first.
    pub candidates: Vec<Candidate>,
    /// The first criterion where the best and the runner-up differ (a
    /// metric's name, `score` or `lookahead`; `None` with fewer than two
    /// candidates or a full tie). A name, not a `String`, so a decision
    /// allocates nothing.
    pub decided_by: Option<&'static str>,
    /// Whether the player was off the expected line, so the difficulty's
    /// `off_line` ranking decided (the log says so).
    pub off_line: bool,
}

impl Choice {
    /// The chosen landing.
    pub fn best(&self) -> Option<&Candidate> {
        self.candidates.first()
    }
}

/// The AI's working memory: the move generator's buffers and the last
/// decision's candidate list, reused, so a decision after the first
/// allocates nothing (`tests/tetris_alloc.rs` counts).
#[derive(Default)]
pub struct Brain {
    movegen: MoveGen,
    /// The `hate` feeder's reader (its buffers).
    reader: reader::Reader,
    /// The last decision, its candidate list reused by the next one.
    choice: Choice,
    /// One move generator and candidate buffer per lookahead ply.
    plies: Vec<lookahead::Ply>,
    /// The expected-line search's boards (feed mode, `Adversary::Own`).
    line: lookahead::LineSearch,
    /// The line search against HATETRIS (feed mode, `Adversary::Height`),
    /// its tree kept for the next decision when `line_step > 0`.
    hatetris: hatetris_search::HatetrisSearch,
    /// The plan against HATETRIS when `line_lead > 0`.
    planner: hatetris_plan::HatetrisPlanner,
}

impl Brain {
    /// A brain with empty buffers.
    pub fn new() -> Self {
        Self::default()
    }

    /// What the last decision's search against HATETRIS did (whether it
    /// kept the tree of the decision before, boards expanded, depth).
    pub fn hatetris_stats(&self) -> SearchStats {
        self.hatetris.stats()
    }

    /// What the last decision of the planner against HATETRIS did
    /// (`line_lead > 0`).
    pub fn plan_stats(&self) -> PlanStats {
        self.planner.stats()
    }

    /// Ranks every reachable landing of `position.piece` under
    /// `difficulty`; `noise_seed` drives the noise of a noisy difficulty,
    /// so a logged decision can be reproduced. A copy the caller keeps
    /// (logs, explain, tests); the agents' hot path is
    /// [`Brain::choose_top`], which lends the brain's own list.
    pub fn choose(
        &mut self,
        position: &Position,
        difficulty: &Difficulty,
        noise_seed: u64,
    ) -> Choice {
        self.choose_top(position, difficulty, noise_seed, usize::MAX)
            .clone()
    }

    /// [`Brain::choose`], putting only the best `keep` (at least 2) in
    /// order: what a decision needs, without sorting the whole list. The
    /// ranking is a total order, so the first `keep` are the same as a full
    /// sort's. The decision is the brain's (valid until its next one): its
    /// candidate list is reused, not allocated per decision.
    pub fn choose_top(
        &mut self,
        position: &Position,
        difficulty: &Difficulty,
        noise_seed: u64,
        keep: usize,
    ) -> &Choice {
        // A flag nobody sets: the decision runs to its end.
        let never = AtomicBool::new(false);
        let _ = self.decide(position, difficulty, noise_seed, keep, &never);
        &self.choice
    }

    /// Makes the decision into `self.choice`, or is cancelled (the brain
    /// then emptied).
    pub(super) fn decide(
        &mut self,
        position: &Position,
        difficulty: &Difficulty,
        noise_seed: u64,
        keep: usize,
        cancel: &AtomicBool,
    ) -> Result<(), Cancelled> {
        // A player off the expected line meets the difficulty's other
        // ranking (`off_line_order`); the flag goes into the decision.
        let (difficulty, off_line) = difficulty.ranking_at(position);
        let spawn = position.spawn(position.piece);
        let landings =
            self.movegen
                .generate(&position.board, position.piece, position.rotation, spawn);
        let mut noise = ChaCha8Rng::seed_from_u64(noise_seed);
        let before = BeforeMove::new(&position.board);
        // The last decision's list, emptied: its capacity is reused.
        let mut candidates = std::mem::take(&mut self.choice.candidates);
        candidates.clear();
        candidates.extend(landings.iter().map(|placement| {
            let metrics = position.measure(&before, placement);
            let mut score = difficulty.weights.score(&metrics);
            if difficulty.noise > 0.0 {
                score += noise.random_range(-difficulty.noise..=difficulty.noise);
            }
            Candidate {
                placement: *placement,
                metrics,
                score,
                ahead: None,
                next_tops_out: None,
                line_plies: None,
            }
        }));
        if difficulty.lookahead > 0 {
            self.look_ahead(position, difficulty, &mut candidates, cancel);
        }
        // The flag stays set once set, so a search cut short by it is seen
        // here: its values are partial, and the kept tree or plan may be
        // half-built, so the whole brain is dropped for a new one.
        if cancelled(cancel) {
            *self = Brain::default();
            return Err(Cancelled);
        }
        let decided_by = rank_top(&mut candidates, difficulty, keep);
        self.choice = Choice {
            candidates,
            decided_by,
            off_line,
        };
        Ok(())
    }
}

/// Whether `kind`, given on `position`'s board from `offer`, is the piece
/// a reader of `difficulty` gives there (the `hate` feeder's rule): what
/// feed mode counts into [`Position::reader_streak`].
pub fn is_reader_piece(
    movegen: &mut MoveGen,
    position: &Position,
    difficulty: &Difficulty,
    offer: &[PieceKind],
    kind: PieceKind,
) -> bool {
    let one_ply = feeder::one_ply(difficulty);
    reader::Reader::default().choose(movegen, position, &one_ply, &position.board, offer)
        == Some(kind)
}

/// Sorts one piece's candidates, in the move generator's order, by score,
/// best first, equal scores keeping that order: what a stable sort does,
/// without its scratch buffer (a stable sort of more than a few dozen
/// candidates allocates one). The generator lists landings by rotation
/// state, then row, then column, so that order is the tie-break.
pub(crate) fn sort_by_score(candidates: &mut [Candidate]) {
    let generated = |c: &Candidate| (c.placement.state, c.placement.y, c.placement.x);
    debug_assert!(
        candidates
            .windows(2)
            .all(|w| generated(&w[0]) < generated(&w[1])),
        "candidates not in the generator's order"
    );
    candidates.sort_unstable_by(|a, b| {
        b.score
            .total_cmp(&a.score)
            .then_with(|| generated(a).cmp(&generated(b)))
    });
}

/// How two candidates rank under `difficulty`: `Less` when `a` is better.
pub fn compare(a: &Candidate, b: &Candidate, difficulty: &Difficulty) -> std::cmp::Ordering {
    // Equal candidates fall back on where they land, so the ranking is a
    // total order: any sort, full or partial, agrees on it.
    let by_place = a.placement.cmp(&b.placement);
    if difficulty.order.is_empty() {
        // The expected-line search's plies first (0 for every candidate
        // without one): a line that lasts longer beats a better-scored
        // line that ends sooner, whatever the scores summed.
        let plies = |c: &Candidate| c.line_plies.unwrap_or(0);
        let key = |c: &Candidate| c.ahead.unwrap_or(f64::NEG_INFINITY);
        plies(b)
            .cmp(&plies(a))
            .then(key(b).total_cmp(&key(a)))
            .then(b.score.total_cmp(&a.score))
            .then(by_place)
    } else {
        compare_in_order(a, &ranking_values(a), b, &ranking_values(b), difficulty)
    }
}

/// What a lexicographic order reads of a candidate: every metric, and its
/// weighted score in `Score`'s place.
type RankingValues = [f64; Metric::ALL.len()];

fn ranking_values(c: &Candidate) -> RankingValues {
    let mut values = c.metrics.values();
    values[Metric::Score as usize] = c.score;
    values[Metric::Lookahead as usize] = c.value(Metric::Lookahead);
    values[Metric::NextTopOut as usize] = c.value(Metric::NextTopOut);
    values[Metric::LinePlies as usize] = c.value(Metric::LinePlies);
    values
}

/// [`compare`] under a lexicographic order, from the candidates' values.
fn compare_in_order(
    a: &Candidate,
    va: &RankingValues,
    b: &Candidate,
    vb: &RankingValues,
    difficulty: &Difficulty,
) -> std::cmp::Ordering {
    for &metric in &difficulty.order {
        let (x, y) = (va[metric as usize], vb[metric as usize]);
        let o = if metric.higher_is_better() {
            y.total_cmp(&x)
        } else {
            x.total_cmp(&y)
        };
        if o.is_ne() {
            return o;
        }
    }
    a.placement.cmp(&b.placement)
}

/// Sorts best first (ties keep the generator's order, so decisions are
/// reproducible); returns what separated the best from the runner-up.
pub fn rank(candidates: &mut [Candidate], difficulty: &Difficulty) -> Option<&'static str> {
    rank_top(candidates, difficulty, usize::MAX)
}

/// [`rank`], ordering only the best `keep` (at least 2).
fn rank_top(
    candidates: &mut [Candidate],
    difficulty: &Difficulty,
    keep: usize,
) -> Option<&'static str> {
    let keep = keep.max(2);
    let better = |a: &Candidate, b: &Candidate| compare(a, b, difficulty).is_lt();
    if keep <= 8 && keep < candidates.len() {
        // A decision needs the best two: one pass that keeps the best
        // `keep` in order at the front, about one comparison per candidate
        // (a full selection makes several).
        candidates[..keep].sort_unstable_by(|a, b| compare(a, b, difficulty));
        // Under an order, the last kept candidate's values are read once,
        // not at every comparison.
        let ordered = !difficulty.order.is_empty();
        let mut last_kept = ranking_values(&candidates[keep - 1]);
        for i in keep..candidates.len() {
            let enters = if ordered {
                let values = ranking_values(&candidates[i]);
                compare_in_order(
                    &candidates[i],
                    &values,
                    &candidates[keep - 1],
                    &last_kept,
                    difficulty,
                )
                .is_lt()
            } else {
                better(&candidates[i], &candidates[keep - 1])
            };
            if enters {
                candidates.swap(i, keep - 1);
                let mut j = keep - 1;
                while j > 0 && better(&candidates[j], &candidates[j - 1]) {
                    candidates.swap(j, j - 1);
                    j -= 1;
                }
                last_kept = ranking_values(&candidates[keep - 1]);
            }
        }
    } else if keep < candidates.len() {
        candidates.select_nth_unstable_by(keep, |a, b| compare(a, b, difficulty));
        candidates[..keep].sort_unstable_by(|a, b| compare(a, b, difficulty));
    } else {
        candidates.sort_unstable_by(|a, b| compare(a, b, difficulty));
    }
    let (best, second) = (candidates.first()?, candidates.get(1)?);
    if difficulty.order.is_empty() {
        if best.line_plies.unwrap_or(0) != second.line_plies.unwrap_or(0) {
            Some(Metric::LinePlies.name())
        } else if best.ahead != second.ahead && best.ahead.is_some() {
            Some("lookahead")
        } else if best.score != second.score {
            Some(if difficulty.noise > 0.0 {
                "score+noise"
            } else {
                "score"
            })
        } else {
            None
        }
    } else {
        difficulty
            .order
            .iter()
            .find(|&&m| best.value(m) != second.value(m))
            .map(|m| m.name())
    }
}
