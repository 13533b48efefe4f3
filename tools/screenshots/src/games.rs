//! Each game's picture beside its entry in the README: a shipped level
//! opened with Ctrl+P, played with F5 and maximised with F11, and what the
//! caption says of it checked before the shot.

use std::path::Path;

use anyhow::bail;
use egui::Key;

use crate::walk::Walk;

/// A fresh editor on `root` with `level` (a project path) open and
/// playing, its playtest maximised (F11) when `maximised`.
fn playing(root: &Path, level: &str, maximised: bool) -> anyhow::Result<Walk> {
    let mut walk = Walk::open(root)?;
    let name = Path::new(level)
        .file_stem()
        .map(|stem| stem.to_string_lossy().into_owned())
        .unwrap_or_default();
    walk.quick_open(&name, level)?;
    walk.key(Key::F5);
    if maximised {
        walk.key(Key::F11);
    }
    let header = format!("· {level} ·");
    walk.wait_for(&format!("the playtest of {level}"), |w| {
        !w.named_containing(&header).is_empty()
    })?;
    Ok(walk)
}

/// "Sand drop: a chain of clears in the playtest" (README), "the cascade
/// level, its visual editor and a chain of three clears" (its page):
/// taken while the cascade's third clear flashes, beside the level's
/// visual editor.
pub fn sand(root: &Path, out: &Path) -> anyhow::Result<()> {
    let mut walk = playing(root, "levels/sand/cascade.ron", false)?;
    walk.wait_for("the cascade's third clear", |w| {
        w.has("Chain x3") && !w.named_containing("·  clear: flash").is_empty()
    })?;
    walk.expect("sand level board")?;
    walk.shoot(&out.join("sand.png"))
}

/// "Tetris: the marathon level": five pieces dropped.
pub fn tetris(root: &Path, out: &Path) -> anyhow::Result<()> {
    let mut walk = playing(root, "levels/tetris/marathon_20x10.ron", true)?;
    use Key::{ArrowLeft as Left, ArrowRight as Right, Space};
    for key in [
        Left, Left, Space, Right, Space, Space, Right, Right, Right, Space, Left, Space,
    ] {
        walk.key(key);
    }
    walk.expect("Pieces 5")?;
    walk.shoot(&out.join("tetris.png"))
}

/// "Azul: the standard table against the medium AI".
pub fn azul(root: &Path, out: &Path) -> anyhow::Result<()> {
    let mut walk = playing(root, "levels/azul/standard.ron", true)?;
    walk.play(3.0);
    if walk.named_containing("medium").is_empty() {
        bail!("the standard table's second seat is not the medium AI");
    }
    walk.shoot(&out.join("azul.png"))
}

/// "Polycube packing: two pieces placed by hints, in slices and in 3D".
pub fn polycube(root: &Path, out: &Path) -> anyhow::Result<()> {
    let mut walk = playing(root, "levels/polycube/03_little_crate.ron", true)?;
    for placed in ["1/4 placed", "2/4 placed"] {
        walk.click_containing("Hint (")?;
        walk.wait_for(placed, |w| !w.named_containing(placed).is_empty())?;
    }
    walk.shoot(&out.join("polycube.png"))
}
