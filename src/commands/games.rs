//! `tessera games`

use crate::Status;

/// Prints one line per plugin: id, then title.
pub fn run() -> anyhow::Result<Status> {
    for entry in tessera_builtin::registry().iter() {
        println!("{:<10} {}", entry.id, entry.title);
    }
    Ok(Status::Ok)
}
