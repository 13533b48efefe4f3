//! Starting games: what F5 plays, playtests of a level's unsaved buffer
//! (or saving it first), restarts, and replays opened from the Tests panel.

use std::path::{Path, PathBuf};

use anyhow::Context as _;
use tessera_host::level::write_atomic;
use tessera_host::registry::ReplaySetup;

use crate::document::DocumentKind;
use crate::playtest::PlaytestContext;
use crate::playtest_area::{PlaytestArea, PlaytestTarget};
use crate::tests_panel::TestsPanel;

use super::EditorApp;

impl EditorApp {
    /// What F5 would start: the active file's game on that level (or its
    /// default level for a script).
    pub fn playtest_target(&self) -> Option<PlaytestTarget> {
        let document = self.active_document()?;
        let game = document.game(self.project.registry())?;
        let level = (document.kind() == DocumentKind::Level).then(|| document.path().to_path_buf());
        Some(PlaytestTarget { game, level })
    }

    /// Mutable form of [`EditorApp::playtest`] (tests choose seats there).
    pub fn playtest_mut(&mut self) -> &mut PlaytestArea {
        &mut self.playtest
    }

    /// The Tests panel.
    pub fn tests(&self) -> &TestsPanel {
        &self.tests
    }

    /// Mutable form of [`EditorApp::tests`] (tests drive it directly).
    pub fn tests_mut(&mut self) -> &mut TestsPanel {
        &mut self.tests
    }

    /// Shows the Tests panel and runs the suite.
    pub fn run_tests(&mut self) {
        self.tests.open = true;
        if !self.tests.is_running() {
            self.tests.run_all(&self.project);
        }
    }

    /// Replays a test in the playtest view, stopped after `steps` steps,
    /// with the project's current script (live: edits apply as they are
    /// saved) and level.
    pub fn open_replay(&mut self, path: &Path, steps: Option<usize>) {
        let setup = ReplaySetup {
            stop_after: steps,
            ..ReplaySetup::default()
        };
        let display = self.project.display_path(path);
        let run = match self.project.replay(path, &setup) {
            Ok(run) => run,
            Err(e) => {
                self.console
                    .error(format!("cannot open {}: {e}", display.display()));
                return;
            }
        };
        let game = run.session.game_id().to_string();
        let seed = run.session.seed();
        let level = run
            .session
            .level_path()
            .map(|l| self.project.root().join(l));
        let mut cx = PlaytestContext {
            project: &mut self.project,
            console: &mut Vec::new(),
        };
        match crate::playtest_area::open_view(&self.games, &mut cx, run.session) {
            Ok(view) => {
                let at = steps.map_or("the end".to_string(), |s| format!("step {s}"));
                self.console.info(format!(
                    "opened {} at {at} ({})",
                    display.display(),
                    run.notes.join("; ")
                ));
                self.playtest
                    .show(PlaytestTarget { game, level }, seed, view);
            }
            Err(e) => self
                .console
                .error(format!("cannot open {}: {e:#}", display.display())),
        }
    }

    /// Starts a playtest of the active file's game (or restarts the last).
    pub fn start_playtest(&mut self) {
        let Some(target) = self
            .playtest_target()
            .or_else(|| self.playtest.running().cloned())
        else {
            self.console
                .info("open a level or a game script to playtest it");
            return;
        };
        self.start_target(target);
    }

    /// Starts the running game again on its level file as saved now.
    pub fn restart_playtest(&mut self) {
        let Some(running) = self.playtest.running().cloned() else {
            return;
        };
        let level = self.playtest.running_level_file().map(Path::to_path_buf);
        self.start_target(PlaytestTarget { level, ..running });
    }

    /// Whether F5 saves a level with unsaved edits first (otherwise it
    /// plays the buffer as it is).
    pub fn save_before_playtest(&self) -> bool {
        self.save_before_playtest
    }

    /// Chooses what F5 does with unsaved level edits (remembered).
    pub fn set_save_before_playtest(&mut self, save: bool) {
        self.save_before_playtest = save;
    }

    /// Writes the unsaved buffer of the level at `index` to a scratch file
    /// the game can load, named like the level.
    pub(super) fn scratch_copy(&mut self, index: usize) -> anyhow::Result<PathBuf> {
        let document = &self.documents[index];
        let text = document.text_to_save()?;
        if self.scratch.is_none() {
            self.scratch = Some(
                tempfile::Builder::new()
                    .prefix("tessera-playtest-")
                    .tempdir()
                    .context("cannot make a folder for the unsaved level")?,
            );
        }
        let folder = self.scratch.as_ref().map(|d| d.path().to_path_buf());
        let name = document
            .path()
            .file_name()
            .map(|n| n.to_os_string())
            .unwrap_or_else(|| "level.ron".into());
        let path = folder.unwrap_or_default().join(name);
        write_atomic(&path, text.as_bytes())
            .with_context(|| format!("cannot write {}", path.display()))?;
        Ok(path)
    }

    pub(super) fn start_target(&mut self, mut target: PlaytestTarget) {
        let mut buffer_of = None;
        if let Some(level) = target.level.clone()
            && let Some(index) = self.document_index(&level)
            && self.documents[index].is_dirty()
        {
            if self.save_before_playtest {
                if !self.save_document(index) {
                    return;
                }
            } else {
                match self.scratch_copy(index) {
                    Ok(copy) => {
                        target.level = Some(copy);
                        buffer_of = Some(level);
                    }
                    Err(e) => {
                        self.console.error(format!("error {e:#}"));
                        return;
                    }
                }
            }
        }
        self.playtest.set_buffer_of(buffer_of);
        let script = self.project.game_script_path(&target.game);
        let mut cx = PlaytestContext {
            project: &mut self.project,
            console: self.console.buffer_mut(),
        };
        self.playtest.start(target, &self.games, &mut cx);
        // The game now holds the script's live slot; follow its prints.
        if !self.live_scripts.contains(&script) && script.is_file() {
            self.load_script(&script);
        }
    }
}
