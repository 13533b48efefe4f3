//! What the editor remembers between runs, per project: window size,
//! panel sizes, open tabs, the last playtest and the F5 choice. Kept in a
//! small RON file outside the project (`$XDG_STATE_HOME/tessera/`), written
//! atomically whenever it changes.

use std::path::{Path, PathBuf};

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use tessera_host::SessionOptions;
use tessera_host::level::write_atomic;

/// The largest window or panel size the state file may ask for, in points.
pub const MAX_SIZE: f32 = 16_384.0;

/// The smallest editor window, in points.
pub const MIN_WINDOW: [f32; 2] = [800.0, 500.0];

/// The remembered state of one project's editor window.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Remembered {
    /// Inner window size in points.
    pub window: Option<[f32; 2]>,
    /// Width of the project tree.
    pub tree_width: f32,
    /// Width of the playtest panel.
    pub playtest_width: f32,
    /// Height of the console.
    pub console_height: f32,
    /// Whether the playtest takes the whole window.
    pub playtest_maximised: bool,
    /// Whether the playtest is in a window of its own.
    pub playtest_popped_out: bool,
    /// Open files, relative to the project, in tab order.
    pub tabs: Vec<PathBuf>,
    /// The shown tab.
    pub active: Option<usize>,
    /// The last playtest: game and level (relative to the project).
    pub playtest: Option<(String, Option<PathBuf>)>,
    /// F5 with unsaved level edits saves first.
    pub save_before_playtest: bool,
    /// The playtest toolbar's choices per game (mode, each seat's AI
    /// level) for the next game.
    pub playtest_options: BTreeMap<String, SessionOptions>,
}

impl Default for Remembered {
    fn default() -> Self {
        Self {
            window: None,
            tree_width: 230.0,
            playtest_width: 440.0,
            console_height: 200.0,
            playtest_maximised: false,
            playtest_popped_out: false,
            tabs: Vec::new(),
            active: None,
            playtest: None,
            save_before_playtest: false,
            playtest_options: BTreeMap::new(),
        }
    }
}

impl Remembered {
    /// Reads the file; a missing or unreadable one is the default (a bad
    /// state file must never stop the editor from opening).
    pub fn load(path: &Path) -> Self {
        tessera_host::level::read_text(path)
            .ok()
            .and_then(|text| ron::from_str::<Self>(&text).ok())
            .unwrap_or_default()
            .sanitized()
    }

    /// The state with every size a number the window can use: a panel size
    /// that is not finite, not positive or above [`MAX_SIZE`] is the
    /// default's, and the window is clamped to [`MAX_SIZE`]. The panels clamp these again to the current window
    /// (a layout saved on a larger screen), so the file is only the wish.
    fn sanitized(mut self) -> Self {
        let default = Self::default();
        let size = |value: f32, default: f32| {
            if value.is_finite() && value > 0.0 && value <= MAX_SIZE {
                value
            } else {
                default
            }
        };
        self.tree_width = size(self.tree_width, default.tree_width);
        self.playtest_width = size(self.playtest_width, default.playtest_width);
        self.console_height = size(self.console_height, default.console_height);
        self.window = self
            .window
            .filter(|w| w.iter().all(|v| v.is_finite() && *v > 0.0))
            .map(|[w, h]| {
                [
                    w.clamp(MIN_WINDOW[0], MAX_SIZE),
                    h.clamp(MIN_WINDOW[1], MAX_SIZE),
                ]
            });
        self
    }

    /// Writes the file atomically.
    pub fn save(&self, path: &Path) -> anyhow::Result<()> {
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        let text = ron::ser::to_string_pretty(self, ron::ser::PrettyConfig::default())?;
        write_atomic(path, text.as_bytes())?;
        Ok(())
    }
}

/// Where the state of the project at `root` is kept: one file per project
/// folder under `$XDG_STATE_HOME/tessera` (or `~/.local/state/tessera`).
pub fn default_state_file(root: &Path) -> Option<PathBuf> {
    use std::hash::{Hash, Hasher};
    let base = std::env::var_os("XDG_STATE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/state")))?;
    let root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    let mut hasher = std::hash::DefaultHasher::new();
    root.hash(&mut hasher);
    let name = root
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "project".into());
    Some(
        base.join("tessera")
            .join(format!("{name}-{:016x}.ron", hasher.finish())),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn state_round_trips_and_a_broken_file_is_the_default() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state/editor.ron");
        let state = Remembered {
            window: Some([1200.0, 800.0]),
            tabs: vec![PathBuf::from("scripts/sand.lua")],
            active: Some(0),
            playtest: Some(("sand".into(), None)),
            ..Remembered::default()
        };
        state.save(&path).unwrap();
        assert_eq!(Remembered::load(&path), state);
        std::fs::write(&path, "(window: oops").unwrap();
        assert_eq!(Remembered::load(&path), Remembered::default());
    }

    /// A state file as another editor saves it (a byte-order mark and
    /// CRLF, or UTF-16) reads as the same state, through the host's reader.
    #[test]
    fn a_state_file_saved_by_another_editor_reads_the_same() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("editor.ron");
        let state = Remembered {
            window: Some([1200.0, 800.0]),
            tabs: vec![PathBuf::from("scripts/sand.lua")],
            ..Remembered::default()
        };
        state.save(&path).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains('\n'), "the saved state spans lines");
        let bom_crlf = [
            b"\xEF\xBB\xBF".as_slice(),
            text.replace('\n', "\r\n").as_bytes(),
        ]
        .concat();
        std::fs::write(&path, bom_crlf).unwrap();
        assert_eq!(Remembered::load(&path), state, "BOM and CRLF");
        let utf16: Vec<u8> = [0xFF, 0xFE]
            .into_iter()
            .chain(text.encode_utf16().flat_map(u16::to_le_bytes))
            .collect();
        std::fs::write(&path, utf16).unwrap();
        assert_eq!(Remembered::load(&path), state, "UTF-16");
    }
}
