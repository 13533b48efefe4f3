//! Takes the pictures in `docs/img/`: the real editor (the same
//! `EditorApp` the window runs) on a copy of this project, walked by
//! accessible names and keys as the README and the game pages tell a
//! person to walk it. Before each picture the walk checks what the
//! picture's caption claims (the tour's Score 284, the Tests panel's one
//! changed test, two polycube pieces placed by hints) and stops with an
//! error naming the difference when it does not hold: a picture that
//! contradicts its caption is never written.
//!
//! ```text
//! cargo run --manifest-path tools/screenshots/Cargo.toml [-- [--out DIR] [NAME_PREFIX]]
//! ```
//!
//! The frames are rendered by wgpu on the CPU (Mesa's llvmpipe through
//! EGL, or lavapipe), so no display and no GPU are needed. `.ci/screenshots`
//! runs this.

mod games;
mod levels;
mod png;
mod project;
mod tour;
mod walk;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// One picture: its file name in `docs/img/` (without `.png`) and the walk
/// that checks its caption and takes it.
type Shot = (&'static str, fn(&Path, &Path) -> anyhow::Result<()>);

/// Every picture, in the order they are taken. The tour is two pictures
/// of one walk, so it is one entry writing both.
const SHOTS: &[Shot] = &[
    ("sand", games::sand),
    ("tetris", games::tetris),
    ("azul", games::azul),
    ("polycube", games::polycube),
    ("tour", tour::tour),
    ("level-polycube", levels::polycube),
    ("level-tetris", levels::tetris),
    ("level-sand", levels::sand),
    ("level-azul", levels::azul),
];

const USAGE: &str = "usage: tessera-screenshots [--out DIR] [NAME_PREFIX]";

fn main() -> ExitCode {
    let mut out = None;
    let mut only = String::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--out" => match args.next() {
                Some(dir) => out = Some(PathBuf::from(dir)),
                None => {
                    eprintln!("{USAGE}");
                    return ExitCode::from(2);
                }
            },
            "-h" | "--help" => {
                println!(
                    "{USAGE}\n\nTakes the pictures of docs/img/ whose name starts with NAME_PREFIX (all by default)."
                );
                return ExitCode::SUCCESS;
            }
            _ if arg.starts_with('-') => {
                eprintln!("{USAGE}");
                return ExitCode::from(2);
            }
            _ => only = arg,
        }
    }
    match run(out, &only) {
        Ok(0) => {
            eprintln!("no picture's name starts with {only:?}");
            ExitCode::from(2)
        }
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tessera-screenshots: {e:#}");
            ExitCode::FAILURE
        }
    }
}

/// Takes every picture whose name starts with `only`; returns how many.
fn run(out: Option<PathBuf>, only: &str) -> anyhow::Result<usize> {
    let repo = project::repo_root()?;
    let out = out.unwrap_or_else(|| repo.join("docs/img"));
    let home = project::Home::new()?;
    let mut taken = 0;
    for (name, shot) in SHOTS {
        if !name.starts_with(only) {
            continue;
        }
        let root = home.fresh_project(&repo)?;
        eprintln!("{name}: walking the editor on {}", root.display());
        shot(&root, &out).map_err(|e| e.context(format!("picture {name}")))?;
        taken += 1;
    }
    Ok(taken)
}
