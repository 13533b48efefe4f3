//! Cairns in the editor: its playtest view (F5), plugged in through the
//! same [`GameUi`] contract the built-in games use. The view draws the
//! grid and turns a click into a `Take` action on the recorded session;
//! the rules stay in [`crate::rules`], and the editor's shell drives the
//! AI seats.

mod view;

use tessera_host::project::Project;
use tessera_host::{Game, Session};
use tessera_ui::{GameUi, PlaytestView};

pub use view::CairnPlaytest;

use crate::Cairn;

/// Cairns' contribution to the editor: its playtest view and no visual
/// level editor (its levels are two short RON fields, edited as text).
pub fn game_ui() -> GameUi {
    GameUi {
        id: Cairn::ID,
        view: open_view,
        level_editor: None,
    }
}

/// Shows a Cairns session (started by the host, or replayed) in the view.
pub fn open_view(
    _project: &mut Project,
    session: Box<dyn Session>,
) -> anyhow::Result<Box<dyn PlaytestView>> {
    Ok(Box::new(CairnPlaytest::new(tessera_ui::recorded::<Cairn>(
        session,
    )?)))
}
