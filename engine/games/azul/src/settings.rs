//! Reading `scripts/azul.lua` into plain Rust values: the rules' numbers,
//! the palette, the AI levels and their weights. Called per event (game
//! start, wall tiling, an AI asked for a move), never inside a search.

use tessera_host::Script;
use tessera_host::script::{FieldKind, FieldSpec, ScriptError, ScriptSchema, dotted, list_length};

use crate::ai::{AiSettings, ExpertSettings, HardSettings, MediumWeights};
use crate::rules::{COLOURS, FLOOR_SLOTS, MAX_FACTORIES, Rules};

/// One tile colour as the script names and paints it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ColourStyle {
    /// Name (`blue`).
    pub name: String,
    /// One letter for text pictures.
    pub letter: char,
    /// Paint colour.
    pub rgb: [u8; 3],
}

/// What `scripts/azul.lua` must return.
pub fn schema() -> ScriptSchema {
    use FieldKind::*;
    ScriptSchema {
        game: "azul",
        fields: vec![
            FieldSpec::optional("tiles_per_colour", Integer, "tiles of each colour (20)"),
            FieldSpec::optional("colours", Table, "the 5 colours: name, letter, rgb"),
            FieldSpec::optional("factories", Table, "factories per player count"),
            FieldSpec::optional("tiles_per_factory", Integer, "tiles a factory holds (4)"),
            FieldSpec::optional("floor_penalties", Table, "7 floor penalties"),
            FieldSpec::optional("bonus_row", Integer, "bonus per complete row"),
            FieldSpec::optional("bonus_column", Integer, "bonus per complete column"),
            FieldSpec::optional("bonus_colour", Integer, "bonus per complete colour"),
            FieldSpec::optional(
                "grey_wall",
                Boolean,
                "the grey-wall variant: players choose each tile's column",
            ),
            FieldSpec::optional("ai_levels", Table, "AI level names, weakest first"),
            FieldSpec::optional("reaction_seconds", Table, "AI reaction time per level"),
            FieldSpec::optional("medium", Table, "the medium AI's weights"),
            FieldSpec::optional("hard", Table, "the hard AI's search settings"),
            FieldSpec::optional("expert", Table, "the expert AI's MCTS settings"),
        ],
    }
}

/// The rules' numbers, each refused at its line outside its range (never
/// clamped), through the host's typed reader; read once per script
/// version and kept.
pub fn rules(script: &Script) -> Result<Rules, ScriptError> {
    script.cached(read_rules).map(|rules| *rules.as_ref())
}

fn read_rules(script: &Script) -> Result<Rules, ScriptError> {
    let mut rules = Rules::default();
    let whole = |at: &[&str], range: std::ops::RangeInclusive<i64>, default: i64| {
        script.setting::<i64>(at).within(range).or(default)
    };
    rules.tiles_per_colour = whole(&["tiles_per_colour"], 1..=40, 20)? as u8;
    rules.tiles_per_factory = whole(&["tiles_per_factory"], 1..=4, 4)? as u8;
    if let Some(penalties) = script
        .list::<i64>(&["floor_penalties"])
        .least(FLOOR_SLOTS)
        .most(FLOOR_SLOTS)
        .within(0..=100)
        .optional()?
    {
        for (slot, penalty) in penalties.into_iter().enumerate() {
            rules.floor_penalties[slot] = penalty as i32;
        }
    }
    rules.row_bonus = whole(&["bonus_row"], 0..=1000, 2)? as i32;
    rules.column_bonus = whole(&["bonus_column"], 0..=1000, 7)? as i32;
    rules.colour_bonus = whole(&["bonus_colour"], 0..=1000, 10)? as i32;
    rules.grey_wall = script.setting::<bool>(&["grey_wall"]).or(false)?;
    if script.table_at(&["factories"])?.is_some() {
        for players in 2..=4usize {
            let key = players.to_string();
            let default = i64::from(rules.factories[players - 2]);
            rules.factories[players - 2] =
                whole(&["factories", &key], 1..=MAX_FACTORIES as i64, default)? as u8;
        }
    }
    Ok(rules)
}

/// The palette (the seed's five colours when the script has none).
pub fn colours(script: &Script) -> Result<Vec<ColourStyle>, ScriptError> {
    let defaults = [
        ("blue", 'B', [0x34, 0x98, 0xDB]),
        ("yellow", 'Y', [0xF1, 0xC4, 0x0F]),
        ("red", 'R', [0xE7, 0x4C, 0x3C]),
        ("green", 'G', [0x2E, 0xCC, 0x71]),
        ("orange", 'O', [0xE6, 0x7E, 0x22]),
    ];
    let mut out: Vec<ColourStyle> = defaults
        .iter()
        .map(|(n, l, rgb)| ColourStyle {
            name: (*n).into(),
            letter: *l,
            rgb: *rgb,
        })
        .collect();
    let Some(table) = script.table_at(&["colours"])? else {
        return Ok(out);
    };
    let count = list_length(script, &table, &["colours"], COLOURS)?;
    if count != COLOURS {
        return Err(script.field_error(
            &["colours"],
            format!("`colours` holds {count} entries, {COLOURS} expected"),
        ));
    }
    for (i, colour) in out.iter_mut().enumerate() {
        let index = (i + 1).to_string();
        let at = |field: &'static str| ["colours", index.as_str(), field];
        script.table_at(&["colours", &index])?;
        if let Some(name) = script.setting::<String>(&at("name")).optional()? {
            colour.name = name;
        }
        if let Some(letter) = script.setting::<String>(&at("letter")).optional()? {
            let mut chars = letter.chars();
            let (Some(c), None) = (chars.next(), chars.next()) else {
                return Err(script.field_error(
                    &at("letter"),
                    format!(
                        "`{}` must be one letter, not {letter:?}",
                        dotted(&at("letter"))
                    ),
                ));
            };
            colour.letter = c;
        }
        if let Some(rgb) = script.setting::<String>(&at("rgb")).optional()? {
            colour.rgb = parse_hex(&rgb).ok_or_else(|| {
                script.field_error(
                    &at("rgb"),
                    format!(
                        "`{}` must look like #3498DB, not {rgb:?}",
                        dotted(&at("rgb"))
                    ),
                )
            })?;
        }
    }
    Ok(out)
}

fn parse_hex(text: &str) -> Option<[u8; 3]> {
    let hex = text.strip_prefix('#')?;
    if hex.len() != 6 {
        return None;
    }
    let byte = |i: usize| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok();
    Some([byte(0)?, byte(2)?, byte(4)?])
}

/// The AI level names, weakest first.
pub fn ai_levels(script: &Script) -> Result<Vec<String>, ScriptError> {
    let Some(names) = script
        .list::<String>(&["ai_levels"])
        .least(1)
        .most(16)
        .optional()?
    else {
        return Ok(["easy", "medium", "hard", "expert"]
            .map(String::from)
            .to_vec());
    };
    for (i, name) in names.iter().enumerate() {
        if crate::ai::Level::parse(name).is_none() {
            let index = (i + 1).to_string();
            return Err(script.field_error(
                &["ai_levels", &index],
                format!("`ai_levels[{index}]`: no AI named {name:?} (easy, medium, hard, expert)"),
            ));
        }
    }
    Ok(names)
}

/// The reaction time of an AI level, in seconds (presentation only).
pub fn reaction_seconds(script: &Script, level: &str) -> Result<f64, ScriptError> {
    let default = match level {
        "easy" => 1.0,
        "medium" => 2.0,
        _ => 3.0,
    };
    script
        .setting::<f64>(&["reaction_seconds", level])
        .within(0.0..=60.0)
        .or(default)
}

/// Longest the expert may think per move, in seconds. Its tree is bounded
/// by `max_nodes` whatever the time (memory), and a longer think only
/// stalls a game.
pub const MAX_EXPERT_SECONDS: f64 = 60.0;

/// Most nodes the hard AI may search a move. Its memory is fixed (the
/// transposition table); its time is not: at 1 to 2 million nodes a
/// second (the dev build on a loaded 2-core machine), 100 million is about
/// a minute, the expert's `MAX_EXPERT_SECONDS`. The 10^10 once accepted
/// was hours a move.
pub const MAX_HARD_NODES: i64 = 100_000_000;

/// Most nodes the expert's trees may hold together: 20-byte nodes, so
/// 4,000,000 is some 76 MiB (plus a quarter of it per other seat for
/// the trees kept between moves), inside the 256 MiB a game may use.
pub const MAX_EXPERT_NODES: i64 = 4_000_000;

/// The AIs' weights and budgets. Weights may be any number within
/// +-1,000,000; budgets, shares and scales are refused outside their
/// ranges, at their lines. Read once per script version and kept.
pub fn ai_settings(script: &Script) -> Result<AiSettings, ScriptError> {
    script
        .cached(read_ai_settings)
        .map(|settings| *settings.as_ref())
}

/// The keys of the script's `medium` table (the medium AI's weights).
pub const MEDIUM_KEYS: [&str; 4] = ["immediate", "potential", "floor_risk", "blocking"];
/// The keys of the script's `hard` table (the hard AI's search).
pub const HARD_KEYS: [&str; 3] = ["nodes", "potential", "carry"];
/// The keys of the script's `expert` table (the expert's tree search).
pub const EXPERT_KEYS: [&str; 14] = [
    "playouts",
    "seconds",
    "exploration",
    "epsilon",
    "win_weight",
    "margin_scale",
    "own_weight",
    "score_scale",
    "threads",
    "max_nodes",
    "horizon",
    "potential",
    "carry",
    "widening",
];

/// The AI tables of the script and the keys each accepts: the reader
/// refuses any other key with these lists, so a typo such as `exploraton`
/// is refused at its table instead of leaving the default in play (and
/// the documentation checked against them cannot drift).
pub fn ai_table_keys() -> [(&'static str, &'static [&'static str]); 3] {
    [
        ("medium", &MEDIUM_KEYS),
        ("hard", &HARD_KEYS),
        ("expert", &EXPERT_KEYS),
    ]
}

fn read_ai_settings(script: &Script) -> Result<AiSettings, ScriptError> {
    for (table, keys) in ai_table_keys() {
        script.only_keys(&[table], keys)?;
    }
    const ANY: std::ops::RangeInclusive<f64> = -1e6..=1e6;
    let number = |table: &str, key: &str, default: f64, range| {
        script
            .setting::<f64>(&[table, key])
            .within(range)
            .or(default)
    };
    let whole = |table: &str, key: &str, default: u64, range: std::ops::RangeInclusive<i64>| {
        script
            .setting::<i64>(&[table, key])
            .within(range)
            .or(default as i64)
            .map(|v| v as u64)
    };
    let mut s = AiSettings::default();
    let w = s.medium;
    s.medium = MediumWeights {
        immediate: number("medium", "immediate", w.immediate, ANY)?,
        potential: number("medium", "potential", w.potential, ANY)?,
        floor_risk: number("medium", "floor_risk", w.floor_risk, ANY)?,
        blocking: number("medium", "blocking", w.blocking, ANY)?,
    };
    let h = s.hard;
    s.hard = HardSettings {
        nodes: whole("hard", "nodes", h.nodes, 1..=MAX_HARD_NODES)?,
        potential: number("hard", "potential", h.potential, ANY)?,
        carry: number("hard", "carry", h.carry, ANY)?,
    };
    let e = s.expert;
    s.expert = ExpertSettings {
        playouts: whole("expert", "playouts", e.playouts, 1..=1_000_000_000_000)?,
        seconds: number("expert", "seconds", e.seconds, 0.0..=MAX_EXPERT_SECONDS)?,
        exploration: number("expert", "exploration", e.exploration, 0.0..=100.0)?,
        epsilon: number("expert", "epsilon", e.epsilon, 0.0..=1.0)?,
        win_weight: number("expert", "win_weight", e.win_weight, 0.0..=1.0)?,
        margin_scale: number("expert", "margin_scale", e.margin_scale, 0.001..=1e6)?,
        own_weight: number("expert", "own_weight", e.own_weight, 0.0..=1.0)?,
        score_scale: number("expert", "score_scale", e.score_scale, 1.0..=1e6)?,
        threads: whole("expert", "threads", u64::from(e.threads), 0..=256)? as u32,
        max_nodes: whole(
            "expert",
            "max_nodes",
            e.max_nodes,
            10_000..=MAX_EXPERT_NODES,
        )?,
        horizon: whole("expert", "horizon", u64::from(e.horizon), 0..=10)? as u32,
        potential: number("expert", "potential", e.potential, ANY)?,
        carry: number("expert", "carry", e.carry, ANY)?,
        widening: number("expert", "widening", e.widening, 0.0..=1.0)?,
    };
    Ok(s)
}

/// Every setting the game reads, as game start and the AIs read them: the
/// one check `check`, `watch`, the editor and game start share.
pub fn check(script: &Script) -> Result<(), ScriptError> {
    rules(script)?;
    colours(script)?;
    for level in ai_levels(script)? {
        reaction_seconds(script, &level)?;
    }
    ai_settings(script)?;
    Ok(())
}
