//! The game in progress across a restart: its recorded session (seed,
//! options, every step) is kept beside the window's state file and played
//! back through the host's replay path when the editor opens, so the
//! designer finds the same table, turn and AI levels. A saved game that no
//! longer plays (the script or level changed under it, the file is broken)
//! is dropped with a console line and a fresh game starts instead.

use std::path::{Path, PathBuf};

use tessera_host::level::write_atomic;
use tessera_host::registry::ReplaySetup;
use tessera_host::replay::{LevelChoice, ScriptChoice};

use crate::playtest::PlaytestContext;
use crate::playtest_area::PlaytestTarget;

use super::EditorApp;

/// Where the game in progress of the window remembered in `state_file` is
/// kept: the same folder and name, `.game.replay.ron`.
pub fn game_file(state_file: &Path) -> PathBuf {
    state_file.with_extension("game.replay.ron")
}

impl EditorApp {
    /// Writes the running game's record beside the state file when it
    /// changed, or removes it when no game runs.
    pub(super) fn persist_game(&mut self) {
        let Some(state_file) = &self.state_file else {
            return;
        };
        let path = game_file(state_file);
        let record = match self.playtest.session().map(|s| s.replay_ron()) {
            None => None,
            Some(Ok(text)) => Some(text),
            // A record that cannot be written as RON is not kept; the
            // tabs and the level still come back.
            Some(Err(_)) => None,
        };
        if record == self.written_game {
            return;
        }
        let result = match &record {
            Some(text) => write_atomic(&path, text.as_bytes()).map_err(anyhow::Error::from),
            None => match std::fs::remove_file(&path) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e.into()),
                _ => Ok(()),
            },
        };
        match result {
            Ok(()) => self.written_game = record,
            Err(e) => {
                // Reported once: the game is not remembered from now on.
                self.console.error(format!(
                    "error cannot remember the game in progress in {}: {e:#}",
                    path.display()
                ));
                self.state_file = None;
            }
        }
    }

    /// Starts the last playtest again: the saved game where it was, else
    /// a fresh game on its level (`target`).
    pub(super) fn resume_game(&mut self, target: PlaytestTarget, state_file: &Path) {
        let path = game_file(state_file);
        if !path.is_file() {
            self.start_target(target);
            return;
        }
        match self.reopen_game(&path, &target) {
            Ok(steps) => {
                self.written_game = self.playtest.session().and_then(|s| s.replay_ron().ok());
                self.console
                    .info(format!("resumed the game in progress ({steps})"));
            }
            Err(why) => {
                self.console.info(format!(
                    "dropped the saved game in progress ({why}); a new game starts"
                ));
                let _ = std::fs::remove_file(&path);
                self.start_target(target);
            }
        }
    }

    /// Plays the saved record back with the project's current script and
    /// the level the game was recorded on; says how far it got.
    fn reopen_game(&mut self, path: &Path, target: &PlaytestTarget) -> Result<String, String> {
        let setup = ReplaySetup {
            script: ScriptChoice::Current,
            level: LevelChoice::Recorded,
            stop_after: None,
        };
        let run = self
            .project
            .replay(path, &setup)
            .map_err(|e| e.to_string())?;
        if run.session.game_id() != target.game {
            return Err(format!(
                "it is a {} game, the last playtest was {}",
                run.session.game_id(),
                target.game
            ));
        }
        let seed = run.session.seed();
        let steps = run.session.step_count();
        let mut cx = PlaytestContext {
            project: &mut self.project,
            console: &mut Vec::new(),
        };
        let view = crate::playtest_area::open_view(&self.games, &mut cx, run.session)
            .map_err(|e| format!("{e:#}"))?;
        self.playtest.show(target.clone(), seed, view);
        Ok(format!(
            "{}, seed {seed}",
            tessera_ui::text::count(steps, "step")
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_game_file_sits_beside_the_state_file() {
        assert_eq!(
            game_file(Path::new("/state/tessera/proj-0123.ron")),
            Path::new("/state/tessera/proj-0123.game.replay.ron")
        );
    }
}
