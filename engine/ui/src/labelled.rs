//! Widgets with their label before them, read left to right as one pair
//! ("Mode [level's default ▾]"). egui's own `ComboBox::from_label` draws
//! the label after the box, which in a row of pickers reads as the label
//! of the next one.

/// A label, then a combo box showing `selected`; the box's accessible name
/// is `label: selected` so tests and screen readers find it by its label.
/// `add_contents` draws the choices.
pub fn labelled_combo(
    ui: &mut egui::Ui,
    label: &str,
    id_salt: impl std::hash::Hash + std::fmt::Debug,
    selected: impl Into<String>,
    add_contents: impl FnOnce(&mut egui::Ui),
) -> egui::Response {
    let selected = selected.into();
    let label_response = ui.label(label);
    let name = format!("{label}: {selected}");
    let response = egui::ComboBox::from_id_salt(id_salt)
        .selected_text(selected)
        .show_ui(ui, add_contents)
        .response
        .labelled_by(label_response.id);
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::ComboBox, true, &name));
    keep_list_over_its_dialog(ui, &response);
    response
}

/// A combo box in a dialog (a modal, a foreground area): its list is made
/// the dialog's sublayer, drawn right above it. A click's press raises the
/// dialog, and when the list opens on the same frame (press and release
/// in one frame, as `xdotool` and quick clicks give) both ask to be on
/// top; egui keeps their old order, and from the second opening the list
/// is the older layer: it drew behind the dialog and could not be clicked.
fn keep_list_over_its_dialog(ui: &egui::Ui, combo: &egui::Response) {
    let dialog = ui.layer_id();
    if dialog.order != egui::Order::Foreground || !egui::ComboBox::is_open(ui.ctx(), combo.id) {
        return;
    }
    // The list's id as `ComboBox` makes it (its popup id is private).
    let list = egui::LayerId::new(egui::Order::Foreground, combo.id.with("popup"));
    ui.ctx().set_sublayer(dialog, list);
}

/// The playtest's speed multiplier (0.1x to 4x, logarithmic), its "Speed"
/// label first: one control for every real-time game's panel.
pub fn speed_slider(ui: &mut egui::Ui, speed: &mut f32) -> egui::Response {
    ui.horizontal(|ui| {
        let label = ui.label("Speed");
        // The slider gives way in a narrow panel, so its value box stays
        // inside the panel's edge.
        let value_box = 60.0 + ui.spacing().item_spacing.x;
        let width = (ui.available_width() - value_box).clamp(40.0, ui.spacing().slider_width);
        ui.spacing_mut().slider_width = width;
        ui.add(
            egui::Slider::new(speed, 0.1..=4.0)
                .logarithmic(true)
                .suffix("x"),
        )
        .labelled_by(label.id)
    })
    .inner
}
