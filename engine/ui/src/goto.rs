//! "Open this file at this line": a game's UI shows a finding that names
//! `file:line` (a level editor's validation), and a click on it asks the
//! shell to open that file at that line, as a click on a console error
//! does. The request travels through egui's memory, so a game's UI needs
//! no handle on the shell, and the shell takes it once per frame.

use std::path::{Path, PathBuf};

use egui::{CursorIcon, Id, RichText, Sense};
use tessera_host::level::Diagnostic;

fn request_key() -> Id {
    Id::unique("tessera open file at line")
}

/// A file and a 1-based line to show (paths as the finding names them:
/// relative to the project, or absolute).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpenAt {
    /// The file.
    pub path: PathBuf,
    /// The 1-based line.
    pub line: u32,
}

/// Asks the shell to open `path` at `line` (after this frame).
pub fn request_open_at(ctx: &egui::Context, path: &Path, line: u32) {
    let request = OpenAt {
        path: path.to_path_buf(),
        line,
    };
    ctx.data_mut(|d| d.insert_temp(request_key(), request));
}

/// The file a game's UI asked to open this frame, taken (the shell calls
/// it once per frame, after drawing the games' UIs).
pub fn take_open_request(ctx: &egui::Context) -> Option<OpenAt> {
    let request = ctx.data(|d| d.get_temp::<OpenAt>(request_key()))?;
    ctx.data_mut(|d| d.remove::<OpenAt>(request_key()));
    Some(request)
}

/// A finding as one line in `colour`; when it names a line it is a link,
/// like a console error's: a click opens the file at that line.
pub fn finding_label(ui: &mut egui::Ui, finding: &Diagnostic, colour: egui::Color32) {
    let text = RichText::new(finding.to_string()).color(colour);
    let Some(line) = finding.line else {
        ui.label(text);
        return;
    };
    let response = ui
        .add(egui::Label::new(text).sense(Sense::click()))
        .on_hover_cursor(CursorIcon::PointingHand)
        .on_hover_text(format!("Open {} at line {line}", finding.path.display()));
    if response.hovered() {
        ui.painter().hline(
            response.rect.x_range(),
            response.rect.bottom(),
            (1.0, colour),
        );
    }
    if response.clicked() {
        request_open_at(ui.ctx(), &finding.path, line);
    }
}
