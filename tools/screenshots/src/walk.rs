//! The editor headless, walked as a person walks it: widgets found by
//! their accessible names (the accessibility tree egui builds each frame),
//! keys and typed text, never a screen position written down. Every
//! lookup that finds nothing, or more than one widget, is an error that
//! names what was looked for, so a picture is never taken of a walk that
//! went astray.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Context as _, bail};
use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use tessera_editor::EditorApp;

/// The pictures' window: the size the README's pictures have always had.
pub const WINDOW: egui::Vec2 = egui::vec2(1280.0, 800.0);

/// Game time per frame: the views animate on egui's clock, so a walk's
/// seconds are frames times this, the same on a loaded machine as on an
/// idle one.
const FRAME: f32 = 1.0 / 20.0;

/// How long a walk waits for a worker (the replay suite, an AI, a hint)
/// in wall-clock time before it gives up.
pub const PATIENCE: Duration = Duration::from_secs(60);

/// The editor on one project, with its frames rendered on the CPU.
pub struct Walk {
    harness: Harness<'static, EditorApp>,
    root: PathBuf,
}

impl Walk {
    /// The editor opened on `root`, as `tessera-editor ROOT` opens it (the
    /// editor's style, no remembered window state), a few frames in.
    pub fn open(root: &Path) -> anyhow::Result<Self> {
        let app = EditorApp::open(root)?;
        let harness = Harness::builder()
            .with_size(WINDOW)
            .with_step_dt(FRAME)
            .with_context_setup(EditorApp::apply_style)
            .with_render_cursor(false)
            .wgpu()
            .build_ui_state(|ui, app: &mut EditorApp| app.ui(ui), app);
        let mut walk = Self {
            harness,
            root: root.to_path_buf(),
        };
        walk.frames(5);
        Ok(walk)
    }

    /// The project folder.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The editor itself (to read what it holds, never to change it).
    pub fn app(&self) -> &EditorApp {
        self.harness.state()
    }

    /// Runs `n` frames.
    pub fn frames(&mut self, n: usize) {
        for _ in 0..n {
            self.harness.step();
        }
    }

    /// Runs frames for `seconds` of the editor's time.
    pub fn play(&mut self, seconds: f32) {
        self.frames((seconds / FRAME).ceil() as usize);
    }

    /// Every accessible name in the window (what the lookups search), in
    /// tree order: printed when a lookup fails.
    pub fn labels(&self) -> Vec<String> {
        self.harness
            .root()
            .query_all(egui_kittest::kittest::By::new())
            .filter_map(|node| {
                // A plain label keeps its text as its value (as kittest
                // reads it).
                let node = node.accesskit_node();
                if node.role() == egui::accesskit::Role::Label {
                    node.value()
                } else {
                    node.label()
                }
            })
            .filter(|label| !label.is_empty())
            .collect()
    }

    fn missing(&self, what: &str) -> anyhow::Error {
        anyhow::anyhow!(
            "{what}; the window's labels were:\n  {}",
            self.labels().join("\n  ")
        )
    }

    /// Whether a widget is named exactly `label`.
    pub fn has(&self, label: &str) -> bool {
        self.harness.query_all_by_label(label).next().is_some()
    }

    /// The names of the widgets whose name contains `part`.
    pub fn named_containing(&self, part: &str) -> Vec<String> {
        self.labels()
            .into_iter()
            .filter(|label| label.contains(part))
            .collect()
    }

    /// Fails unless a widget is named exactly `label` (the state a
    /// caption claims).
    pub fn expect(&self, label: &str) -> anyhow::Result<()> {
        if self.has(label) {
            Ok(())
        } else {
            Err(self.missing(&format!("expected a widget named {label:?}")))
        }
    }

    /// Clicks the one widget named exactly `label`.
    pub fn click(&mut self, label: &str) -> anyhow::Result<()> {
        let count = self.harness.query_all_by_label(label).count();
        if count != 1 {
            return Err(self.missing(&format!("{count} widgets named {label:?}, not one")));
        }
        self.harness.get_by_label(label).click();
        self.frames(3);
        Ok(())
    }

    /// Clicks the one widget named exactly `label` through the
    /// accessibility tree (as a screen reader does), for a widget scrolled
    /// out of the window.
    pub fn activate(&mut self, label: &str) -> anyhow::Result<()> {
        self.rect_of(label)?;
        self.harness.get_by_label(label).click_accesskit();
        self.frames(3);
        Ok(())
    }

    /// Clicks the one widget whose name contains `part`.
    pub fn click_containing(&mut self, part: &str) -> anyhow::Result<()> {
        let count = self.harness.query_all_by_label_contains(part).count();
        if count != 1 {
            return Err(self.missing(&format!("{count} widgets named with {part:?}, not one")));
        }
        self.harness.get_by_label_contains(part).click();
        self.frames(3);
        Ok(())
    }

    /// The screen rectangle of the one widget named `label` (a board,
    /// whose cells a walk then clicks by their row and column).
    pub fn rect_of(&self, label: &str) -> anyhow::Result<egui::Rect> {
        match self.harness.query_all_by_label(label).count() {
            1 => Ok(self.harness.get_by_label(label).rect()),
            n => Err(self.missing(&format!("{n} widgets named {label:?}, not one"))),
        }
    }

    /// Sets the number in the one field named `label` (a drag value), as a
    /// screen reader sets it.
    pub fn set_number(&mut self, label: &str, value: f64) -> anyhow::Result<()> {
        self.rect_of(label)?;
        self.harness.get_by_label(label).set_value_accesskit(value);
        self.frames(3);
        Ok(())
    }

    /// Replaces the text of the one field named `label` with `text`, typed.
    pub fn retype(&mut self, label: &str, text: &str) -> anyhow::Result<()> {
        self.rect_of(label)?;
        self.harness.get_by_label(label).focus();
        self.frames(2);
        self.chord(Modifiers::COMMAND, Key::A);
        self.type_text(text);
        Ok(())
    }

    /// Replaces the whole text of the code editor on screen (a level's RON
    /// text tab, a script) with `text`, typed over a Ctrl+A.
    pub fn retype_code(&mut self, text: &str) -> anyhow::Result<()> {
        let role = egui::accesskit::Role::MultilineTextInput;
        let count = self.harness.query_all_by_role(role).count();
        if count != 1 {
            return Err(self.missing(&format!("{count} code editors on screen, not one")));
        }
        self.harness.get_by_role(role).focus();
        self.frames(2);
        self.chord(Modifiers::COMMAND, Key::A);
        self.type_text(text);
        Ok(())
    }

    /// A click at `pos` (a cell of a board found by its name).
    pub fn click_at(&mut self, pos: egui::Pos2) {
        use egui::{Event, PointerButton};
        for pressed in [true, false] {
            self.harness.event(Event::PointerButton {
                pos,
                button: PointerButton::Primary,
                pressed,
                modifiers: Modifiers::NONE,
            });
            self.frames(1);
        }
        self.frames(2);
    }

    /// A drag from `from` to `to` (a stroke of a brush).
    pub fn drag(&mut self, from: egui::Pos2, to: egui::Pos2) {
        use egui::{Event, PointerButton};
        let press = |pos, pressed| Event::PointerButton {
            pos,
            button: PointerButton::Primary,
            pressed,
            modifiers: Modifiers::NONE,
        };
        self.harness.event(Event::PointerMoved(from));
        self.harness.event(press(from, true));
        self.frames(2);
        for i in 1..=8 {
            self.harness
                .event(Event::PointerMoved(from + (to - from) * (i as f32 / 8.0)));
            self.frames(1);
        }
        self.harness.event(press(to, false));
        self.frames(3);
    }

    /// Presses `key`.
    pub fn key(&mut self, key: Key) {
        self.harness.key_press(key);
        self.frames(2);
    }

    /// Presses `key` `times` times.
    pub fn keys(&mut self, key: Key, times: usize) {
        for _ in 0..times {
            self.harness.key_press(key);
            self.frames(1);
        }
        self.frames(1);
    }

    /// Presses `key` with `modifiers` held.
    pub fn chord(&mut self, modifiers: Modifiers, key: Key) {
        self.harness.key_press_modifiers(modifiers, key);
        self.frames(2);
    }

    /// Types `text` into the widget that has the keyboard.
    pub fn type_text(&mut self, text: &str) {
        self.harness.event(egui::Event::Text(text.to_string()));
        self.frames(2);
    }

    /// Runs frames until `done` holds; fails naming `what` after
    /// [`PATIENCE`] of wall-clock time.
    pub fn wait_for(&mut self, what: &str, done: impl Fn(&Self) -> bool) -> anyhow::Result<()> {
        eprintln!("  waiting for {what}");
        let deadline = Instant::now() + PATIENCE;
        while !done(self) {
            if Instant::now() > deadline {
                return Err(self.missing(&format!("gave up waiting for {what}")));
            }
            self.harness.step();
            std::thread::sleep(Duration::from_millis(2));
        }
        Ok(())
    }

    /// Runs frames until a widget is named exactly `label`.
    pub fn wait_for_label(&mut self, label: &str) -> anyhow::Result<()> {
        self.wait_for(&format!("a widget named {label:?}"), |w| w.has(label))
    }

    /// The console's lines, oldest first.
    pub fn console(&self) -> Vec<String> {
        self.app()
            .console()
            .lines()
            .iter()
            .map(|line| line.text.clone())
            .collect()
    }

    /// Fails unless a console line contains `text`.
    pub fn expect_console(&self, text: &str) -> anyhow::Result<()> {
        let lines = self.console();
        if lines.iter().any(|line| line.contains(text)) {
            return Ok(());
        }
        bail!(
            "no console line contains {text:?}; the console:\n  {}",
            lines.join("\n  ")
        )
    }

    /// The text of the tab in front.
    pub fn active_text(&self) -> anyhow::Result<String> {
        Ok(self
            .app()
            .active_document()
            .context("no file is open")?
            .text()
            .to_string())
    }

    /// The project path of the tab in front (`levels/sand/cascade.ron`).
    pub fn active_path(&self) -> anyhow::Result<String> {
        let document = self.app().active_document().context("no file is open")?;
        Ok(document.display_path().display().to_string())
    }

    /// Opens `name` as a person does: Ctrl+P, the name, Enter; fails
    /// unless the tab in front is then `expected` (a project path).
    pub fn quick_open(&mut self, name: &str, expected: &str) -> anyhow::Result<()> {
        self.chord(Modifiers::COMMAND, Key::P);
        self.type_text(name);
        self.key(Key::Enter);
        self.frames(3);
        let shown = self.active_path()?;
        if shown != expected {
            bail!("Ctrl+P {name:?} opened {shown}, not {expected}");
        }
        Ok(())
    }

    /// Renders the window as it is now (no pointer over it, so nothing is
    /// hovered) and writes it to `path` as a PNG.
    pub fn shoot(&mut self, path: &Path) -> anyhow::Result<()> {
        self.harness.remove_cursor();
        self.frames(3);
        // No picture names the temporary home: the project shows as
        // `~/my-puzzles` wherever the editor writes it.
        if let Some(home) = std::env::var_os("HOME") {
            let home = home.to_string_lossy().into_owned();
            let shown: Vec<String> = self
                .labels()
                .into_iter()
                .filter(|label| label.contains(&home))
                .collect();
            if !shown.is_empty() {
                bail!("the window shows the temporary folder {home}: {shown:?}");
            }
        }
        let image = self
            .harness
            .render()
            .map_err(|e| anyhow::anyhow!("cannot render the window: {e}"))?;
        crate::png::write(&image, path)?;
        println!("{}", path.display());
        Ok(())
    }
}
