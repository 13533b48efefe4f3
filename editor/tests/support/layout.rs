//! The layout rig: where the docked playtest draws its buttons and boards,
//! looked at again and again across a scripted game. A widget that is
//! there at two looks must be at the same place: the window's size did not
//! change, so nothing under the designer's pointer may move.

use std::collections::BTreeMap;

use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable, by};
use tessera_editor::EditorApp;

/// The rects seen so far, by widget (its label, how many widgets had that
/// label, and its place among them: a tile that leaves a factory does not
/// make its neighbours count as moved), and every move found.
#[derive(Default)]
pub struct LayoutWatch {
    first: BTreeMap<(String, usize, usize), (egui::Rect, String)>,
    moves: Vec<String>,
    looks: usize,
    ignored: Vec<&'static str>,
}

impl LayoutWatch {
    /// A watch that leaves out widgets whose label starts with one of
    /// `prefixes`: a pile's content that reflows by the rules (the tiles
    /// gathering in Azul's centre), not a control or a board.
    pub fn ignoring(prefixes: &[&'static str]) -> Self {
        Self {
            ignored: prefixes.to_vec(),
            ..Self::default()
        }
    }

    /// Records where the playtest's buttons and boards are now; `when`
    /// names the moment in the failure message.
    pub fn look(&mut self, harness: &Harness<'_, EditorApp>, when: &str) {
        let left = harness.get_by_label("🗖 Maximise").rect().min.x - 12.0;
        let mut seen: BTreeMap<String, Vec<egui::Rect>> = BTreeMap::new();
        let widgets = by().predicate(|node| matches!(node.role(), Role::Button | Role::Image));
        for node in harness.query_all(widgets) {
            let rect = node.rect();
            let label = node.accesskit_node().label().unwrap_or_default();
            let ignored = self.ignored.iter().any(|p| label.starts_with(p));
            if rect.min.x >= left && !label.is_empty() && !ignored {
                seen.entry(label).or_default().push(rect);
            }
        }
        for (label, rects) in seen {
            let count = rects.len();
            for (index, rect) in rects.into_iter().enumerate() {
                let key = (label.clone(), count, index);
                match self.first.get(&key) {
                    None => {
                        self.first.insert(key, (rect, when.to_string()));
                    }
                    Some((was, then)) if was.min.distance(rect.min) > 1.0 => {
                        self.moves.push(format!(
                            "{label:?} #{index} moved from {:?} ({then}) to {:?} ({when})",
                            was.min, rect.min
                        ));
                    }
                    Some(_) => {}
                }
            }
        }
        self.looks += 1;
    }

    /// How many widgets were watched.
    pub fn watched(&self) -> usize {
        self.first.len()
    }

    /// Fails with every move found, naming the widget and the moments.
    pub fn assert_still(&self) {
        assert!(self.looks >= 2, "a layout test looks at least twice");
        assert!(
            self.moves.is_empty(),
            "widgets moved at an unchanged window size:\n{}",
            self.moves.join("\n")
        );
    }
}

/// Clicks the widget labelled `label` inside the docked playtest (a level
/// editor beside it may have one of the same name).
pub fn click_in_playtest(harness: &Harness<'_, EditorApp>, label: &str) {
    let left = harness.get_by_label("🗖 Maximise").rect().min.x - 12.0;
    harness
        .query_all_by_label(label)
        .find(|n| n.rect().min.x >= left)
        .unwrap_or_else(|| panic!("no {label:?} in the playtest"))
        .click();
}

/// Fails naming every widget of the docked playtest (a button, a board, a
/// label, a check box, a slider and its value, a picker) that reaches past
/// the window's right edge: clipped, only a sideways scroll would show it.
/// The window is `width` wide.
pub fn assert_inside_the_window(harness: &Harness<'_, EditorApp>, width: f32) {
    let left = harness.get_by_label("🗖 Maximise").rect().min.x - 12.0;
    let widgets = by().predicate(|node| {
        matches!(
            node.role(),
            Role::Button
                | Role::Image
                | Role::Label
                | Role::CheckBox
                | Role::Slider
                | Role::SpinButton
                | Role::ComboBox
        )
    });
    let outside: Vec<String> = harness
        .query_all(widgets)
        .filter(|node| node.rect().min.x >= left && node.rect().max.x > width + 0.5)
        .map(|node| {
            format!(
                "{:?} {:?} at {:?}",
                node.accesskit_node().role(),
                node.accesskit_node().label().unwrap_or_default(),
                node.rect()
            )
        })
        .collect();
    assert!(
        outside.is_empty(),
        "past the window's edge ({width} px):\n{}",
        outside.join("\n")
    );
}
