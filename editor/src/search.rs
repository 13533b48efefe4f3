//! Quick open (Ctrl+P: files by name) and find in project (Ctrl+Shift+F:
//! lines containing a text), both listing clickable `file:line` results.

use std::path::{Path, PathBuf};

use egui::{Id, Key, Modal, RichText};

/// Most results listed (the rest are counted).
const MAX_RESULTS: usize = 200;

/// What the search box looks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SearchKind {
    /// Files whose project path contains every typed character in order.
    QuickOpen,
    /// Lines containing the typed text (case-insensitive).
    FindInProject,
}

/// One hit: a file and, for text hits, the 1-based line and its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hit {
    /// The file (absolute).
    pub path: PathBuf,
    /// The file relative to the project, as shown.
    pub shown: String,
    /// 1-based line, for text hits.
    pub line: Option<u32>,
    /// The matching line's text, trimmed.
    pub text: String,
}

impl Hit {
    /// `file:line: text` (or the file alone), as listed.
    pub fn label(&self) -> String {
        match self.line {
            Some(line) => format!("{}:{line}: {}", self.shown, self.text),
            None => self.shown.clone(),
        }
    }
}

/// The open search box.
#[derive(Debug, Clone)]
pub struct Search {
    kind: SearchKind,
    query: String,
    focus: bool,
}

impl Search {
    /// A new, empty search of `kind`.
    pub fn new(kind: SearchKind) -> Self {
        Self {
            kind,
            query: String::new(),
            focus: true,
        }
    }

    /// What it looks for.
    pub fn kind(&self) -> SearchKind {
        self.kind
    }

    /// Draws the box over `files` (absolute, with their shown names).
    /// Returns `Some(Some(hit))` when a result was chosen, `Some(None)` when
    /// closed, `None` while open.
    pub fn ui(&mut self, ctx: &egui::Context, files: &[(PathBuf, String)]) -> Option<Option<Hit>> {
        let mut outcome = None;
        Modal::new(Id::unique("tessera search")).show(ctx, |ui| {
            ui.set_width(560.0);
            let title = match self.kind {
                SearchKind::QuickOpen => "Go to file",
                SearchKind::FindInProject => "Find in project",
            };
            let heading = ui.strong(title);
            let field = ui.add(
                egui::TextEdit::singleline(&mut self.query)
                    .hint_text(match self.kind {
                        SearchKind::QuickOpen => "file name",
                        SearchKind::FindInProject => "text to find",
                    })
                    .desired_width(f32::INFINITY),
            );
            let field = field.labelled_by(heading.id);
            if std::mem::take(&mut self.focus) {
                field.request_focus();
            }
            let hits = match self.kind {
                SearchKind::QuickOpen => quick_open(files, &self.query),
                SearchKind::FindInProject => find_in_files(files, &self.query),
            };
            if ui.input(|i| i.key_pressed(Key::Escape)) {
                outcome = Some(None);
            }
            if ui.input(|i| i.key_pressed(Key::Enter))
                && let Some(first) = hits.first()
            {
                outcome = Some(Some(first.clone()));
            }
            if !self.query.is_empty() {
                ui.weak(match hits.len() {
                    0 => "no results".to_string(),
                    n if n >= MAX_RESULTS => format!("first {MAX_RESULTS} results"),
                    n => tessera_ui::text::count(n, "result"),
                });
            }
            egui::ScrollArea::vertical()
                .max_height(360.0)
                .show(ui, |ui| {
                    for hit in &hits {
                        if ui
                            .selectable_label(false, RichText::new(hit.label()).monospace())
                            .clicked()
                        {
                            outcome = Some(Some(hit.clone()));
                        }
                    }
                });
            if ui.button("Close").clicked() {
                outcome = Some(None);
            }
        });
        outcome
    }
}

/// Files whose shown path contains the query's characters in order
/// (case-insensitive), tightest matches first.
pub fn quick_open(files: &[(PathBuf, String)], query: &str) -> Vec<Hit> {
    let query: Vec<char> = query
        .to_lowercase()
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    let mut scored: Vec<(usize, &PathBuf, &String)> = files
        .iter()
        .filter_map(|(path, shown)| {
            let lower = shown.to_lowercase();
            let mut chars = lower.char_indices();
            let mut first = None;
            let mut last = 0;
            for q in &query {
                let (i, _) = chars.by_ref().find(|(_, c)| c == q)?;
                first.get_or_insert(i);
                last = i;
            }
            // The span the match covers: shorter is better.
            Some((last - first.unwrap_or(0), path, shown))
        })
        .collect();
    scored.sort_by(|a, b| a.0.cmp(&b.0).then(a.2.cmp(b.2)));
    scored
        .into_iter()
        .take(MAX_RESULTS)
        .map(|(_, path, shown)| Hit {
            path: path.clone(),
            shown: shown.clone(),
            line: None,
            text: String::new(),
        })
        .collect()
}

/// Lines of `files` containing `query` (case-insensitive).
pub fn find_in_files(files: &[(PathBuf, String)], query: &str) -> Vec<Hit> {
    let query = query.to_lowercase();
    if query.trim().is_empty() {
        return Vec::new();
    }
    let mut hits = Vec::new();
    for (path, shown) in files {
        let Ok(text) = tessera_host::level::read_text(path) else {
            continue;
        };
        for (i, line) in text.lines().enumerate() {
            if line.to_lowercase().contains(&query) {
                hits.push(Hit {
                    path: path.clone(),
                    shown: shown.clone(),
                    line: Some(i as u32 + 1),
                    text: line.trim().chars().take(120).collect(),
                });
                if hits.len() >= MAX_RESULTS {
                    return hits;
                }
            }
        }
    }
    hits
}

/// Shown name of `path` under `root`.
pub fn shown(root: &Path, path: &Path) -> String {
    path.strip_prefix(root)
        .unwrap_or(path)
        .display()
        .to_string()
}
