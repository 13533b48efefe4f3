//! Polycube's command-line capability, registered beside the game in
//! `engine/builtin/games.rs`: `tessera solve` (`solve.rs`), the merge of
//! its sharded counts that `tessera merge` asks it for (`merge.rs`), and
//! the `tessera bench polycube` group (`bench.rs`).

use clap::{Args as _, FromArgMatches as _};
use tessera_host::command::{
    BenchGroup, CommandContext, GameCommands, LongRun, NamedPartials, Status,
};
use tessera_host::partial::Partial;

mod bench;
mod bench_generate;
mod merge;
mod solve;

/// Pieces without a packing whose search runs long (the file says why):
/// the heavy input of the Ctrl+C sweep's solves and re-proof.
const NO_PACKING: &str = include_str!("no_packing.ron");

/// Polycube's command-line capability.
pub const COMMANDS: &dyn GameCommands = &PolycubeCommands;

struct PolycubeCommands;

impl GameCommands for PolycubeCommands {
    fn commands(&self) -> Vec<clap::Command> {
        vec![
            solve::Args::augment_args(clap::Command::new("solve")).about(
                "Solve a polycube level: one solution, `--first`, `--unique`, `--disassemble`, \
             or `--count [--assembly] [--no-symmetry] [--json] [--threads N] [--shard I/N]`",
            ),
        ]
    }

    fn run(
        &self,
        _name: &str,
        matches: &clap::ArgMatches,
        _context: &CommandContext,
    ) -> anyhow::Result<Status> {
        solve::run(&solve::Args::from_arg_matches(matches)?)
    }

    fn long_runs(&self) -> Vec<LongRun> {
        let impossible = "levels/polycube/no_packing.ron";
        vec![
            LongRun::new(&["solve", "--count", "levels/polycube/bedlam.ron"]),
            LongRun::new(&["solve", "--first", impossible]).with_file(impossible, NO_PACKING),
            LongRun::new(&["solve", "--unique", impossible]).with_file(impossible, NO_PACKING),
            LongRun::new(&["solve", "--disassemble", impossible]).with_file(impossible, NO_PACKING),
            LongRun::new(&["check", impossible]).with_file(
                impossible,
                format!(
                    "{}{NO_PACKING}",
                    tessera_host::generate::claim_block(
                        "generate polycube --box 4x4x5 --pieces 20 --seed 1",
                        "solvable",
                        "15.6 (medium)"
                    )
                ),
            ),
            LongRun::new(&[
                "generate", "polycube", "--box", "5x5x5", "--pieces", "25", "--unique",
            ]),
            LongRun::new(&[
                "generate", "polycube", "--box", "4x4x6", "--pieces", "16", "--unique",
            ]),
            LongRun::new(&[
                "generate",
                "polycube",
                "--repair",
                "levels/polycube/soma.ron",
            ]),
        ]
    }

    fn bench_groups(&self) -> &'static [BenchGroup] {
        &[
            BenchGroup {
                name: "polycube",
                order: 1,
                figures: bench::figures,
            },
            BenchGroup {
                name: "polycube-generate",
                order: 1,
                figures: bench_generate::figures,
            },
        ]
    }

    fn owns_partial(&self, command: &str) -> bool {
        merge::owns(command)
    }

    fn partial_mismatch(&self, first: &Partial, other: &Partial) -> Option<String> {
        merge::mismatch(first, other)
    }

    fn merge(
        &self,
        partials: &NamedPartials,
        json: bool,
        _context: &CommandContext,
    ) -> anyhow::Result<Status> {
        merge::merge_counts(partials, json)
    }
}
