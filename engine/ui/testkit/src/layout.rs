//! The layout sweep: where every widget the accessibility tree names is,
//! looked at before and after a state change (a pick, a save, a game
//! over). The window's size did not change, so a widget that is there at
//! both looks must be at the same place and of the same size, and inside
//! the window: a designer's pointer rests on a cell or a button while the
//! game changes, and a board that drops a few pixels under it makes the
//! next click land on the wrong cell.
//!
//! Only slots declared to grow (a status line, a message) may change; they
//! are named by the start of their label, explicitly, in each test.

use std::collections::{BTreeMap, BTreeSet};

use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable, by};

/// One widget seen at one look: its role, its label (or value, for a
/// field), and its rect.
#[derive(Debug, Clone)]
pub struct Placed {
    /// The accessibility role (`Button`, `Label`, `Image`...).
    pub role: Role,
    /// The label, or the value for widgets named by what they hold.
    pub name: String,
    /// Where it was drawn, in window points.
    pub rect: egui::Rect,
}

/// The key of a widget: its role, its name and its place among widgets of
/// that role and name.
type Key = (String, String, usize);

/// Every named widget at one moment, keyed by role, name and its place
/// among widgets of that role and name (two "Undo" buttons stay apart).
#[derive(Debug, Clone, Default)]
pub struct Layout {
    widgets: BTreeMap<Key, Placed>,
}

impl Layout {
    /// Records every node with a role and a label or value, whose rect
    /// starts inside `area` (the part of the window under test: a docked
    /// panel, or the whole window).
    pub fn of<S>(harness: &Harness<'_, S>, area: egui::Rect) -> Self {
        let mut widgets = BTreeMap::new();
        let mut seen: BTreeMap<(String, String), usize> = BTreeMap::new();
        let named = by().predicate(|node| {
            !matches!(
                node.role(),
                Role::Unknown
                    | Role::Window
                    | Role::GenericContainer
                    | Role::ScrollView
                    // A label's text run repeats the label's own rect.
                    | Role::TextRun
            )
        });
        for node in harness.query_all(named) {
            let ak = node.accesskit_node();
            let name = ak
                .label()
                .filter(|l| !l.trim().is_empty())
                .or_else(|| ak.value().filter(|v| !v.trim().is_empty()));
            let Some(name) = name else {
                continue;
            };
            let rect = node.rect();
            if !area.expand(0.5).contains(rect.min) {
                continue;
            }
            let role = ak.role();
            let role_name = format!("{role:?}");
            let index = seen.entry((role_name.clone(), name.clone())).or_default();
            widgets.insert(
                (role_name, name.clone(), *index),
                Placed { role, name, rect },
            );
            *index += 1;
        }
        Self { widgets }
    }

    /// The widgets seen, in key order.
    pub fn widgets(&self) -> impl Iterator<Item = &Placed> {
        self.widgets.values()
    }

    /// The first widget whose name starts with `prefix`.
    pub fn find(&self, prefix: &str) -> Option<&Placed> {
        self.widgets().find(|w| w.name.starts_with(prefix))
    }
}

/// A named sequence of state changes, each compared with the look before
/// it; the failures are gathered and reported together at the end.
pub struct Sweep {
    window: egui::Rect,
    growing: Vec<String>,
    failures: Vec<String>,
    changes: usize,
    /// Widgets already reported outside the window (once each).
    outside: BTreeSet<Key>,
    /// Areas declared to scroll: a widget starting in one may reach past
    /// the window's bottom (scrolled below the fold), not its sides.
    scrolling: Vec<egui::Rect>,
    /// Widgets of another panel inside the watched area, left alone.
    others: Vec<egui::Rect>,
    /// Names (their starts) of a scroll area's content, clipped to it.
    clipped: Vec<String>,
}

impl Sweep {
    /// A sweep of a window of `size`, in which only widgets whose names
    /// start with one of `growing` may move or change size (the slots
    /// declared to grow: a status line's text, a message).
    pub fn new(size: egui::Vec2, growing: &[&str]) -> Self {
        Self {
            window: egui::Rect::from_min_size(egui::Pos2::ZERO, size),
            growing: growing.iter().map(|g| (*g).to_string()).collect(),
            failures: Vec::new(),
            changes: 0,
            outside: BTreeSet::new(),
            scrolling: Vec::new(),
            others: Vec::new(),
            clipped: Vec::new(),
        }
    }

    /// Declares `area` a scroll area whose content may run below the
    /// window (egui's accessibility tree does not say what scrolls), as
    /// growing slots are declared by name in each test.
    pub fn scrolling(mut self, area: egui::Rect) -> Self {
        self.scrolling.push(area);
        self
    }

    /// Declares `rect` the part of the window where the watched widgets
    /// can be seen (a docked panel ends at the console's top edge): a
    /// widget reaching outside it is reported as one outside the window.
    pub fn visible(mut self, rect: egui::Rect) -> Self {
        self.window = rect;
        self
    }

    /// Declares more slots to grow, by the start of their names, as
    /// [`Sweep::new`] does.
    pub fn growing(mut self, growing: &[&str]) -> Self {
        self.growing
            .extend(growing.iter().map(|g| (*g).to_string()));
        self
    }

    /// Leaves alone the widget drawn in `rect` that belongs to another
    /// panel than the one watched (the console's Clear button, below a
    /// docked playtest whose area runs to the window's bottom).
    pub fn other_panels(mut self, rect: egui::Rect) -> Self {
        self.others.push(rect);
        self
    }

    /// Declares the widgets whose names start with one of `names` the
    /// content of a scroll area (a log's text): clipped to it, they may
    /// reach outside the window; they are still held still.
    pub fn clipped(mut self, names: &[&str]) -> Self {
        self.clipped.extend(names.iter().map(|n| (*n).to_string()));
        self
    }

    fn other(&self, rect: egui::Rect) -> bool {
        self.others
            .iter()
            .any(|o| o.expand(0.5).contains_rect(rect))
    }

    fn grows(&self, name: &str) -> bool {
        self.growing.iter().any(|g| name.starts_with(g.as_str()))
    }

    /// Looks at the whole window, runs `change`, looks again and records
    /// every widget that moved or left the window; `what` names the change
    /// in the failure lines.
    pub fn change<'h, S>(
        &mut self,
        harness: &mut Harness<'h, S>,
        what: &str,
        change: impl FnOnce(&mut Harness<'h, S>),
    ) {
        let window = self.window;
        self.change_in(harness, what, |_| window, change);
    }

    /// [`Sweep::change`] watching only the widgets whose rects start in
    /// the rect `area` returns (looked up at each look: a docked panel).
    pub fn change_in<'h, S>(
        &mut self,
        harness: &mut Harness<'h, S>,
        what: &str,
        area: impl Fn(&Harness<'h, S>) -> egui::Rect,
        change: impl FnOnce(&mut Harness<'h, S>),
    ) {
        let before = Layout::of(harness, area(harness));
        change(harness);
        let after = Layout::of(harness, area(harness));
        self.compare(&before, &after, what);
    }

    /// Records every widget of `after` outside a slot declared to grow that
    /// moved or changed size since `before`, and every widget, growing or
    /// not, that reaches outside the window at either look (past the bottom
    /// is allowed in an area declared to scroll): once each, at the first
    /// look it is seen outside, so a widget that starts outside is caught
    /// as one that leaves.
    pub fn compare(&mut self, before: &Layout, after: &Layout, what: &str) {
        self.changes += 1;
        self.outside_the_window(before, &format!("before {what}"));
        for (key, now) in &after.widgets {
            if self.grows(&now.name) || self.other(now.rect) {
                continue;
            }
            let Some(was) = before.widgets.get(key) else {
                continue;
            };
            let shift = [
                now.rect.min.x - was.rect.min.x,
                now.rect.min.y - was.rect.min.y,
                now.rect.max.x - was.rect.max.x,
                now.rect.max.y - was.rect.max.y,
            ];
            if shift.iter().any(|d| d.abs() >= 1.0) {
                self.failures.push(format!(
                    "{what}: {:?} {:?} moved from {} to {}",
                    now.role,
                    now.name,
                    show(was.rect),
                    show(now.rect)
                ));
            }
        }
        self.outside_the_window(after, what);
    }

    /// Records each widget of `layout` that reaches outside the window and
    /// was not reported yet.
    fn outside_the_window(&mut self, layout: &Layout, when: &str) {
        let window = self.window.expand(0.5);
        for (key, widget) in &layout.widgets {
            if self.other(widget.rect)
                || self
                    .clipped
                    .iter()
                    .any(|c| widget.name.starts_with(c.as_str()))
            {
                continue;
            }
            let scrolls = self
                .scrolling
                .iter()
                .any(|area| area.contains(widget.rect.min));
            // Below the fold of a scroll area: only the sides count.
            let room = if scrolls {
                window.with_max_y(f32::INFINITY)
            } else {
                window
            };
            if room.contains_rect(widget.rect) {
                continue;
            }
            if self.outside.insert(key.clone()) {
                self.failures.push(format!(
                    "{when}: {:?} {:?} left the window {}: {}",
                    widget.role,
                    widget.name,
                    show(self.window),
                    show(widget.rect)
                ));
            }
        }
    }

    /// The failure lines so far.
    pub fn failures(&self) -> &[String] {
        &self.failures
    }

    /// Fails with every widget that moved, naming the change and where.
    pub fn assert_steady(&self) {
        assert!(self.changes > 0, "a sweep drives at least one change");
        assert!(
            self.failures.is_empty(),
            "widgets moved at an unchanged window size ({} failures):\n{}",
            self.failures.len(),
            self.failures.join("\n")
        );
    }
}

/// A rect as `[x0, y0 - x1, y1]`, to one decimal.
fn show(r: egui::Rect) -> String {
    format!(
        "[{:.1},{:.1} - {:.1},{:.1}]",
        r.min.x, r.min.y, r.max.x, r.max.y
    )
}

/// Fails naming each pair of widgets among those whose names start with
/// one of `names` whose rects overlap by more than a pixel (text drawn over
/// text).
pub fn assert_apart(layout: &Layout, names: &[&str]) {
    let chosen: Vec<&Placed> = layout
        .widgets()
        .filter(|w| names.iter().any(|n| w.name.starts_with(n)))
        .collect();
    let mut overlaps = Vec::new();
    for (i, a) in chosen.iter().enumerate() {
        for b in &chosen[i + 1..] {
            let common = a.rect.intersect(b.rect);
            if common.width() > 1.0 && common.height() > 1.0 {
                overlaps.push(format!(
                    "{:?} {} overlaps {:?} {}",
                    a.name,
                    show(a.rect),
                    b.name,
                    show(b.rect)
                ));
            }
        }
    }
    assert!(
        overlaps.is_empty(),
        "widgets drawn over each other:\n{}",
        overlaps.join("\n")
    );
}
