//! What the AI reads from `scripts/tetris.lua`: the difficulty table
//! (`ai.difficulties`) and the log's length (`ai.log_top`). Every value is
//! range-checked here, at its line, and [`check_ai`] reads all of it: the
//! game's `check_script` runs it, so `check`, `watch`, the editor and a
//! game start refuse the same scripts. Feed mode's own values in the same
//! tables (a row's `special_chance` and `ceiling_every`, `feed.specials`)
//! are the rules': their reader, `tessera_tetris::feed_rules`, reads them, here at
//! the place in the row where they stand.

use std::sync::Arc;

use tessera_host::script::{Script, ScriptError};

use super::metrics::Metric;
use super::{Difficulty, Weights, limits};
use tessera_tetris::feed_rules::{self, FeedRules};
use tessera_tetris::piece::PieceKind;

/// Feed mode's script values beyond the difficulty table: the rules'
/// specials, and the log's length.
#[derive(Debug, Clone, PartialEq)]
pub struct FeedSettings {
    /// The special pieces a turn may offer (RULINGS: listed in the script).
    pub specials: Vec<PieceKind>,
    /// Candidates the AI log lists.
    pub log_top: usize,
}

impl Default for FeedSettings {
    fn default() -> Self {
        Self {
            specials: vec![PieceKind::X, PieceKind::U, PieceKind::W],
            log_top: 5,
        }
    }
}

/// The keys a difficulty row may hold (anything else is a typo).
pub const DIFFICULTY_KEYS: [&str; 16] = [
    "name",
    "weights",
    "noise",
    "order",
    "lookahead",
    "beam",
    "decision_ms",
    "special_chance",
    "ceiling_every",
    "adversary",
    "line_depth",
    "line_beam",
    "line_step",
    "line_lead",
    "off_line_order",
    "line_trust",
];
/// The keys of the `ai` table.
pub const AI_KEYS: [&str; 2] = ["difficulties", "log_top"];
/// The keys of the `feed` table (the rules').
pub use tessera_tetris::feed_rules::FEED_KEYS;

/// The script's tables with a fixed set of keys, and those keys: `ai`,
/// `feed` and each row of `ai.difficulties`. The readers refuse any other
/// key with these same lists, so the documentation checked against them
/// cannot drift.
pub fn table_keys() -> [(&'static str, &'static [&'static str]); 3] {
    [
        ("ai", &AI_KEYS),
        ("feed", &FEED_KEYS),
        ("ai.difficulties[]", &DIFFICULTY_KEYS),
    ]
}
/// Most rows a difficulty table may hold (the rules' limit: their reader
/// of the same rows refuses the same tables).
use tessera_tetris::feed_rules::MAX_DIFFICULTIES;

/// Reads every AI and feed value of the script, as a game start would:
/// the one check `check_script` adds to the settings.
pub fn check_ai(script: &Script) -> Result<(), ScriptError> {
    difficulties(script)?;
    feed_settings(script)?;
    Ok(())
}

/// The difficulty table's defaults, for a script without `ai`: the seed's
/// four levels with its delays, special chances and ceiling intervals.
pub fn default_difficulties() -> Vec<Difficulty> {
    // The seed's feed rules of each row, the rules' (by name).
    let feed_of = |name: &str| {
        feed_rules::default_rows()
            .into_iter()
            .find(|(row, _)| *row == name)
            .map_or(
                FeedRules {
                    special_chance: 0.0,
                    ceiling_every: 10,
                },
                |(_, rules)| rules,
            )
    };
    let weighted = |name: &str, noise: f64, ms: u32| {
        let mut weights = Weights::default();
        for (metric, w) in [
            (Metric::AggregateHeight, -0.51),
            (Metric::LinesCleared, 0.76),
            (Metric::Holes, -0.36),
            (Metric::WellSums, -0.18),
            (Metric::Blockades, -0.18),
            (Metric::Bumpiness, -0.18),
            (Metric::GameOverAfterMove, -1000.0),
        ] {
            weights.set(metric, w);
        }
        Difficulty {
            name: name.into(),
            weights,
            noise,
            order: Vec::new(),
            lookahead: 0,
            beam: 8,
            decision_ms: ms,
            feed: feed_of(name),
            adversary: super::Adversary::Score,
            line_depth: 0,
            line_beam: 0,
            line_step: 0,
            line_lead: 0,
            off_line: None,
            line_trust: 0,
        }
    };
    let mut god = weighted("GOD", 0.0, 200);
    god.order = super::SEED_ORDER.to_vec();
    vec![
        weighted("EASY", 2.0, 800),
        weighted("NORMAL", 0.0, 500),
        weighted("HARD", 0.0, 300),
        god,
    ]
}

/// The metrics a script may weigh: every measured one (not the derived
/// `netBenefit`, the lookahead's values or the score itself).
fn weighable(metric: Metric) -> bool {
    !matches!(
        metric,
        Metric::Score
            | Metric::NetBenefit
            | Metric::NextTopOut
            | Metric::Lookahead
            | Metric::LinePlies
    )
}

/// The metric names a script may write, for refusals.
fn metric_names(keep: impl Fn(Metric) -> bool) -> String {
    Metric::ALL
        .iter()
        .filter(|m| keep(**m))
        .map(|m| m.name())
        .collect::<Vec<_>>()
        .join(", ")
}

fn read_weights(script: &Script, path: &[&str]) -> Result<Weights, ScriptError> {
    let mut weights = Weights::default();
    let named = script
        .named::<f64>(path)
        .within(-limits::WEIGHT..=limits::WEIGHT)
        .most(Metric::ALL.len())
        .optional()?;
    for (key, w) in named.unwrap_or_default() {
        let metric = Metric::from_name(&key)
            .filter(|m| weighable(*m))
            .ok_or_else(|| {
                let at: Vec<&str> = path.iter().copied().chain([key.as_str()]).collect();
                script.field_error(
                    &at,
                    format!(
                        "no metric `{key}` to weigh (metrics: {})",
                        metric_names(weighable)
                    ),
                )
            })?;
        weights.set(metric, w);
    }
    Ok(weights)
}

fn read_order(script: &Script, path: &[&str]) -> Result<Vec<Metric>, ScriptError> {
    let names = script
        .list::<String>(path)
        .most(Metric::ALL.len())
        .optional()?
        .unwrap_or_default();
    let mut order = Vec::new();
    for (i, key) in names.iter().enumerate() {
        let index = (i + 1).to_string();
        let at: Vec<&str> = path.iter().copied().chain([index.as_str()]).collect();
        let metric = Metric::from_name(key).ok_or_else(|| {
            script.field_error(
                &at,
                format!(
                    "`order`: no metric `{key}` (metrics: {})",
                    metric_names(|_| true)
                ),
            )
        })?;
        if order.contains(&metric) {
            return Err(script.field_error(&at, format!("`order` names `{key}` twice")));
        }
        order.push(metric);
    }
    Ok(order)
}

/// Reads row `index` (1-based) of `ai.difficulties`; `known` are the rows
/// read before it.
fn read_difficulty(
    script: &Script,
    index: &str,
    known: &[Difficulty],
) -> Result<Difficulty, ScriptError> {
    let path = ["ai", "difficulties", index];
    let at = |key: &'static str| [&path[..], &[key]].concat();
    script.only_keys(&path, &DIFFICULTY_KEYS)?;
    let name = script.setting::<String>(&at("name")).required()?;
    let bad_value = |key: &'static str, message: String| script.field_error(&at(key), message);
    if name.trim().is_empty() || name.contains([' ', ',', ':']) || name.len() > 32 {
        return Err(bad_value(
            "name",
            format!(
                "difficulty name {name:?}: one word of at most 32 letters, no spaces, commas or colons"
            ),
        ));
    }
    if known.iter().any(|d| d.name.eq_ignore_ascii_case(&name)) {
        return Err(bad_value(
            "name",
            format!("difficulty `{name}` is named twice"),
        ));
    }
    if super::feeder::Feeder::from_name(&name).is_some() {
        return Err(bad_value(
            "name",
            format!("difficulty `{name}` has a feeder's name"),
        ));
    }
    let weights = read_weights(script, &at("weights"))?;
    let order = read_order(script, &at("order"))?;
    // The typed reader's words, with the difficulty's name for people.
    let named = |error: ScriptError| ScriptError {
        message: format!("{} ({name})", error.message),
        ..error
    };
    let number = |key: &'static str, default: f64, range: std::ops::RangeInclusive<f64>| {
        script
            .setting::<f64>(&at(key))
            .within(range)
            .or(default)
            .map_err(named)
    };
    let whole = |key: &'static str, default: f64, range: std::ops::RangeInclusive<f64>| {
        let range = *range.start() as i64..=*range.end() as i64;
        script
            .setting::<i64>(&at(key))
            .within(range)
            .or(default as i64)
            .map(|v| v as f64)
            .map_err(named)
    };
    let adversary = match script.setting::<String>(&at("adversary")).optional()? {
        None => super::Adversary::default(),
        Some(word) => super::Adversary::from_name(&word).ok_or_else(|| {
            bad_value(
                "adversary",
                format!("`adversary` of {name}: \"score\", \"height\" or \"own\", not {word:?}"),
            )
        })?,
    };
    let deepest = 0.0..=f64::from(adversary.max_lookahead());
    let lookahead = whole("lookahead", 0.0, deepest)? as u8;
    let uses_lookahead = order.iter().any(|m| {
        matches!(
            m,
            Metric::NextTopOut | Metric::Lookahead | Metric::LinePlies
        )
    });
    if !order.is_empty() && lookahead == 0 && uses_lookahead {
        return Err(bad_value(
            "order",
            format!("{name}: `order` names the lookahead's values; set `lookahead = 1`"),
        ));
    }
    if !order.is_empty() && lookahead > 0 && !uses_lookahead {
        return Err(bad_value(
            "lookahead",
            format!(
                "{name}: with an `order`, the lookahead counts only where the order names `nextTopOut`, `lookahead` or `linePlies`"
            ),
        ));
    }
    if order.contains(&Metric::LinePlies) && adversary == super::Adversary::Score {
        return Err(bad_value(
            "order",
            format!(
                "{name}: `linePlies` is the expected-line search's; set `adversary = \"own\"` or `\"height\"`"
            ),
        ));
    }
    // Read in the order the row's keys have always been checked, so a row
    // with several mistakes is refused at the same first one.
    let noise = number("noise", 0.0, limits::NOISE)?;
    let beam = whole("beam", 8.0, limits::BEAM)? as usize;
    let decision_ms = whole("decision_ms", 500.0, limits::DECISION_MS)? as u32;
    let feed = feed_rules::read_row(script, index, &name)?;
    let mut difficulty = Difficulty {
        name: name.clone(),
        weights,
        noise,
        order,
        lookahead,
        beam,
        decision_ms,
        feed,
        adversary,
        line_depth: whole("line_depth", 0.0, limits::LINE_DEPTH)? as u8,
        line_beam: whole("line_beam", 0.0, limits::LINE_BEAM)? as usize,
        line_step: whole("line_step", 0.0, limits::LINE_STEP)? as u8,
        line_lead: whole("line_lead", 0.0, limits::LINE_LEAD)? as u8,
        off_line: None,
        line_trust: 0,
    };
    // Each number may be in its range and the search they size together
    // still not fit in memory: refused at the row's `line_beam`.
    if let Some(why) = difficulty.search_over_budget() {
        return Err(bad_value("line_beam", format!("{name}: {why}")));
    }
    let off_line_order = read_order(script, &at("off_line_order"))?;
    let line_trust = script
        .setting::<i64>(&at("line_trust"))
        .within(1..=*limits::LINE_TRUST.end() as i64)
        .optional()
        .map_err(named)?;
    if !off_line_order.is_empty() {
        difficulty.off_line = Some(Box::new(
            off_line(&difficulty, off_line_order)
                .map_err(|message| bad_value("off_line_order", format!("{name}: {message}")))?,
        ));
        difficulty.line_trust = line_trust.unwrap_or(3) as u8;
    } else if line_trust.is_some() {
        return Err(bad_value(
            "line_trust",
            format!(
                "{name}: `line_trust` counts for an `off_line_order`; give one, or leave `line_trust` out"
            ),
        ));
    }
    Ok(difficulty)
}

/// The ranking `row` uses for a player off its expected line: `order`,
/// with the worst-case lookahead over the offer 2 pieces deep (the score
/// adversary's deepest) in place of the line search. Not the row's
/// `lookahead`, which is its classic play's (MASTER keeps 1 there for
/// speed).
fn off_line(row: &Difficulty, order: Vec<Metric>) -> Result<Difficulty, String> {
    if row.adversary != super::Adversary::Own {
        return Err(
            "`off_line_order` ranks for a player off the `own` adversary's line; set `adversary = \"own\"`"
                .into(),
        );
    }
    if order.contains(&Metric::LinePlies) {
        return Err(
            "`off_line_order` ranks without the expected-line search: it cannot name `linePlies`"
                .into(),
        );
    }
    let looks_ahead = order
        .iter()
        .any(|m| matches!(m, Metric::NextTopOut | Metric::Lookahead));
    if looks_ahead && row.lookahead == 0 {
        return Err("`off_line_order` names the lookahead's values; set `lookahead = 1`".into());
    }
    let score = super::Adversary::Score;
    Ok(Difficulty {
        order,
        adversary: score,
        lookahead: if looks_ahead {
            score.max_lookahead()
        } else {
            0
        },
        line_depth: 0,
        line_beam: 0,
        line_step: 0,
        line_lead: 0,
        off_line: None,
        line_trust: 0,
        ..row.clone()
    })
}

/// Reads the difficulty table (`ai.difficulties`), weakest first; the
/// seed's four levels when the script has none. Errors name the field's
/// line (`ai.difficulties.2.weights.holes`). A copy of the table the
/// script keeps ([`table`]), for callers that edit or keep it.
pub fn difficulties(script: &Script) -> Result<Vec<Difficulty>, ScriptError> {
    table(script).map(|rows| rows.as_ref().clone())
}

/// The difficulty table as the script keeps it: read once per script
/// version ([`Script::cached`]) and shared, never copied.
pub fn table(script: &Script) -> Result<Arc<Vec<Difficulty>>, ScriptError> {
    script.cached(read_difficulties)
}

/// One row of the script's difficulty table, shared with the table the
/// script keeps rather than copied: the host builds an agent per decision,
/// so an agent holds this and a decision reads its row without cloning
/// the row or the table.
#[derive(Debug, Clone)]
pub struct ChosenDifficulty {
    table: Arc<Vec<Difficulty>>,
    row: usize,
}

impl ChosenDifficulty {
    /// The row named `name` (any case) of `table`.
    pub fn find(table: Arc<Vec<Difficulty>>, name: &str) -> Option<Self> {
        let row = table
            .iter()
            .position(|d| d.name.eq_ignore_ascii_case(name))?;
        Some(Self { table, row })
    }
}

/// A difficulty of no script's table (a test's, a bench's, a log's own).
impl From<Difficulty> for ChosenDifficulty {
    fn from(difficulty: Difficulty) -> Self {
        Self {
            table: Arc::new(vec![difficulty]),
            row: 0,
        }
    }
}

impl std::ops::Deref for ChosenDifficulty {
    type Target = Difficulty;

    fn deref(&self) -> &Difficulty {
        // `find` and `from` only make rows of their table.
        &self.table[self.row]
    }
}

/// The row named `name` (any case) of the script's table, shared
/// ([`ChosenDifficulty`]): what an agent and feed mode play by.
pub fn chosen_difficulty(
    script: &Script,
    name: &str,
) -> Result<Option<ChosenDifficulty>, ScriptError> {
    Ok(ChosenDifficulty::find(table(script)?, name))
}

fn read_difficulties(script: &Script) -> Result<Vec<Difficulty>, ScriptError> {
    script.guarded(|| {
        script.only_keys(&["ai"], &AI_KEYS)?;
        let at = ["ai", "difficulties"];
        let Some(rows) = script.rows(&at, MAX_DIFFICULTIES)? else {
            return Ok(default_difficulties());
        };
        if rows == 0 {
            return Err(script.field_error(&at, "`ai.difficulties` is empty; give at least one"));
        }
        let mut out: Vec<Difficulty> = Vec::new();
        for i in 1..=rows {
            let difficulty = read_difficulty(script, &i.to_string(), &out)?;
            out.push(difficulty);
        }
        Ok(out)
    })
}

/// Reads feed mode's specials (the rules') and `ai.log_top`.
/// Read once per script version and kept ([`Script::cached`]).
pub fn feed_settings(script: &Script) -> Result<FeedSettings, ScriptError> {
    script
        .cached(read_feed_settings)
        .map(|feed| feed.as_ref().clone())
}

fn read_feed_settings(script: &Script) -> Result<FeedSettings, ScriptError> {
    script.guarded(|| {
        // The rules' specials first, where the reader has always read them.
        let specials = feed_rules::specials(script)?;
        let log_top = script
            .setting::<i64>(&["ai", "log_top"])
            .within(1..=100)
            .or(FeedSettings::default().log_top as i64)? as usize;
        Ok(FeedSettings { specials, log_top })
    })
}

/// A copy of the difficulty named `name` (any case), for a caller that
/// edits it; an agent shares its row instead ([`chosen_difficulty`]).
pub fn difficulty(script: &Script, name: &str) -> Result<Option<Difficulty>, ScriptError> {
    Ok(table(script)?
        .iter()
        .find(|d| d.name.eq_ignore_ascii_case(name))
        .cloned())
}
