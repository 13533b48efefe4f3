//! `tessera games`

use tessera_engine::Registry;

use crate::Status;

/// Prints one line per plugin: id, then title.
pub fn run() -> anyhow::Result<Status> {
    for entry in Registry::builtin().iter() {
        println!("{:<10} {}", entry.id, entry.title);
    }
    Ok(Status::Ok)
}
