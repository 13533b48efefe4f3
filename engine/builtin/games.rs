// The built-in games, one line each: the plugin type, in braces the
// capabilities it brings (`commands:` its own `tessera` subcommands, bench
// groups and merges; `generate:` its level generator), and `=> ` its
// editor UI when it brings one (a game without one plays in the editor's
// generic view).
// `tessera-builtin` reads the plugins and their commands from this list
// and `tessera-builtin-ui` the UIs, so the command line never links egui.
games! {
    tessera_azul::Azul { commands: tessera_azul::cli::COMMANDS, generate: tessera_azul::generate::GENERATOR } => tessera_azul_ui::game_ui(),
    tessera_polycube::Polycube { commands: tessera_polycube::cli::COMMANDS, generate: tessera_polycube::generate::GENERATOR } => tessera_polycube_ui::GAME_UI,
    tessera_sand::Sand { commands: tessera_sand::cli::COMMANDS, generate: tessera_sand::generate::GENERATOR } => tessera_sand_ui::game_ui(),
    tessera_tetris::Tetris { commands: tessera_tetris::bot::cli::COMMANDS, generate: tessera_tetris::generate::GENERATOR } => tessera_tetris_ui::game_ui(),
}
