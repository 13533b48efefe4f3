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
        // The one rig's look (testkit's layout sweep), kept to the
        // playtest's buttons and boards.
        let mut seen: BTreeMap<String, Vec<egui::Rect>> = BTreeMap::new();
        let layout = tessera_ui_testkit::Layout::of(harness, playtest_area(harness));
        for widget in layout.widgets() {
            let ignored = self.ignored.iter().any(|p| widget.name.starts_with(p));
            if matches!(widget.role, Role::Button | Role::Image) && !ignored {
                seen.entry(widget.name.clone())
                    .or_default()
                    .push(widget.rect);
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

/// The docked playtest's part of the window: right of its Maximise
/// button's panel edge, down to the window's bottom.
pub fn playtest_area(harness: &Harness<'_, EditorApp>) -> egui::Rect {
    let left = harness.get_by_label("🗖 Maximise").rect().min.x - 12.0;
    egui::Rect::from_min_max(
        egui::pos2(left, 0.0),
        egui::pos2(f32::INFINITY, f32::INFINITY),
    )
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

/// [`click_in_playtest`], then three frames for the view to settle.
pub fn click_in_playtest_and_settle(harness: &mut Harness<'_, EditorApp>, label: &str) {
    click_in_playtest(harness, label);
    harness.run_steps(3);
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
