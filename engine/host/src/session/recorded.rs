//! [`Recorded<G>`]: a game plus the record of everything done to it (see
//! the module's doc in `mod.rs`).

use std::sync::Arc;

use serde::Serialize;

use crate::agent::{AiTask, Budget, Decision, ThinkControl, agent_rng};
use crate::options::{GameSpec, Seat, SessionOptions};
use crate::plugin::{Game, GameError, GameEvent, Setup, Turn};
use crate::registrar::{Capabilities, Plugin};
use crate::replay::short_hash;
use crate::replay::{Replay, ScriptRecord, Step};
use crate::script::{LiveScript, Script};
use crate::trajectory::{Row, Trajectory};

/// What followed one recorded step.
#[derive(Debug, Clone, PartialEq, Eq)]
struct StepRecord {
    actor: String,
    scores: Vec<i64>,
    events: Vec<String>,
}

/// A game plus the record of everything done to it.
pub struct Recorded<G: Game> {
    // `game`, `capabilities`, `spec` and `replay` are read by the erased
    // twin, `erased.rs`.
    pub(super) game: G,
    /// What the game registered beside its core.
    pub(super) capabilities: Arc<Capabilities<G>>,
    script: LiveScript,
    /// The script generation the record has caught up with.
    seen_generation: u64,
    pub(super) spec: GameSpec,
    pub(super) replay: Replay<G::Level, G::Action>,
    /// One entry per step of `replay.steps`.
    records: Vec<StepRecord>,
    /// Events the UI has not taken yet.
    unread: Vec<GameEvent>,
    /// The last AI explanation and the seat that gave it.
    last_explanation: Option<(usize, String)>,
    /// Step counts at which a player's move began, oldest first: where an
    /// undo goes back to.
    move_starts: Vec<usize>,
    /// Steps applied without being kept ([`Recorded::stop_recording`]);
    /// `None` while the session records.
    unrecorded: Option<usize>,
}

/// `options` with what the level asks for filled in where they name
/// nothing: its mode, and its seats when that mode is played.
pub fn with_level_defaults<G: Game>(
    capabilities: &Capabilities<G>,
    level: &G::Level,
    options: &SessionOptions,
) -> SessionOptions {
    let wanted = capabilities.level_options(level);
    let mut merged = options.clone();
    if merged.mode.is_none() {
        merged.mode = wanted.mode.clone();
    }
    if merged.seats.is_empty() && merged.mode == wanted.mode {
        merged.seats = wanted.seats;
    }
    merged
}

impl<G: Plugin> Recorded<G> {
    /// Starts `G` with what it registers ([`Recorded::start_with`]).
    pub fn start(
        level: G::Level,
        script: LiveScript,
        seed: u64,
        options: &SessionOptions,
    ) -> Result<Self, GameError> {
        Self::start_with(Arc::new(Capabilities::of()), level, script, seed, options)
    }

    /// Plays a replay back with what `G` registers
    /// ([`Recorded::from_replay_with`]).
    pub fn from_replay(
        replay: Replay<G::Level, G::Action>,
        script: LiveScript,
        apply_reloads: bool,
        stop_after: Option<usize>,
    ) -> Result<Self, GameError> {
        let capabilities = Arc::new(Capabilities::of());
        Self::from_replay_with(capabilities, replay, script, apply_reloads, stop_after)
    }
}

impl<G: Game> Recorded<G> {
    /// Starts `G` with options resolved against its spec, and begins
    /// recording; `capabilities` are what the game registered.
    pub fn start_with(
        capabilities: Arc<Capabilities<G>>,
        level: G::Level,
        script: LiveScript,
        seed: u64,
        options: &SessionOptions,
    ) -> Result<Self, GameError> {
        let current = script.current();
        let spec = capabilities.spec(&current)?;
        let options = spec.resolve(&with_level_defaults(&capabilities, &level, options))?;
        let game = capabilities.start(Setup {
            level: level.clone(),
            script: script.clone(),
            seed,
            options: options.clone(),
        })?;
        let record = ScriptRecord {
            path: current.path().display().to_string(),
            hash: current.content_hash(),
            source: current.source().to_string(),
        };
        let mut session = Self {
            game,
            capabilities,
            seen_generation: script.generation(),
            script,
            spec,
            replay: Replay {
                game: G::ID.to_string(),
                seed,
                options,
                level_path: None,
                level,
                script: Some(record),
                steps: Vec::new(),
            },
            records: Vec::new(),
            unread: Vec::new(),
            last_explanation: None,
            move_starts: Vec::new(),
            unrecorded: None,
        };
        // Events of the start itself (a script error in a setting, say)
        // reach the UI but belong to no step.
        session.unread = session.game.take_events();
        Ok(session)
    }

    /// Plays a replay back step by step (see [`ReplayRun`] for the script
    /// and level choices, made by the caller). Steps that failed when
    /// recorded fail again the same way; that is part of the record.
    /// `apply_reloads`: apply the recorded `Reload` steps (the recorded
    /// script) or skip them (the current one). `stop_after`: play only the
    /// first N steps.
    pub fn from_replay_with(
        capabilities: Arc<Capabilities<G>>,
        replay: Replay<G::Level, G::Action>,
        script: LiveScript,
        apply_reloads: bool,
        stop_after: Option<usize>,
    ) -> Result<Self, GameError> {
        if replay.game != G::ID {
            return Err(GameError::Invalid(format!(
                "this replay is for `{}`, not `{}`",
                replay.game,
                G::ID
            )));
        }
        let mut session = Self::start_with(
            capabilities,
            replay.level,
            script,
            replay.seed,
            &replay.options,
        )?;
        session.replay.level_path = replay.level_path;
        let limit = stop_after.unwrap_or(usize::MAX);
        let reloads = replay
            .steps
            .iter()
            .filter(|step| matches!(step, Step::Reload(_)))
            .count();
        if apply_reloads && reloads > crate::replay::MAX_RELOADS {
            return Err(steps_error(
                None,
                format!(
                    "{reloads} script reloads; a replay holds at most {}",
                    crate::replay::MAX_RELOADS
                ),
            ));
        }
        let mut loading = std::time::Duration::ZERO;
        for (index, step) in replay.steps.into_iter().take(limit).enumerate() {
            let _ = match step {
                Step::Act(action) => session.apply_step(&action, true),
                Step::Tick(ticks) => session.advance(ticks),
                Step::Reload(source) if apply_reloads => {
                    // A live session records only reloads that loaded: one
                    // that fails here was not written by a session.
                    let started = std::time::Instant::now();
                    let loaded = session.reload_from_text(&source);
                    loading += started.elapsed();
                    if let Err(error) = loaded {
                        return Err(steps_error(
                            Some(index),
                            format!("this recorded script reload does not load: {error}"),
                        ));
                    }
                    if loading > crate::replay::RELOADS_TIME {
                        return Err(steps_error(
                            Some(index),
                            format!(
                                "the recorded reloads spent over {} s loading scripts; refused",
                                crate::replay::RELOADS_TIME.as_secs()
                            ),
                        ));
                    }
                    Ok(())
                }
                Step::Reload(_) => Ok(()),
            };
        }
        Ok(session)
    }

    /// The game, for views that read its concrete state.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// The game, mutable, for settings that are not moves (view options,
    /// say). Moves go through [`Recorded::apply`] so they are recorded.
    pub fn game_mut(&mut self) -> &mut G {
        &mut self.game
    }

    /// What the game registered beside its core.
    pub fn capabilities(&self) -> &Capabilities<G> {
        &self.capabilities
    }

    /// The live script slot the game calls.
    pub fn script(&self) -> &LiveScript {
        &self.script
    }

    /// What the game offers (modes, seats, AI levels).
    pub fn spec(&self) -> &GameSpec {
        &self.spec
    }

    /// The resolved options.
    pub fn options(&self) -> &SessionOptions {
        &self.replay.options
    }

    /// The session's seed.
    pub fn seed(&self) -> u64 {
        self.replay.seed
    }

    /// Notes which level file the session plays (relative to the project),
    /// so the replay can be run against the current file later.
    pub fn set_level_path(&mut self, path: Option<String>) {
        self.replay.level_path = path;
    }

    /// Whose move it is.
    pub fn turn(&self) -> Turn {
        self.game.turn()
    }

    /// The seat to move, when it is an AI seat.
    pub fn ai_to_move(&self) -> Option<usize> {
        match self.game.turn() {
            Turn::Seat(seat) if self.options().ai_level(seat).is_some() => Some(seat),
            _ => None,
        }
    }

    /// Applies and records an action. A refused one ([`GameError::Illegal`])
    /// left the game as it was, so it is told (a `refused:` event) but not
    /// recorded: no undo point (Undo would then find nothing to take
    /// back) and no step in the replay a resume or "Save as test" writes.
    /// A refusal with a consequence (Sand's game-over check on a failed
    /// placement) changed the outcome and is recorded like a move.
    pub fn apply(&mut self, action: &G::Action) -> Result<(), GameError> {
        self.apply_step(action, false)
    }

    /// [`Self::apply`]; `keep_refused`: record a refused action too (a
    /// replay's steps are played back as they were written).
    fn apply_step(&mut self, action: &G::Action, keep_refused: bool) -> Result<(), GameError> {
        if let Some(count) = self.unrecorded.as_mut() {
            *count += 1;
            let result = self.game.apply(action);
            // Nobody reads an unrecorded session's events: dropped, so they
            // cannot pile up over a long game.
            drop(self.game.take_events());
            return result;
        }
        self.note_reload();
        self.refuse_if_stopped()?;
        let starts_move =
            self.ai_to_move().is_none() && self.capabilities.move_starts(&self.game, action);
        let actor = self.actor();
        let outcome = self.game.outcome();
        let result = self.game.apply(action);
        let refused = matches!(result, Err(GameError::Illegal(_)));
        if refused && !keep_refused && self.game.outcome() == outcome {
            let mut events = self.game.take_events();
            if let Err(error) = &result {
                events.push(GameEvent::error(format!("refused: {error}")));
            }
            self.unread.extend(events);
            return result;
        }
        if starts_move {
            self.move_starts.push(self.replay.steps.len());
        }
        self.replay.steps.push(Step::Act(action.clone()));
        self.finish_step(actor, result.as_ref().err(), false);
        result?;
        self.refuse_if_stopped()
    }

    /// Advances and records time (consecutive ticks merge into one step).
    pub fn advance(&mut self, ticks: u32) -> Result<(), GameError> {
        if ticks == 0 {
            return Ok(());
        }
        self.note_reload();
        self.refuse_if_stopped()?;
        let merged = match self.replay.steps.last_mut() {
            Some(Step::Tick(n)) => match n.checked_add(ticks) {
                Some(sum) => {
                    *n = sum;
                    true
                }
                None => false,
            },
            _ => false,
        };
        if !merged {
            self.replay.steps.push(Step::Tick(ticks));
        }
        let result = self.game.advance(ticks);
        self.finish_step(String::new(), result.as_ref().err(), merged);
        result?;
        self.refuse_if_stopped()
    }

    /// The game stops once a hook of the script in force ran past its time
    /// budget ([`Script::stopped`]): the step that overran returns the
    /// error, and every later step is refused at once, unrecorded, until a
    /// reload brings a new version. Without this a hook that never returns
    /// costs its budget at every call, and a default game runs for tens of
    /// minutes.
    fn refuse_if_stopped(&self) -> Result<(), GameError> {
        match self.script.current().stopped() {
            None => Ok(()),
            Some(error) => Err(GameError::Script(crate::script::ScriptError {
                message: format!(
                    "{}; the game stops here (reload a fixed script to go on)",
                    error.message
                ),
                ..error
            })),
        }
    }

    /// How many steps the record holds.
    pub fn step_count(&self) -> usize {
        self.replay.steps.len() + self.unrecorded.unwrap_or(0)
    }

    /// Stops keeping the record (simulations): later actions are applied
    /// and counted, their steps and events not kept, so memory does not
    /// grow with a long game; AI decisions are numbered as before. Undo
    /// and the replay then stop at this point.
    pub fn stop_recording(&mut self) {
        self.unrecorded.get_or_insert(0);
    }

    /// Whether a player's move can be taken back.
    pub fn can_undo(&self) -> bool {
        !self.move_starts.is_empty()
    }

    /// Takes back the last move a player made, with the AI replies, ticks
    /// and reloads after it: the session becomes the replay of the record
    /// up to just before that move. Returns the step count kept; `Ok(None)`
    /// when no move was made yet.
    pub fn undo_move(&mut self) -> Result<Option<usize>, GameError> {
        let Some(&point) = self.move_starts.last() else {
            return Ok(None);
        };
        self.undo_to(point)?;
        Ok(Some(point))
    }

    /// Rewinds the session to its first `steps` steps by replaying them from
    /// the start (the host's undo; it works for every game because a
    /// session is a function of its record). Each stretch is replayed with
    /// the script version that was in force; afterwards the session follows
    /// its live script again.
    pub fn undo_to(&mut self, steps: usize) -> Result<(), GameError> {
        let mut prefix = self.replay.clone();
        prefix.steps.truncate(steps);
        let live = self.script.clone();
        let now = live.current();
        // The record's first stretch ran on the script it started with.
        if let Some(started) = &prefix.script
            && started.hash != now.content_hash()
        {
            let schema = self.capabilities.script_schema();
            let first = Script::load(now.path(), &started.source, Some(&schema), now.limits())?;
            live.replace(first);
        }
        let capabilities = Arc::clone(&self.capabilities);
        let rebuilt = Self::from_replay_with(capabilities, prefix, live.clone(), true, None);
        // Put the live version back whatever happened: other holders of
        // the slot (the project) must keep seeing it.
        if !Arc::ptr_eq(&live.current(), &now) {
            live.restore(now);
        }
        let mut rebuilt = rebuilt?;
        // The replay's events were seen the first time round.
        rebuilt.unread.clear();
        *self = rebuilt;
        Ok(())
    }

    /// Builds the decision of the AI seat to move: agent, snapshot and its
    /// own random stream, detached from the game so it can run on a worker
    /// thread. The script is read here, never during the search.
    pub fn ai_task(&self, seat: usize) -> Result<AiTask<G::Action>, GameError> {
        let Some(level) = self.options().ai_level(seat) else {
            return Err(GameError::Invalid(format!(
                "seat {} is not played by an AI",
                seat + 1
            )));
        };
        // The step count numbers decisions: the same session gives every
        // decision the same stream, run after run.
        let rng = agent_rng(self.seed(), seat, self.step_count() as u64);
        self.capabilities.ai_task(&self.game, seat, level, rng)
    }

    /// The last AI decision's explanation (see [`Decision::explanation`])
    /// and the seat that made it.
    pub fn last_explanation(&self) -> Option<(usize, &str)> {
        self.last_explanation
            .as_ref()
            .map(|(seat, text)| (*seat, text.as_str()))
    }

    /// Applies an AI's decision like any action, with its reasoning among
    /// the step's events.
    pub fn apply_decision(&mut self, decision: &Decision<G::Action>) -> Result<(), GameError> {
        let seat = match self.game.turn() {
            Turn::Seat(seat) => seat,
            _ => 0,
        };
        let result = self.apply(&decision.action);
        if let Some(text) = &decision.explanation {
            self.last_explanation = Some((seat, text.clone()));
        }
        if let (Some(record), Some(best)) = (self.records.last_mut(), decision.considered.first()) {
            let others = decision.considered.len().saturating_sub(1);
            record.events.push(format!(
                "ai value {:.2} ({others} others weighed)",
                best.value
            ));
        }
        result
    }

    /// Decides and plays the AI seat to move, on this thread (headless
    /// play); `None` when no AI is to move.
    pub fn play_ai_turn(&mut self, budget: Budget) -> Result<Option<G::Action>, GameError> {
        let Some(seat) = self.ai_to_move() else {
            return Ok(None);
        };
        let task = self.ai_task(seat)?.with_budget(budget);
        let decision = task.run(&ThinkControl::new())?;
        self.apply_decision(&decision)?;
        Ok(Some(decision.action))
    }

    /// The record so far.
    pub fn replay(&self) -> &Replay<G::Level, G::Action> {
        &self.replay
    }

    /// Events since the last call, for the console and the views.
    pub fn take_new_events(&mut self) -> Vec<GameEvent> {
        std::mem::take(&mut self.unread)
    }

    /// The trajectory so far.
    pub fn trajectory(&self) -> Trajectory {
        let rows = self
            .replay
            .steps
            .iter()
            .zip(&self.records)
            .enumerate()
            .map(|(i, (step, record))| Row {
                index: i + 1,
                actor: record.actor.clone(),
                step: step_text(step),
                scores: record.scores.clone(),
                events: record.events.clone(),
            })
            .collect();
        let seats: Vec<String> = self.options().seats.iter().map(Seat::to_string).collect();
        Trajectory {
            header: format!(
                "game: {}  seed: {}  mode: {}  seats: {}",
                G::ID,
                self.seed(),
                self.options().mode(),
                seats.join(", ")
            ),
            rows,
            outcome: self.game.outcome().to_string(),
            board: self.game.render_text(),
        }
    }

    /// Loads `source` as the next version of the session's script and
    /// records the reload (used when replaying `Reload` steps).
    fn reload_from_text(&mut self, source: &str) -> Result<(), GameError> {
        let current = self.script.current();
        let schema = self.capabilities.script_schema();
        let script = Script::load(current.path(), source, Some(&schema), current.limits())?;
        self.script.replace(script);
        self.note_reload();
        Ok(())
    }

    /// Records a `Reload` step (and a reload event, see
    /// [`is_reload_event`]) when the script was swapped since the last step.
    fn note_reload(&mut self) {
        let generation = self.script.generation();
        if generation == self.seen_generation {
            return;
        }
        self.seen_generation = generation;
        let current = self.script.current();
        self.replay
            .steps
            .push(Step::Reload(current.source().to_string()));
        let event = format!(
            "{RELOAD_EVENT_PREFIX}{} reloaded ({})",
            current.path().display(),
            short_hash(&current.content_hash())
        );
        self.unread.push(GameEvent::info(event.clone()));
        self.records.push(StepRecord {
            actor: String::new(),
            scores: self.capabilities.scores(&self.game),
            events: vec![event],
        });
    }

    /// Who is about to act: the AI seat's name, or nobody in particular.
    fn actor(&self) -> String {
        match self.game.turn() {
            Turn::Seat(seat) => match self.options().seats.get(seat) {
                Some(Seat::Ai { level }) => format!("ai:{level} (seat {})", seat + 1),
                _ if self.options().seats.len() > 1 => format!("seat {}", seat + 1),
                _ => String::new(),
            },
            _ => String::new(),
        }
    }

    fn finish_step(&mut self, actor: String, error: Option<&GameError>, merged: bool) {
        let mut events = self.game.take_events();
        if let Some(error) = error {
            events.push(GameEvent::error(format!("refused: {error}")));
        }
        self.unread.extend(events.iter().cloned());
        let texts = events.into_iter().map(|e| e.text);
        let scores = self.capabilities.scores(&self.game);
        match self.records.last_mut() {
            Some(record) if merged => {
                record.events.extend(texts);
                record.scores = scores;
            }
            _ => self.records.push(StepRecord {
                actor,
                scores,
                events: texts.collect(),
            }),
        }
    }
}

/// A finding about a replay's `steps` (entry `index`), made without the
/// replay's file: the caller names the file and finds the line
/// ([`crate::replay::located_replay_error`]).
fn steps_error(index: Option<usize>, message: String) -> GameError {
    let finding = crate::level::Diagnostic::error(std::path::Path::new(""), message).at("steps");
    GameError::Level(match index {
        Some(index) => finding.at_index(index),
        None => finding,
    })
}

/// A step as compact RON.
fn step_text<A: Serialize>(step: &Step<A>) -> String {
    match step {
        Step::Act(action) => ron::to_string(action).unwrap_or_else(|_| "?".into()),
        Step::Tick(n) => format!("Tick({n})"),
        Step::Reload(_) => "Reload".into(),
    }
}

/// A replay as RON: the header fields one per line, each step on a line of
/// its own, so a replay file diffs well.
pub fn replay_to_ron<L: Serialize, A: Serialize>(
    replay: &Replay<L, A>,
) -> Result<String, GameError> {
    let config = ron::ser::PrettyConfig::new()
        .depth_limit(2)
        .struct_names(false)
        .separate_tuple_members(false);
    ron::ser::to_string_pretty(replay, config)
        .map(|mut s| {
            s.push('\n');
            s
        })
        .map_err(|e| GameError::Invalid(format!("cannot write replay: {e}")))
}

/// An action list as stored in files: RON `[ ... ]` of actions and ticks.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct ActionList<A>(pub Vec<Step<A>>);

/// The start of the event a session records when its script is swapped.
const RELOAD_EVENT_PREFIX: &str = "script ";

/// Whether a game event is the session's note of a script reload
/// (`script scripts/tetris.lua reloaded (c919670a07db)`). The replay keeps
/// it; the editor's console already says `reloaded scripts/tetris.lua`, so
/// views leave it out there rather than print the reload twice.
pub fn is_reload_event(event: &GameEvent) -> bool {
    !event.is_error
        && event.text.starts_with(RELOAD_EVENT_PREFIX)
        && event.text.contains(" reloaded (")
}
