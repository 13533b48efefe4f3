//! The strip of tabs above the editor, one per open file.

use egui::{PointerButton, RichText};

use crate::document::Document;

/// What the user did on the tab strip.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TabAction {
    /// Show the document at this index.
    Activate(usize),
    /// Close the document at this index (asks first when unsaved).
    Close(usize),
}

/// Draws one tab per document (title with `●` when unsaved, and a close
/// button); middle-click also closes.
pub fn tab_bar(
    ui: &mut egui::Ui,
    documents: &[Document],
    active: Option<usize>,
) -> Option<TabAction> {
    let mut action = None;
    // Scroll the active tab into view when it changes (a file opened from
    // the tree or a console line), not every frame, so the strip can still
    // be scrolled by hand.
    let memory = egui::Id::unique("tessera active tab");
    let shown_before = ui.data(|d| d.get_temp::<Option<usize>>(memory));
    let reveal = shown_before != Some(active);
    ui.data_mut(|d| d.insert_temp(memory, active));
    egui::ScrollArea::horizontal()
        .id_salt("tabs")
        .auto_shrink([false, true])
        .show(ui, |ui| {
            ui.horizontal(|ui| {
                ui.spacing_mut().item_spacing.x = 2.0;
                for (index, document) in documents.iter().enumerate() {
                    let selected = active == Some(index);
                    let frame = egui::Frame::new()
                        .inner_margin(egui::Margin::symmetric(6, 3))
                        .corner_radius(egui::CornerRadius {
                            nw: 4,
                            ne: 4,
                            sw: 0,
                            se: 0,
                        })
                        .fill(if selected {
                            ui.visuals().extreme_bg_color
                        } else {
                            ui.visuals().faint_bg_color
                        });
                    frame.show(ui, |ui| {
                        ui.spacing_mut().item_spacing.x = 4.0;
                        let title = RichText::new(document.title());
                        let title = if selected { title.strong() } else { title };
                        let tab = ui
                            .selectable_label(selected, title)
                            .on_hover_text(document.display_path().display().to_string());
                        if selected && reveal {
                            tab.scroll_to_me(None);
                        }
                        if tab.clicked() {
                            action = Some(TabAction::Activate(index));
                        }
                        if tab.clicked_by(PointerButton::Middle) {
                            action = Some(TabAction::Close(index));
                        }
                        let close = ui
                            .add(egui::Button::new(RichText::new("×").size(14.0)).frame(false))
                            .on_hover_text(format!("Close {}", document.display_path().display()));
                        if close.clicked() {
                            action = Some(TabAction::Close(index));
                        }
                    });
                }
            });
        });
    action
}
