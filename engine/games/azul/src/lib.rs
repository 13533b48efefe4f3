//! Azul against AI players (seed 001, with the published rules where the
//! rulings say so): 2 to 4 seats, factories and a centre, pattern lines,
//! the shifted wall, floor penalties, end bonuses, and an AI ladder from a
//! random mover to Monte Carlo tree search.
//!
//! - [`rules`]: the compact `Copy` state and every rule (no allocation).
//! - [`ai`]: the four AI levels.
//! - [`settings`]: reading `scripts/azul.lua`.
//! - [`record`]: the game record (JSON lines) and its checker.
//! - [`scenario`]: scenario levels (a starting position, seats, a goal).
//! - [`achieve`]: what the hard AI achieves on a scenario.

pub mod achieve;
mod action;
pub mod ai;
pub mod cli;
pub mod generate;
pub mod record;
pub mod rules;
pub mod scenario;
pub mod settings;
mod text;

pub use action::{AzulAction, Colour, Source, Target, action_to_move, move_to_action};
use text::letter;
pub use text::render;

use serde::{Deserialize, Serialize};
use tessera_host::AgentGame;
use tessera_host::level::{Diagnostic, LevelFile};
use tessera_host::plugin::{LevelFormats, Reports, Scripted};
use tessera_host::registrar::{Plugin, Registrar};
use tessera_host::rng::{GameRng, game_rng};
use tessera_host::{
    Agent, Game, GameError, GameEvent, GameSpec, LiveScript, ModeSpec, Outcome, Script,
    ScriptError, ScriptSchema, Seat, Setup, Turn,
};

use crate::scenario::{Goal, Position, check_position};

use crate::record::RecordLine;
use crate::rules::{
    COLOUR_NAMES, COLOURS, Deal, LINES, MAX_FACTORY_TILES, MoveList, Rules, State, TilingReport,
};

/// An Azul level: the standard setup, or a scenario: a starting position,
/// the seats and a goal (see [`scenario`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AzulLevel {
    /// Format version.
    pub version: u32,
    /// Title shown in menus.
    #[serde(default)]
    pub title: String,
    /// What the level is about, for the level list.
    #[serde(default)]
    pub description: String,
    /// Who plays, in turn order (`[Human, Ai(level: "hard")]`), when the
    /// session names no seats; empty: the game's default seats. A
    /// scenario's seats must match its boards.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub seats: Vec<Seat>,
    /// What one seat must achieve; `None`: an ordinary game.
    #[serde(default, skip_serializing_if = "Goal::is_none")]
    pub goal: Goal,
    /// The starting position; `None`: a fresh game dealt from the bag.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<Position>,
    /// The grey-wall variant on (`true`) or off (`false`) for this level;
    /// `None`: the script's `grey_wall` for a game dealt from the bag, the
    /// printed wall for a scenario (its walls are drawn for one wall, so
    /// the level says which).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grey_wall: Option<bool>,
}

impl Default for AzulLevel {
    /// The standard game, in the current format version (a default of 0
    /// would be refused by its own loader).
    fn default() -> Self {
        Self {
            version: Self::VERSION,
            title: String::new(),
            description: String::new(),
            seats: Vec::new(),
            goal: Goal::None,
            position: None,
            grey_wall: None,
        }
    }
}

impl AzulLevel {
    /// Players at this level's table: its boards, else its seats, else 2.
    pub fn players(&self) -> Option<usize> {
        match &self.position {
            Some(p) => Some(p.boards.len()),
            None if !self.seats.is_empty() => Some(self.seats.len()),
            None => None,
        }
    }

    /// Every finding that needs no script: the position's shape, letters
    /// and wall pattern, the seats against the boards, the goal's seat.
    fn findings(&self) -> Vec<Diagnostic> {
        let path = std::path::Path::new("");
        let mut out = Vec::new();
        if let Some(position) = &self.position {
            out.extend(check_position(position, None, Some(self.grey())).findings);
        }
        let players = self.players();
        if let (Some(p), false) = (players, self.seats.is_empty())
            && self.seats.len() != p
        {
            out.push(
                Diagnostic::error(
                    path,
                    format!(
                        "{} listed for {}: one seat per board",
                        tessera_host::text::count(self.seats.len(), "seat"),
                        tessera_host::text::count(p, "board")
                    ),
                )
                .at("seats"),
            );
        }
        if self.goal.written_seat() == Some(0) {
            // Seats count from 1 as the table shows them; 0 would be
            // played as player 1 and shown as "player 0".
            out.push(
                Diagnostic::error(path, "the goal's seat counts from 1 (player 1), not 0")
                    .at("goal"),
            );
        } else if let Some(seat) = self.goal.seat() {
            let n = players.unwrap_or(4);
            if seat >= n {
                out.push(
                    Diagnostic::error(
                        path,
                        format!("the goal is about player {}, but there are {n}", seat + 1),
                    )
                    .at("goal"),
                );
            }
        }
        match self.goal {
            Goal::RoundScore { points, .. } | Goal::FinalScore { points, .. }
                if !(1..=scenario::MAX_SCORE).contains(&points) =>
            {
                out.push(
                    Diagnostic::error(
                        path,
                        format!(
                            "the goal's points must be 1 to {}, not {points}",
                            scenario::MAX_SCORE
                        ),
                    )
                    .at("goal"),
                );
            }
            _ => {}
        }
        out
    }
}

impl AzulLevel {
    /// Whether a scenario plays on the grey wall (its own switch; the
    /// printed wall when it says nothing). Games dealt from the bag follow
    /// the script unless the level sets `grey_wall`.
    pub fn grey(&self) -> bool {
        self.grey_wall.unwrap_or(false)
    }
}

impl LevelFile for AzulLevel {
    const VERSION: u32 = 1;
    const NAME_FIELD: Option<&'static str> = Some("title");

    fn version(&self) -> u32 {
        self.version
    }

    fn diagnose(&self) -> Vec<Diagnostic> {
        self.findings()
    }
}

/// What an Azul AI sees: the whole table, which within a round hides
/// nothing (the bag's order is not in it).
#[derive(Debug, Clone, Copy)]
pub struct AzulView {
    /// The table.
    pub state: State,
}

/// An Azul session.
pub struct Azul {
    state: State,
    rng: GameRng,
    script: LiveScript,
    generation: u64,
    events: Vec<GameEvent>,
    record: Vec<RecordLine>,
    seed: u64,
    /// The scenario's goal (`Goal::None` for an ordinary game).
    goal: Goal,
    /// The round the scenario started in (a round goal's round).
    goal_round: u16,
    /// Each seat's score when the scenario started.
    start_scores: [i32; rules::MAX_PLAYERS],
    /// Whether the goal was met, once decided.
    goal_met: Option<bool>,
    /// Each seat's score when the current tiling phase began (grey-wall
    /// tilings span several actions).
    tiling_start: [i32; rules::MAX_PLAYERS],
    /// The expert's search trees, kept between its moves (tree reuse).
    expert_memory: ai::ExpertMemory,
}

impl Azul {
    /// The table.
    pub fn state(&self) -> &State {
        &self.state
    }

    /// The scenario's goal.
    pub fn goal(&self) -> &Goal {
        &self.goal
    }

    /// Whether the goal was met, once it is decided.
    pub fn goal_met(&self) -> Option<bool> {
        self.goal_met
    }

    /// The goal seat's points so far against its goal: gained this round
    /// (round goals) or its score (the others).
    pub fn goal_progress(&self) -> Option<i32> {
        let seat = self.goal.seat()?;
        let score = self.state.boards.get(seat)?.score;
        Some(match self.goal {
            Goal::RoundScore { .. } => score - self.start_scores[seat],
            _ => score,
        })
    }

    /// Decides the goal when the table allows: after the goal round's
    /// tiling for a round goal, at the game's end for the others.
    fn settle_goal(&mut self, tiled_round: Option<u16>) {
        if self.goal_met.is_some() {
            return;
        }
        let Some(seat) = self.goal.seat() else {
            return;
        };
        let score = self.state.boards[seat].score;
        let met = match self.goal {
            Goal::None => return,
            Goal::RoundScore { points, .. } => {
                if tiled_round != Some(self.goal_round) && !self.state.over {
                    return;
                }
                score - self.start_scores[seat] >= points
            }
            Goal::Win { .. } => {
                if !self.state.over {
                    return;
                }
                self.state.winners().0[seat]
            }
            Goal::FinalScore { points, .. } => {
                if !self.state.over {
                    return;
                }
                score >= points
            }
        };
        self.goal_met = Some(met);
        let progress = self.goal_progress().unwrap_or(0);
        // Each kind says what happened as a clause of its own: the winner
        // is a sentence's subject ("player 1 wins"), so a Win goal names
        // the goal seat after it (it read "player 2 player 1 wins with 16").
        let player = seat + 1;
        let what = match self.goal {
            Goal::RoundScore { .. } => format!("player {player} gained {progress} this round"),
            Goal::Win { .. } => format!(
                "{}, player {player} ended with {score}",
                self.outcome_of_scores()
            ),
            _ => format!("player {player} ended with {score}"),
        };
        self.events.push(GameEvent::info(format!(
            "goal ({}): {what}: {}",
            self.goal.describe(),
            if met { "won" } else { "lost" }
        )));
    }

    /// The scores' verdict in words, regardless of any goal.
    fn outcome_of_scores(&self) -> String {
        if !self.state.over {
            return "playing".into();
        }
        let (winners, count) = self.state.winners();
        let seats: Vec<usize> = (0..self.state.players as usize)
            .filter(|&p| winners[p])
            .collect();
        if count == 1 {
            Outcome::Winner(seats[0]).to_string()
        } else {
            Outcome::Shared(seats).to_string()
        }
    }

    /// The game record so far, one JSON object per line.
    pub fn record(&self) -> &[RecordLine] {
        &self.record
    }

    /// Reads the rules again when the script changed since the last read;
    /// the player count and tile counts stay those of the game's start.
    /// Called before each action is recorded, so a new floor penalty
    /// applies from the next tiling, and the record gets a `script` line
    /// with the new numbers just before the first action played under
    /// them (`check` then scores each stretch with the rules in force).
    fn refresh_rules(&mut self) {
        let generation = self.script.generation();
        if generation == self.generation {
            return;
        }
        self.generation = generation;
        let script = self.script.current();
        match settings::rules(&script) {
            Ok(rules) => {
                let r = &mut self.state.rules;
                r.floor_penalties = rules.floor_penalties;
                r.row_bonus = rules.row_bonus;
                r.column_bonus = rules.column_bonus;
                r.colour_bonus = rules.colour_bonus;
                self.record.push(RecordLine::Script {
                    rules: record::RecordedRules::of(&self.state.rules, false),
                    hash: script.content_hash(),
                });
            }
            Err(e) => self.events.push(GameEvent::error(format!(
                "script: {e} (keeping the old numbers)"
            ))),
        }
    }

    /// Events for grey-wall placements.
    fn placement_events(&mut self, placed: &[rules::Placed]) {
        for p in placed {
            let colour = COLOUR_NAMES[p.colour as usize];
            self.events.push(GameEvent::info(match p.column {
                Some(column) => format!(
                    "player {}: {colour} to wall row {}, column {}{}: +{}",
                    p.player + 1,
                    p.row + 1,
                    column + 1,
                    if p.chosen { "" } else { " (the only column)" },
                    p.points
                ),
                None => format!(
                    "player {}: no wall column of row {} takes {colour}: line {} falls to the \
                     floor",
                    p.player + 1,
                    p.row + 1,
                    p.row + 1
                ),
            }));
        }
    }

    /// The end of a round's tiling: floors, scores, the end of the game or
    /// the next deal.
    fn finish_round(&mut self) {
        let round = self.state.round;
        let n = self.state.players as usize;
        // The floors' full penalties, before the tiling clears them: the
        // message shows the whole penalty even when the score stops at 0.
        let penalties: Vec<i32> = (0..n)
            .map(|p| self.state.boards[p].floor_penalty(&self.state.rules))
            .collect();
        let report = self.state.tile_walls();
        for (p, &penalty) in penalties.iter().enumerate() {
            // The score of the tiling itself; the end bonuses follow on a
            // line of their own.
            let before_bonus = self.state.boards[p].score - report.bonus[p];
            let gained = before_bonus + report.lost[p] - self.tiling_start[p];
            self.events.push(GameEvent::info(format!(
                "round {round} tiling: player {} {}",
                p + 1,
                text::tiling_sum(gained, penalty, report.lost[p], before_bonus)
            )));
        }
        self.record.push(RecordLine::Tiling {
            round,
            // Before the end bonuses, which get their own line.
            scores: (0..n)
                .map(|p| self.state.boards[p].score - report.bonus[p])
                .collect(),
        });
        if report.stalled {
            self.events.push(GameEvent::info(
                "grey wall: no wall can complete a row any more, so the game ends here".to_string(),
            ));
        }
        if report.game_over {
            for p in 0..n {
                self.events.push(GameEvent::info(format!(
                    "bonus: player {} {}",
                    p + 1,
                    text::bonus_sum(&self.state.boards[p], &self.state.rules)
                )));
            }
            self.events.push(GameEvent::info(format!(
                "game over: {}",
                self.outcome_of_scores()
            )));
            self.settle_goal(Some(round));
            self.finish_record(&report);
        } else {
            self.settle_goal(Some(round));
            if self.goal_met.is_none() {
                self.deal_round();
            }
        }
    }

    fn deal_round(&mut self) {
        let mut deal: Deal = [[255; MAX_FACTORY_TILES]; rules::MAX_FACTORIES];
        self.state.deal(&mut self.rng, Some(&mut deal));
        let factories = deal_lists(&deal, self.state.factory_count as usize);
        let text: Vec<String> = factories
            .iter()
            .map(|f| f.iter().map(|c| letter(*c)).collect::<String>())
            .collect();
        self.events.push(GameEvent::info(format!(
            "round {} dealt: {}",
            self.state.round,
            text.join(" ")
        )));
        self.record.push(RecordLine::Deal {
            round: self.state.round,
            factories,
        });
        if self.state.over {
            self.events.push(GameEvent::info(
                "no tiles left to deal: the game ends".to_string(),
            ));
            self.finish_record(&TilingReport::default());
        }
    }

    fn finish_record(&mut self, report: &TilingReport) {
        let n = self.state.players as usize;
        self.record.push(RecordLine::Bonus {
            bonuses: report.bonus[..n].to_vec(),
        });
        self.record.push(RecordLine::End {
            scores: self.scores(),
            outcome: self.outcome().to_string(),
        });
    }
}

/// Factory lists of colour indices from a deal (empty slots left out).
pub fn deal_lists(deal: &Deal, factories: usize) -> Vec<Vec<u8>> {
    deal[..factories]
        .iter()
        .map(|f| {
            f.iter()
                .copied()
                .filter(|&c| (c as usize) < COLOURS)
                .collect()
        })
        .collect()
}

impl Game for Azul {
    const ID: &'static str = "azul";

    const TITLE: &'static str = "Azul (against AI players)";

    type Level = AzulLevel;

    type Action = AzulAction;

    fn start(setup: Setup<AzulLevel>) -> Result<Self, GameError> {
        let current = setup.script.current();
        let mut rules: Rules = settings::rules(&current)?;
        let script_hash = current.content_hash();
        drop(current);
        let level = &setup.level;
        if level.grey_wall.is_some() || level.position.is_some() {
            rules.grey_wall = level.grey();
        }
        // A start without seats (a level check) plays the level's table.
        let seat_count = if setup.options.seats.is_empty() {
            level.players().unwrap_or(2)
        } else {
            setup.options.seats.len()
        };
        let players = seat_count.clamp(2, 4);
        // The one check of a position, now with the script's numbers.
        let scenario = match &level.position {
            Some(position) => {
                let check = check_position(position, Some(&rules), None);
                if let Some(error) = check.first_error() {
                    return Err(GameError::Level(error.clone()));
                }
                if position.boards.len() != seat_count {
                    return Err(GameError::Level(
                        Diagnostic::error(
                            std::path::Path::new(""),
                            format!(
                                "the scenario has {} boards but the game has {} seats: \
                                 play it with one seat per board",
                                position.boards.len(),
                                seat_count
                            ),
                        )
                        .at("position")
                        .at("boards"),
                    ));
                }
                check.state
            }
            None => None,
        };
        let state = scenario.unwrap_or_else(|| State::new(rules, players));
        let mut start_scores = [0; rules::MAX_PLAYERS];
        for (p, slot) in start_scores.iter_mut().enumerate() {
            *slot = state.boards[p].score;
        }
        let mut game = Self {
            state,
            rng: game_rng(setup.seed),
            generation: setup.script.generation(),
            script: setup.script,
            events: Vec::new(),
            record: Vec::new(),
            seed: setup.seed,
            goal: level.goal.clone(),
            goal_round: state.round,
            start_scores,
            goal_met: None,
            tiling_start: [0; rules::MAX_PLAYERS],
            expert_memory: ai::ExpertMemory::default(),
        };
        if let Some(seat) = game.goal.seat()
            && seat >= players
        {
            return Err(GameError::Level(
                Diagnostic::error(
                    std::path::Path::new(""),
                    format!(
                        "the goal is about player {}, but the game has {players} seats",
                        seat + 1
                    ),
                )
                .at("goal"),
            ));
        }
        game.record.push(RecordLine::Start {
            players: players as u8,
            factories: game.state.factory_count,
            seed: game.seed,
            scenario: false,
            grey_wall: rules.grey_wall,
            position: level.position.clone().filter(|_| scenario.is_some()),
            goal: Some(game.goal.clone()).filter(|g| *g != Goal::None),
            rules: Some(record::RecordedRules::of(&game.state.rules, true)),
            script: Some(script_hash),
        });
        if scenario.is_some() {
            game.events.push(GameEvent::info(format!(
                "scenario: round {}, player {} to move; goal: {}",
                game.state.round,
                game.state.to_move + 1,
                game.goal.describe()
            )));
        } else {
            game.deal_round();
        }
        Ok(game)
    }

    fn apply(&mut self, action: &AzulAction) -> Result<(), GameError> {
        let Some(m) = action_to_move(action) else {
            return Err(GameError::Illegal(format!(
                "{action:?}: factories are numbered from 1, pattern lines, wall rows and \
                 columns 1 to 5"
            )));
        };
        if let Some(met) = self.goal_met {
            return Err(GameError::Illegal(format!(
                "the scenario is over: its goal was {}",
                if met { "met" } else { "missed" }
            )));
        }
        if let Some(why) = self.state.refusal(m) {
            return Err(GameError::Illegal(why));
        }
        self.refresh_rules();
        let player = self.state.to_move;
        let mut placed = Vec::new();
        let round_over = if let Some(row) = m.wall_row() {
            let colour = self
                .state
                .pending_choice()
                .map_or(0, |(_, colour, _)| colour);
            self.record.push(RecordLine::Wall {
                player: player + 1,
                row: row as u8 + 1,
                column: m.target + 1,
                colour: COLOUR_NAMES[colour].to_string(),
            });
            let done = self.state.choose_column(m, Some(&mut placed));
            self.placement_events(&placed);
            done
        } else {
            let taken = self.state.play(m);
            self.record.push(RecordLine::Move {
                player: player + 1,
                source: record::SourceField::from_move(m),
                colour: COLOUR_NAMES[m.colour as usize].to_string(),
                line: record::LineField::from_move(m),
            });
            if taken {
                for (p, slot) in self.tiling_start.iter_mut().enumerate() {
                    *slot = self.state.boards[p].score;
                }
            }
            if taken && self.state.rules.grey_wall {
                let done = self.state.begin_tiling(Some(&mut placed));
                self.placement_events(&placed);
                done
            } else {
                taken
            }
        };
        if round_over {
            self.finish_round();
        } else if let Some((row, colour, mask)) = self.state.pending_choice() {
            let columns: Vec<String> = (0..LINES)
                .filter(|c| mask & (1 << c) != 0)
                .map(|c| (c + 1).to_string())
                .collect();
            self.events.push(GameEvent::info(format!(
                "player {}: choose the wall column of line {} ({}): {}",
                self.state.to_move + 1,
                row + 1,
                COLOUR_NAMES[colour],
                columns.join(", ")
            )));
        }
        Ok(())
    }

    fn legal_actions(&self) -> Vec<AzulAction> {
        if self.goal_met.is_some() {
            return Vec::new();
        }
        let mut moves = MoveList::default();
        self.state.legal_moves(&mut moves);
        moves
            .as_slice()
            .iter()
            .map(|&m| move_to_action(m))
            .collect()
    }

    fn turn(&self) -> Turn {
        if self.state.over || self.goal_met.is_some() {
            Turn::Over
        } else {
            Turn::Seat(self.state.to_move as usize)
        }
    }

    fn outcome(&self) -> Outcome {
        if self.goal != Goal::None {
            // A scenario is won or lost by its goal's seat.
            return match self.goal_met {
                Some(true) => Outcome::Won,
                Some(false) => Outcome::Lost,
                None => Outcome::Playing,
            };
        }
        if !self.state.over {
            return Outcome::Playing;
        }
        let (winners, count) = self.state.winners();
        let seats: Vec<usize> = (0..self.state.players as usize)
            .filter(|&p| winners[p])
            .collect();
        if count == 1 {
            Outcome::Winner(seats[0])
        } else {
            Outcome::Shared(seats)
        }
    }

    fn take_events(&mut self) -> Vec<GameEvent> {
        std::mem::take(&mut self.events)
    }

    fn render_text(&self) -> String {
        let mut text = render(&self.state);
        if self.goal != Goal::None {
            let progress = self.goal_progress().unwrap_or(0);
            text.push_str(&format!(
                "goal: {} (so far {progress}){}\n",
                self.goal.describe(),
                match self.goal_met {
                    Some(true) => ", met",
                    Some(false) => ", missed",
                    None => "",
                }
            ));
        }
        text
    }
}

impl Scripted for Azul {
    /// The shipped `scripts/azul.lua`: every tunable at the seed's value.
    const DEFAULT_SCRIPT: Option<&'static str> = Some(include_str!("../../../../scripts/azul.lua"));

    fn script_schema() -> ScriptSchema {
        settings::schema()
    }

    /// The settings reader is the one check: a floor penalty out of range
    /// or an expert share above 1 is refused by `check`, `watch`, the
    /// editor's reload and game start alike, at its line.
    fn check_script(script: &Script) -> Result<(), ScriptError> {
        settings::check(script)
    }
}

/// Azul registers its script, 2 to 4 seats and its AI ladder, scenario
/// levels that name their seats, its scores and record, and its
/// generator; its moves and simulations are the host's defaults.
impl Plugin for Azul {
    fn register(game: &mut Registrar<Self>) {
        game.scripted()
            .seats(Self::spec)
            .agents(Self::agent)
            .level_formats()
            .reports()
            .generator(generate::GENERATOR);
    }
}

impl AgentGame for Azul {
    type Snapshot = AzulView;
    type Action = AzulAction;

    fn snapshot(&self) -> AzulView {
        AzulView { state: self.state }
    }
}

impl Azul {
    /// One mode, 2 to 4 seats, the script's AI levels.
    pub fn spec(script: &Script) -> Result<GameSpec, GameError> {
        let levels = settings::ai_levels(script)?;
        let default_ai = levels
            .iter()
            .find(|l| *l == "medium")
            .unwrap_or(&levels[0])
            .clone();
        Ok(GameSpec {
            modes: vec![ModeSpec::new("play", "Play")],
            min_seats: 2,
            max_seats: 4,
            default_seats: vec![Seat::Human, Seat::Ai { level: default_ai }],
            ai_levels: levels,
            also_accepts: None,
        })
    }

    /// The AI for `seat` at `level` (easy to expert).
    pub fn agent(&self, seat: usize, level: &str) -> Result<Box<dyn Agent<Self>>, GameError> {
        let Some(ai_level) = ai::Level::parse(level) else {
            return Err(GameError::Invalid(format!(
                "no AI level `{level}` (easy, medium, hard, expert)"
            )));
        };
        let settings = settings::ai_settings(&self.script.current())?;
        Ok(Box::new(
            ai::AzulAgent::new(ai_level, settings).with_memory(self.expert_memory.clone(), seat),
        ))
    }
}

impl LevelFormats for Azul {
    /// A scenario names its seats (its human and AI players).
    fn level_options(level: &AzulLevel) -> tessera_host::options::SessionOptions {
        tessera_host::options::SessionOptions {
            mode: None,
            seats: level.seats.clone(),
        }
    }
}

impl Reports for Azul {
    fn scores(&self) -> Vec<i64> {
        self.state.boards[..self.state.players as usize]
            .iter()
            .map(|b| i64::from(b.score))
            .collect()
    }

    fn report_json(&self) -> serde_json::Value {
        serde_json::json!({
            "game": Self::ID,
            "outcome": self.outcome().to_string(),
            "scores": self.scores(),
            "round": self.state.round,
            "board": self.render_text().lines().collect::<Vec<_>>(),
        })
    }

    fn game_record(&self) -> Option<String> {
        Some(self.record.iter().map(|l| l.to_json() + "\n").collect())
    }
}

// One test binary per crate: the tests in `tests/` are a module of the
// unit-test binary rather than integration binaries of their own (each would
// link the whole dependency tree again). They name the crate as
// `tessera_azul`, like outside code, so they exercise only the public API.
#[cfg(test)]
extern crate self as tessera_azul;
#[cfg(test)]
#[path = "../tests/main.rs"]
mod api_tests;
