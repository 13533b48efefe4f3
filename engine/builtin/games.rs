// The built-in games, one line each: the plugin type, and `=> ` its editor
// UI when it brings one (a game without one plays in the editor's generic
// view). `tessera-builtin` reads the plugins from this list and
// `tessera-builtin-ui` the UIs, so the command line never links egui.
games! {
    tessera_azul::Azul => tessera_azul_ui::game_ui(),
    tessera_polycube::Polycube => tessera_polycube_ui::GAME_UI,
    tessera_sand::Sand => tessera_sand_ui::game_ui(),
    tessera_tetris::Tetris => tessera_tetris_ui::game_ui(),
}
