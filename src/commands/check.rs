//! `tessera check PATH...`

use std::path::PathBuf;

use std::io::Write;

use tessera_host::ScriptLimits;
use tessera_host::check::{Checker, find_files};

use tessera_host::command::CommandContext;

use crate::Status;

/// Arguments of `tessera check`.
#[derive(clap::Args)]
pub struct Args {
    /// Level files (.ron), scripts (.lua), or folders holding them.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
}

/// Prints `ok PATH` or `PATH:LINE[:COL]: message` per file, and
/// `PATH: proven: ...` for a generated level whose claim was re-proven; fails when any
/// file has an error, when a path is missing, or when a folder holds
/// nothing to check.
pub fn run(args: &Args, context: &CommandContext) -> anyhow::Result<Status> {
    let registry = context.registry().clone();
    let mut failed = false;
    let mut out = std::io::stdout().lock();
    let mut existing = Vec::new();
    for path in &args.paths {
        // `symlink_metadata`: a broken link is reported as one, below.
        if std::fs::symlink_metadata(path).is_err() {
            writeln!(out, "{}: no such file or folder", path.display())?;
            failed = true;
        } else {
            existing.push(path.clone());
        }
    }
    let found = find_files(&registry, &existing);
    for problem in &found.problems {
        failed |= problem.is_error();
        writeln!(out, "{problem}")?;
    }
    // Each file is checked as a job: a re-proof or a large level can take
    // seconds, so it shows its progress and Ctrl+C stops it.
    let interrupt = tessera_host::job::interrupt();
    let mut checker = Checker::new(&registry, ScriptLimits::default()).with_control(interrupt);
    for (done, path) in found.files.iter().enumerate() {
        let label = path.display().to_string();
        let findings = tessera_host::job::run(&label, |_| checker.check_file(path));
        if interrupt.is_cancelled() {
            writeln!(
                out,
                "{}{} of {} files checked; {} not finished",
                tessera_host::job::PARTIAL_STOPPED,
                done,
                found.files.len(),
                path.display()
            )?;
            return Ok(Status::Failed);
        }
        if findings.iter().any(|d| d.is_error()) {
            failed = true;
        } else {
            writeln!(out, "ok {}", path.display())?;
        }
        if let Some(proven) = checker.take_proven() {
            writeln!(out, "{}: proven: {proven}", path.display())?;
        }
        for finding in findings {
            writeln!(out, "{finding}")?;
        }
    }
    Ok(if failed { Status::Failed } else { Status::Ok })
}
