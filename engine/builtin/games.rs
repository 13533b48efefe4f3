// The built-in games, one line each: the plugin type (which registers its
// own capabilities, its level generator among them: `Plugin::register`),
// in braces `commands:` its own `tessera` subcommands, bench groups and
// merges and `registered_by:` a function that registers the game with
// what a crate beside it adds (Tetris's bot), and `=> ` its editor UI
// when it brings one (a game without one plays in the editor's generic
// view).
// `tessera-builtin` reads the plugins and their commands from this list
// and `tessera-builtin-ui` the UIs, so the command line never links egui.
games! {
    tessera_azul::Azul { commands: tessera_azul::cli::COMMANDS } => tessera_azul_ui::game_ui(),
    tessera_polycube::Polycube { commands: tessera_polycube::cli::COMMANDS } => tessera_polycube_ui::GAME_UI,
    tessera_sand::Sand { commands: tessera_sand::cli::COMMANDS } => tessera_sand_ui::game_ui(),
    tessera_tetris::Tetris { commands: tessera_tetris_bot::cli::COMMANDS, registered_by: tessera_tetris_bot::register } => tessera_tetris_ui::game_ui(),
}
