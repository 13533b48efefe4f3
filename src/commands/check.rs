//! `tessera check PATH...`

use std::path::PathBuf;

use tessera_host::ScriptLimits;
use tessera_host::check::{check_file, expand_paths};

use crate::Status;

/// Arguments of `tessera check`.
#[derive(clap::Args)]
pub struct Args {
    /// Level files (.ron), scripts (.lua), or folders holding them.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
}

/// Prints `ok PATH` or `PATH:LINE[:COL]: message` per file; fails when any
/// file has an error.
pub fn run(args: &Args) -> anyhow::Result<Status> {
    let missing: Vec<_> = args.paths.iter().filter(|p| !p.exists()).collect();
    if let Some(path) = missing.first() {
        anyhow::bail!("no such file or folder: {}", path.display());
    }
    let registry = tessera_builtin::registry();
    let mut failed = false;
    for path in expand_paths(&args.paths) {
        let findings = check_file(&registry, &path, ScriptLimits::default());
        if findings.iter().any(|d| d.is_error()) {
            failed = true;
        } else {
            println!("ok {}", path.display());
        }
        for finding in findings {
            println!("{finding}");
        }
    }
    Ok(if failed { Status::Failed } else { Status::Ok })
}
