//! The editor as a program: [`run`] parses the command line, opens the
//! project and its window (eframe), and returns the exit code.
//!
//! Two environment variables serve measurements and walks:
//! `TESSERA_STATE_FILE=FILE` remembers the window in FILE instead of the
//! per-project file under `$XDG_STATE_HOME/tessera/` (a script writes one
//! naming the playtest and its seats to open a game directly), and
//! `TESSERA_FRAME_LOG=FILE` writes one line per frame (its start, its
//! length, whether an AI computes) for `tools/editor-frames.sh`.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::{EditorApp, GameUi};
use tessera_host::project::Project;

const USAGE: &str = "usage: tessera-editor [PROJECT_DIR]";

/// Lets eframe drive the editor's frame function.
struct Window(EditorApp, egui::Context);

impl eframe::App for Window {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.0.ui(ui);
    }

    fn on_exit(&mut self, _gl: Option<&eframe::glow::Context>) {
        // The last window size and tabs, even if they changed this frame.
        self.0.persist(&self.1, true);
    }
}

/// Runs the editor on the command line's project (`std::env::args`) with
/// the games of `registry` and their `games` UIs, until its window closes:
/// the whole `tessera-editor` program, for any list of games. The editor's
/// binary passes the built-in list; a crate outside this repository passes
/// its own with its games added (see `examples/`).
pub fn run(registry: tessera_host::Registry, games: Vec<GameUi>) -> ExitCode {
    let mut args = std::env::args_os().skip(1);
    let first = args.next();
    if args.next().is_some() {
        eprintln!("{USAGE}");
        return ExitCode::from(2);
    }
    let root = match first {
        Some(arg) if arg == "-h" || arg == "--help" => {
            println!("{USAGE}\n\nOpens a Tessera project (a folder with scripts/ and levels/).");
            return ExitCode::SUCCESS;
        }
        Some(arg) => PathBuf::from(arg),
        None => match std::env::current_dir() {
            Ok(dir) => Project::discover(&dir),
            Err(e) => {
                eprintln!("tessera-editor: cannot read the current folder: {e}");
                return ExitCode::from(2);
            }
        },
    };
    if !root.is_dir() {
        eprintln!(
            "tessera-editor: {} is not a folder\n{USAGE}",
            root.display()
        );
        return ExitCode::from(2);
    }
    let mut app = match EditorApp::open_with_games(&root, registry, games) {
        Ok(app) => app,
        Err(e) => {
            eprintln!("tessera-editor: {e:#}");
            return ExitCode::from(2);
        }
    };
    if let Some(path) = std::env::var_os("TESSERA_FRAME_LOG")
        && let Err(e) = app.log_frames_to(std::path::Path::new(&path))
    {
        eprintln!("tessera-editor: {e:#}");
        return ExitCode::from(2);
    }
    let state_file = match std::env::var_os("TESSERA_STATE_FILE") {
        Some(path) => Some(PathBuf::from(path)),
        None => crate::restore::default_state_file(&root),
    };
    let size = state_file
        .as_deref()
        .and_then(|path| crate::restore::Remembered::load(path).window)
        .unwrap_or([1400.0, 900.0]);
    if let Some(path) = state_file {
        app.remember_in(path);
    }
    let title = format!("Tessera — {}", app.project().root().display());
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title(title)
            .with_inner_size(size)
            .with_min_inner_size(crate::restore::MIN_WINDOW),
        // No dithering: the editor draws flat colours, where it changes
        // nothing visible, and without a GPU (Mesa's software renderer)
        // every pixel of every frame pays for its noise.
        dithering: false,
        ..Default::default()
    };
    let result = eframe::run_native(
        "tessera-editor",
        options,
        Box::new(|cc| {
            EditorApp::apply_style(&cc.egui_ctx);
            Ok(Box::new(Window(app, cc.egui_ctx.clone())))
        }),
    );
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tessera-editor: cannot open a window: {e}");
            ExitCode::FAILURE
        }
    }
}
