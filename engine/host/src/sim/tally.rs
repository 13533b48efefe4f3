//! Running summaries of a simulation: each finished game is folded in as
//! it comes, so memory does not grow with the number of games (a score
//! or count is kept as a histogram of its distinct values, which is what
//! an exact median needs). Tallies are plain data: a shard prints them in
//! its partial and `tessera merge` adds them up, shard by shard in order,
//! to the tally of the unsharded run.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::figures::{SimFigure, SimValue};
use crate::options::Seat;

/// How many times each value occurred: exact sums, means and medians of
/// whole numbers in the space of their distinct values.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Histogram(BTreeMap<i64, u64>);

impl Histogram {
    /// Counts one occurrence of `value`.
    pub fn add(&mut self, value: i64) {
        *self.0.entry(value).or_insert(0) += 1;
    }

    /// Adds every occurrence counted in `other`; `None` when a count no
    /// longer fits (tampered shards), `self` then partly merged.
    #[must_use]
    pub fn merge(&mut self, other: &Histogram) -> Option<()> {
        for (&value, &times) in &other.0 {
            let count = self.0.entry(value).or_insert(0);
            *count = count.checked_add(times)?;
        }
        Some(())
    }

    /// Values counted, `None` when the total does not fit in 64 bits.
    fn checked_len(&self) -> Option<u64> {
        self.0.values().try_fold(0u64, |sum, &n| sum.checked_add(n))
    }

    /// Values counted.
    pub fn len(&self) -> u64 {
        self.0.values().sum()
    }

    /// Whether nothing was counted.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The sum of the values (exact).
    pub fn sum(&self) -> i128 {
        self.0
            .iter()
            .map(|(&v, &n)| i128::from(v) * i128::from(n))
            .sum()
    }

    /// The `n`-th smallest value (0-based), if there are that many.
    fn nth(&self, mut n: u64) -> Option<i64> {
        for (&value, &times) in &self.0 {
            if n < times {
                return Some(value);
            }
            n -= times;
        }
        None
    }

    /// The median (the mean of the two middle values for an even count;
    /// 0 when empty).
    pub fn median(&self) -> f64 {
        let len = self.len();
        if len == 0 {
            return 0.0;
        }
        let upper = self.nth(len / 2).unwrap_or(0) as f64;
        if len % 2 == 1 {
            upper
        } else {
            (self.nth(len / 2 - 1).unwrap_or(0) as f64 + upper) / 2.0
        }
    }
}

/// One player's wins and scores.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PlayerTally {
    /// The player as written (`ai:hard`).
    pub seat: String,
    /// Games won, by how many players shared the win (1: won alone), so
    /// the sum of shares is exact whatever order games come in.
    pub wins_shared_by: BTreeMap<u32, u64>,
    /// The player's scores.
    pub scores: Histogram,
}

impl PlayerTally {
    /// Games won, a shared win counting its share.
    pub fn wins(&self) -> f64 {
        self.wins_shared_by
            .iter()
            .map(|(&k, &n)| n as f64 / f64::from(k.max(1)))
            // Not `sum()`: an empty float sum is -0.0, printed `-0.0`.
            .fold(0.0, |total, share| total + share)
    }
}

/// The running summary of one figure a game reports.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FigureTally {
    /// CSV/JSON name.
    pub key: String,
    /// Table title.
    pub label: String,
    /// Whether tables show a rate's 95% interval.
    pub interval: bool,
    /// What has been counted.
    pub kind: FigureKind,
}

/// What is kept of a figure, by its kind.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum FigureKind {
    /// Counts: their histogram (mean and median).
    Count(Histogram),
    /// Flags: how many were yes.
    Flag(u64),
    /// Measurements: their sum (the mean).
    Real(f64),
}

impl FigureTally {
    fn of(figure: &SimFigure) -> Self {
        Self {
            key: figure.key.to_string(),
            label: figure.label.to_string(),
            interval: figure.interval,
            kind: match figure.value {
                SimValue::Count(_) => FigureKind::Count(Histogram::default()),
                SimValue::Flag(_) => FigureKind::Flag(0),
                SimValue::Real(_) => FigureKind::Real(0.0),
            },
        }
    }

    fn add(&mut self, value: SimValue) {
        match (&mut self.kind, value) {
            (FigureKind::Count(h), SimValue::Count(n)) => {
                h.add(i64::try_from(n).unwrap_or(i64::MAX))
            }
            (FigureKind::Flag(yes), SimValue::Flag(b)) => *yes += u64::from(b),
            (FigureKind::Real(sum), SimValue::Real(x)) => *sum += x,
            // A game that changed a figure's kind midway: not counted.
            _ => {}
        }
    }

    fn merge(&mut self, other: &FigureTally) -> Option<()> {
        match (&mut self.kind, &other.kind) {
            (FigureKind::Count(h), FigureKind::Count(o)) => h.merge(o)?,
            (FigureKind::Flag(yes), FigureKind::Flag(o)) => *yes = yes.checked_add(*o)?,
            (FigureKind::Real(sum), FigureKind::Real(o)) => {
                *sum += o;
                if !sum.is_finite() {
                    return None;
                }
            }
            _ => {}
        }
        Some(())
    }

    /// Why this figure cannot be a tally of `games` games.
    fn problem(&self, games: u64) -> Option<String> {
        let key = &self.key;
        match &self.kind {
            FigureKind::Count(h) => match h.checked_len() {
                Some(n) if n <= games => None,
                _ => Some(format!(
                    "figure `{key}` counts more values than its {games} games"
                )),
            },
            FigureKind::Flag(yes) => (*yes > games)
                .then(|| format!("figure `{key}` is yes {yes} times in {games} games")),
            FigureKind::Real(sum) => (!sum.is_finite())
                .then(|| format!("figure `{key}` sums to {sum}, not a finite number")),
        }
    }
}

/// Two tallies whose sum does not fit (`tessera merge` of tampered
/// shards): the counts are 64-bit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the merged counts do not fit in 64 bits")]
pub struct TallyOverflow;

/// One finished game, seen from the players of its line-up (not the
/// seats: rotation undone).
#[derive(Debug, Clone, PartialEq)]
pub struct GameResult {
    /// Its number in the whole run (line-up-major: line-up `l`, game `g`
    /// is `l * games + g`).
    pub index: u64,
    /// Which line-up played it.
    pub lineup: usize,
    /// Its seed.
    pub seed: u64,
    /// Per player: its share of the win (1, 1/k when k share, or 0).
    pub win_share: Vec<f64>,
    /// How many players share the win (0: nobody won).
    pub winners: u32,
    /// Per player: its score.
    pub score: Vec<i64>,
    /// The game's own figures ([`crate::plugin::Simulated::sim_figures`]).
    pub figures: Vec<SimFigure>,
}

/// The running summary of one line-up's games.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct LineupTally {
    /// The line-up's name (the AI level of a ladder rung).
    pub label: String,
    /// Games folded in.
    pub games: u64,
    /// Per player of the line-up.
    pub players: Vec<PlayerTally>,
    /// The game's figures, in the order the game reports them.
    pub figures: Vec<FigureTally>,
}

impl LineupTally {
    /// An empty tally for a line-up named `label` of these players.
    pub fn new(label: &str, players: &[Seat]) -> Self {
        Self {
            label: label.to_string(),
            games: 0,
            players: players
                .iter()
                .map(|s| PlayerTally {
                    seat: s.to_string(),
                    ..PlayerTally::default()
                })
                .collect(),
            figures: Vec::new(),
        }
    }

    /// Folds one game in.
    pub fn add(&mut self, result: &GameResult) {
        self.games += 1;
        for (p, player) in self.players.iter_mut().enumerate() {
            if result.win_share.get(p).is_some_and(|s| *s > 0.0) {
                *player.wins_shared_by.entry(result.winners).or_insert(0) += 1;
            }
            player.scores.add(result.score.get(p).copied().unwrap_or(0));
        }
        for figure in &result.figures {
            let at = match self.figures.iter().position(|f| f.key == figure.key) {
                Some(at) => at,
                None => {
                    self.figures.push(FigureTally::of(figure));
                    self.figures.len() - 1
                }
            };
            self.figures[at].add(figure.value);
        }
    }

    /// Adds another tally of the same line-up (a later shard's), refused
    /// when a sum does not fit (`self` is then partly merged: drop it).
    pub fn merge(&mut self, other: &LineupTally) -> Result<(), TallyOverflow> {
        self.games = self.games.checked_add(other.games).ok_or(TallyOverflow)?;
        for (mine, theirs) in self.players.iter_mut().zip(&other.players) {
            for (&k, &n) in &theirs.wins_shared_by {
                let wins = mine.wins_shared_by.entry(k).or_insert(0);
                *wins = wins.checked_add(n).ok_or(TallyOverflow)?;
            }
            mine.scores.merge(&theirs.scores).ok_or(TallyOverflow)?;
        }
        for figure in &other.figures {
            match self.figures.iter_mut().find(|f| f.key == figure.key) {
                Some(mine) => mine.merge(figure).ok_or(TallyOverflow)?,
                None => self.figures.push(figure.clone()),
            }
        }
        Ok(())
    }

    /// Why this tally cannot be one a simulation made (a tampered
    /// partial): every player's scores counted once per game, wins at most
    /// one per game and shared by 1 to the line-up's players, figures
    /// counted at most once per game and finite.
    pub fn problem(&self) -> Option<String> {
        let games = self.games;
        let players = self.players.len() as u64;
        for player in &self.players {
            let seat = &player.seat;
            if player.scores.checked_len() != Some(games) {
                return Some(format!(
                    "`{seat}` has scores for other than its {games} games"
                ));
            }
            let mut won = 0u64;
            for (&shared_by, &n) in &player.wins_shared_by {
                if shared_by == 0 || u64::from(shared_by) > players {
                    return Some(format!(
                        "`{seat}` shares wins by {shared_by} players, the line-up has {players}"
                    ));
                }
                won = match won.checked_add(n) {
                    Some(total) if total <= games => total,
                    _ => return Some(format!("`{seat}` wins more than its {games} games")),
                };
            }
        }
        self.figures.iter().find_map(|f| f.problem(games))
    }

    /// Each player's figures.
    pub fn players(&self) -> Vec<PlayerSummary> {
        let n = self.games.max(1) as f64;
        self.players
            .iter()
            .map(|p| {
                let wins = p.wins();
                let rate = wins / n;
                let (low, high) = wilson(rate, n);
                PlayerSummary {
                    seat: p.seat.clone(),
                    wins,
                    rate,
                    low,
                    high,
                    mean: p.scores.sum() as f64 / n,
                    median: p.scores.median(),
                }
            })
            .collect()
    }

    /// The game's figures, summarised.
    pub fn figures(&self) -> Vec<FigureSummary> {
        let n = self.games.max(1) as f64;
        self.figures
            .iter()
            .map(|f| FigureSummary {
                key: f.key.clone(),
                label: f.label.clone(),
                interval: f.interval,
                stat: match &f.kind {
                    FigureKind::Count(h) => FigureStat::Count {
                        mean: h.sum() as f64 / n,
                        median: h.median(),
                    },
                    FigureKind::Flag(yes) => {
                        let rate = *yes as f64 / n;
                        let (low, high) = wilson(rate, n);
                        FigureStat::Rate { rate, low, high }
                    }
                    FigureKind::Real(sum) => FigureStat::Mean(sum / n),
                },
            })
            .collect()
    }

    /// The summary of the figure named `key`, if the game reports it.
    pub fn figure(&self, key: &str) -> Option<FigureSummary> {
        self.figures().into_iter().find(|f| f.key == key)
    }
}

/// One player's figures.
#[derive(Debug, Clone, PartialEq)]
pub struct PlayerSummary {
    /// The player as written (`ai:hard`).
    pub seat: String,
    /// Games won (shared wins count their share).
    pub wins: f64,
    /// Win rate, 0 to 1.
    pub rate: f64,
    /// Low end of the 95% interval.
    pub low: f64,
    /// High end of the 95% interval.
    pub high: f64,
    /// Mean score.
    pub mean: f64,
    /// Median score.
    pub median: f64,
}

/// One of a game's figures over a line-up's games.
#[derive(Debug, Clone, PartialEq)]
pub struct FigureSummary {
    /// CSV/JSON name.
    pub key: String,
    /// Table title.
    pub label: String,
    /// Whether tables show the rate's interval.
    pub interval: bool,
    /// The numbers.
    pub stat: FigureStat,
}

/// The numbers of a figure summary.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum FigureStat {
    /// A count's mean and median.
    Count {
        /// Mean.
        mean: f64,
        /// Median.
        median: f64,
    },
    /// A flag's rate (0 to 1) and its 95% interval.
    Rate {
        /// Share of games.
        rate: f64,
        /// Low end of the 95% interval.
        low: f64,
        /// High end.
        high: f64,
    },
    /// A measurement's mean.
    Mean(f64),
}

impl FigureStat {
    /// The headline number: a count's mean, a rate, a mean.
    pub fn value(&self) -> f64 {
        match *self {
            FigureStat::Count { mean, .. } => mean,
            FigureStat::Rate { rate, .. } => rate,
            FigureStat::Mean(mean) => mean,
        }
    }
}

/// The Wilson score interval at 95% for a rate observed over `n` games.
pub fn wilson(rate: f64, n: f64) -> (f64, f64) {
    let z = 1.959_963_984_540_054_f64;
    let z2 = z * z;
    let centre = (rate + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = z * (rate * (1.0 - rate) / n + z2 / (4.0 * n * n)).sqrt() / (1.0 + z2 / n);
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_interval_matches_known_values() {
        // 50 wins in 100 games: about 40.4% to 59.6%.
        let (low, high) = wilson(0.5, 100.0);
        assert!((low - 0.4038).abs() < 1e-3, "{low}");
        assert!((high - 0.5962).abs() < 1e-3, "{high}");
        let (low, high) = wilson(1.0, 10.0);
        assert!(
            low > 0.69 && low < 0.73 && (high - 1.0).abs() < 1e-9,
            "{low} {high}"
        );
    }

    fn game(index: u64, win_share: Vec<f64>, score: Vec<i64>, lines: u64) -> GameResult {
        let winners = win_share.iter().filter(|s| **s > 0.0).count() as u32;
        GameResult {
            index,
            lineup: 0,
            seed: index,
            win_share,
            winners,
            score,
            figures: vec![
                SimFigure::count("lines", "lines", lines),
                SimFigure::flag("won", "won", lines > 5),
                SimFigure::real("us", "us", lines as f64 * 0.5),
            ],
        }
    }

    #[test]
    fn a_tally_counts_shared_wins_medians_and_figures() {
        let seats = vec![
            Seat::Ai { level: "a".into() },
            Seat::Ai { level: "b".into() },
        ];
        let mut tally = LineupTally::new("a vs b", &seats);
        tally.add(&game(0, vec![1.0, 0.0], vec![10, 4], 2));
        tally.add(&game(1, vec![0.5, 0.5], vec![6, 6], 9));
        tally.add(&game(2, vec![0.0, 1.0], vec![2, 9], 7));
        let s = tally.players();
        assert!((s[0].wins - 1.5).abs() < 1e-9);
        assert!((s[0].rate - 0.5).abs() < 1e-9);
        assert!((s[0].median - 6.0).abs() < 1e-9);
        assert!((s[1].mean - 19.0 / 3.0).abs() < 1e-9);
        // A player who never won has 0 wins, not -0.
        let mut lost = LineupTally::new("a", &seats[..1]);
        lost.add(&game(0, vec![0.0], vec![1], 1));
        assert_eq!(lost.players()[0].wins.to_string(), "0");
        let f = tally.figures();
        assert_eq!(
            f[0].stat,
            FigureStat::Count {
                mean: 6.0,
                median: 7.0
            }
        );
        assert!(
            matches!(f[1].stat, FigureStat::Rate { rate, .. } if (rate - 2.0 / 3.0).abs() < 1e-12)
        );
        assert_eq!(f[2].stat, FigureStat::Mean(3.0));
    }

    #[test]
    fn merged_shards_equal_the_whole_run() {
        let seats = vec![Seat::Ai { level: "a".into() }];
        let games: Vec<GameResult> = (0..11)
            .map(|i| {
                game(
                    i,
                    vec![(i % 3) as f64 / 2.0],
                    vec![i as i64 * 7 % 5],
                    i * 3 % 8,
                )
            })
            .collect();
        let mut whole = LineupTally::new("a", &seats);
        games.iter().for_each(|g| whole.add(g));
        for cut in [0, 1, 5, 11] {
            let mut first = LineupTally::new("a", &seats);
            let mut second = LineupTally::new("a", &seats);
            games[..cut].iter().for_each(|g| first.add(g));
            games[cut..].iter().for_each(|g| second.add(g));
            first.merge(&second).expect("small counts fit");
            assert_eq!(first.players(), whole.players(), "cut {cut}");
            assert_eq!(first.figures(), whole.figures(), "cut {cut}");
        }
    }

    #[test]
    fn even_medians_take_the_middle_two() {
        let mut h = Histogram::default();
        for v in [4, 1, 3, 2] {
            h.add(v);
        }
        assert_eq!(h.median(), 2.5);
        assert_eq!(h.sum(), 10);
        assert_eq!(Histogram::default().median(), 0.0);
    }

    #[test]
    fn a_merge_whose_counts_overflow_is_refused_and_a_tampered_tally_named() {
        let mut huge = LineupTally::new("a", &[Seat::Human]);
        huge.add(&game(0, vec![1.0], vec![3], 2));
        let mut other = huge.clone();
        huge.games = u64::MAX;
        assert!(
            huge.problem().is_some(),
            "scores for 1 game, games says more"
        );
        huge.players[0].scores = Histogram([(3, u64::MAX)].into_iter().collect());
        huge.players[0].wins_shared_by = [(1, u64::MAX)].into_iter().collect();
        for figure in &mut huge.figures {
            figure.kind = match &figure.kind {
                FigureKind::Count(_) => {
                    FigureKind::Count(Histogram([(2, u64::MAX)].into_iter().collect()))
                }
                FigureKind::Flag(_) => FigureKind::Flag(u64::MAX),
                FigureKind::Real(x) => FigureKind::Real(*x),
            };
        }
        assert_eq!(huge.problem(), None, "consistent in itself");
        assert_eq!(other.merge(&huge), Err(TallyOverflow));
    }
}
