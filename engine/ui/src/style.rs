//! The editor's look (dark theme, readable sizes, a font fallback), in
//! the shared UI crate so the editor and every UI crate's tests lay out
//! alike: a layout test measured in egui's default look passed while the
//! editor's larger buttons moved.

/// Applies the editor's look to `ctx`.
pub fn apply(ctx: &egui::Context) {
    use egui::{FontFamily, FontId, TextStyle};
    ctx.set_theme(egui::Theme::Dark);
    // Ubuntu-Light lacks some symbols the editor shows (the unsaved
    // marker ●); the monospace face has them, so it is the last fallback.
    let mut fonts = egui::FontDefinitions::default();
    let monospace = fonts
        .families
        .get(&FontFamily::Monospace)
        .and_then(|faces| faces.first())
        .cloned();
    if let Some(monospace) = monospace
        && let Some(faces) = fonts.families.get_mut(&FontFamily::Proportional)
        && !faces.contains(&monospace)
    {
        faces.push(monospace);
    }
    ctx.set_fonts(fonts);
    ctx.all_styles_mut(|style| {
        style.text_styles = [
            (
                TextStyle::Small,
                FontId::new(11.0, FontFamily::Proportional),
            ),
            (TextStyle::Body, FontId::new(14.0, FontFamily::Proportional)),
            (
                TextStyle::Button,
                FontId::new(14.0, FontFamily::Proportional),
            ),
            (
                TextStyle::Heading,
                FontId::new(19.0, FontFamily::Proportional),
            ),
            (
                TextStyle::Monospace,
                FontId::new(14.0, FontFamily::Monospace),
            ),
        ]
        .into();
        style.spacing.item_spacing = egui::vec2(8.0, 5.0);
        style.spacing.button_padding = egui::vec2(8.0, 3.0);
    });
}
