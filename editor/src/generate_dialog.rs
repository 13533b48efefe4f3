//! File ▸ Generate…: the active game's level generator as a form (each of
//! its spec's options, from `LevelGenerator::arguments`: a checkbox for a
//! switch, a text field for a value, the option's help beside it), run on
//! a worker thread with progress and Cancel. The level it makes opens in a
//! new tab, saved only when the designer saves.

use egui::Context;
use tessera_host::driver::ThinkingStatus;
use tessera_host::generate::{GenerateError, Generated, LevelGenerator};
use tessera_host::worker::{Job, Poll};

/// One option of the spec.
struct Field {
    long: String,
    help: String,
    /// A switch (`--unique`): a checkbox.
    switch: bool,
    /// The spec cannot do without it (Azul's one kind, `--endgame`): a
    /// required switch is ticked and cannot be unticked, so the form
    /// opens valid.
    required: bool,
    on: bool,
    value: String,
    /// The option's default: left as it is, the option is not passed, so
    /// an option that conflicts with it (`--repair` with `--box`) can be
    /// given.
    default: String,
}

/// The dialog's state.
pub struct GenerateDialog {
    game: String,
    /// The game as the window's title names it.
    title: String,
    generator: &'static dyn LevelGenerator,
    fields: Vec<Field>,
    seed: String,
    running: Option<Job<Result<Generated, GenerateError>>>,
    error: Option<String>,
}

/// What the dialog ended with.
pub enum Generation {
    /// Closed without a level.
    Closed,
    /// A level for the game, from this seed.
    Made {
        game: String,
        seed: u64,
        level: Generated,
    },
}

impl GenerateDialog {
    /// The form for `game`'s generator, its options at their defaults.
    pub fn new(game: &str, generator: &'static dyn LevelGenerator) -> Self {
        let fields = generator
            .arguments()
            .iter()
            .filter_map(|arg| {
                let long = arg.get_long()?.to_string();
                let takes_value = arg.get_num_args().is_none_or(|n| n.takes_values());
                let switch = !takes_value || matches!(arg.get_action(), clap::ArgAction::SetTrue);
                let default = arg
                    .get_default_values()
                    .first()
                    .map(|v| v.to_string_lossy().into_owned())
                    .unwrap_or_default();
                let required = arg.is_required_set();
                Some(Field {
                    long,
                    help: arg.get_help().map(ToString::to_string).unwrap_or_default(),
                    switch,
                    required,
                    on: switch && required,
                    value: default.clone(),
                    default,
                })
            })
            .collect();
        Self {
            game: game.to_string(),
            title: game.to_string(),
            generator,
            fields,
            seed: "1".into(),
            running: None,
            error: None,
        }
    }

    /// The form filled from a `generate GAME` command line's spec options
    /// and `--seed` (what a generated level's first line records, and a
    /// game's long runs list): `args` are the words after `generate GAME`.
    /// Refused, naming the word, when an option is not the generator's.
    pub fn from_command_line(
        game: &str,
        generator: &'static dyn LevelGenerator,
        args: &[String],
    ) -> Result<Self, String> {
        let mut dialog = Self::new(game, generator);
        let mut words = args.iter();
        while let Some(word) = words.next() {
            let Some(long) = word.strip_prefix("--") else {
                return Err(format!("`{word}` is not an option"));
            };
            if long == "seed" {
                dialog.seed = words.next().cloned().unwrap_or_default();
                continue;
            }
            let Some(field) = dialog.fields.iter_mut().find(|f| f.long == long) else {
                return Err(format!("--{long} is not an option of {game}'s generator"));
            };
            if field.switch {
                field.on = true;
            } else {
                field.value = words.next().cloned().unwrap_or_default();
            }
        }
        Ok(dialog)
    }

    /// The form titled by the game's title (`Generate a level: Azul`)
    /// rather than its id.
    pub fn titled(mut self, title: &str) -> Self {
        self.title = title.to_string();
        self
    }

    /// The words after `generate GAME` the form stands for now: the
    /// switches on, the values changed from their defaults, and `--seed`
    /// (what [`Self::from_command_line`] reads back, so a reopened form
    /// is the one the designer left).
    pub fn command_line(&self) -> Vec<String> {
        let mut words = Vec::new();
        for field in &self.fields {
            if field.switch && field.on {
                words.push(format!("--{}", field.long));
            } else if !field.switch && field.value.trim() != field.default {
                words.push(format!("--{}", field.long));
                words.push(field.value.trim().to_string());
            }
        }
        words.push("--seed".into());
        words.push(self.seed.trim().to_string());
        words
    }

    /// The refusal or failure shown under the form, if any.
    pub fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }

    /// The game whose generator the form is.
    pub fn game(&self) -> &str {
        &self.game
    }

    /// Whether a generation runs now.
    pub fn is_running(&self) -> bool {
        self.running.is_some()
    }

    /// The command line the form stands for, parsed by the generator's
    /// own options (so the form refuses what the command line refuses).
    fn matches(&self) -> Result<(clap::ArgMatches, u64), String> {
        let seed: u64 = self
            .seed
            .trim()
            .parse()
            .map_err(|_| format!("seed `{}`: a whole number from 0", self.seed.trim()))?;
        let mut argv = vec![format!("generate {}", self.game)];
        for field in &self.fields {
            if field.switch && field.on {
                argv.push(format!("--{}", field.long));
            } else if !field.switch
                && !field.value.trim().is_empty()
                && field.value.trim() != field.default
            {
                argv.push(format!("--{}", field.long));
                argv.push(field.value.trim().to_string());
            }
        }
        let matches = clap::Command::new("generate")
            .args(self.generator.arguments())
            .try_get_matches_from(argv)
            .map_err(|e| e.to_string().lines().next().unwrap_or("").to_string())?;
        Ok((matches, seed))
    }

    /// Draws the dialog; `Some` once it ended.
    pub fn ui(&mut self, ctx: &Context) -> Option<Generation> {
        let mut ended = None;
        if let Some(job) = self.running.as_mut() {
            match job.poll() {
                Poll::Done(Ok(level)) => {
                    // Handed out: a form kept open after it is ready for
                    // another run, not a lost job.
                    self.running = None;
                    let seed = self.seed.trim().parse().unwrap_or(1);
                    ended = Some(Generation::Made {
                        game: self.game.clone(),
                        seed,
                        level,
                    });
                }
                Poll::Done(Err(e)) => {
                    self.error = Some(e.to_string());
                    self.running = None;
                }
                Poll::Lost => {
                    self.error = Some("the generator stopped unexpectedly".into());
                    self.running = None;
                }
                Poll::Running => {}
            }
        }
        let mut open = true;
        // "Generate a level: Azul" needs no article to agree with the name;
        // the id is fixed so the title does not make a new window.
        egui::Window::new(format!("Generate a level: {}", self.title))
            .id(egui::Id::unique("tessera generate dialog"))
            .collapsible(false)
            .open(&mut open)
            .show(ctx, |ui| {
                let idle = self.running.is_none();
                egui::Grid::new("generate form")
                    .num_columns(2)
                    .show(ui, |ui| {
                        for field in &mut self.fields {
                            let name = ui.label(format!("--{}", field.long));
                            ui.add_enabled_ui(idle, |ui| {
                                if field.switch && field.required {
                                    ui.add_enabled(
                                        false,
                                        egui::Checkbox::new(&mut field.on, field.help.as_str()),
                                    )
                                    .on_disabled_hover_text("Required by the generator");
                                } else if field.switch {
                                    ui.checkbox(&mut field.on, field.help.as_str());
                                } else {
                                    // Named by its option, for screen readers
                                    // and the tests that find it.
                                    ui.text_edit_singleline(&mut field.value)
                                        .labelled_by(name.id)
                                        .on_hover_text(field.help.as_str());
                                }
                            });
                            ui.end_row();
                        }
                        let name = ui.label("--seed");
                        ui.add_enabled(idle, egui::TextEdit::singleline(&mut self.seed))
                            .labelled_by(name.id);
                        ui.end_row();
                    });
                match &self.running {
                    Some(job) => {
                        // The AI's thinking line: Cancel first, where the
                        // Generate button was, so the growing note and
                        // time never move it.
                        let status = ThinkingStatus {
                            label: format!("generate {}", self.game),
                            elapsed: job.elapsed(),
                            progress: job.control().progress(),
                            note: job.control().note(),
                        };
                        if tessera_ui::thinking_line(ui, &status).clicked() {
                            job.cancel();
                        }
                        ctx.request_repaint_after(std::time::Duration::from_millis(50));
                    }
                    None => {
                        if ui.button("Generate").clicked() {
                            match self.matches() {
                                Ok((matches, seed)) => {
                                    let generator = self.generator;
                                    self.error = None;
                                    self.running = Some(Job::spawn("generate", move |control| {
                                        generator.generate(&matches, seed, control)
                                    }));
                                }
                                Err(e) => self.error = Some(e),
                            }
                        }
                    }
                }
                if let Some(error) = &self.error {
                    ui.colored_label(ui.visuals().error_fg_color, error.as_str());
                }
            });
        if !open && ended.is_none() {
            ended = Some(Generation::Closed);
        }
        ended
    }
}
