//! Sand's command-line capability, registered beside the game in
//! `engine/builtin/games.rs`: no subcommand of its own, the `tessera bench
//! sand` group (`bench.rs`).

use tessera_host::command::{BenchGroup, GameCommands, LongRun};

mod bench;

/// Sand's command-line capability.
pub const COMMANDS: &dyn GameCommands = &SandCommands;

struct SandCommands;

impl GameCommands for SandCommands {
    fn long_runs(&self) -> Vec<LongRun> {
        // A generated tray's re-proof plays every order and place of at
        // most three pieces, in about a second: no long `check` here.
        vec![LongRun::new(&[
            "generate",
            "sand",
            "--clears",
            "3",
            "--pieces",
            "3",
            "--count",
            "8",
            "--out-dir",
            "pack",
        ])]
    }

    fn bench_groups(&self) -> &'static [BenchGroup] {
        &[BenchGroup {
            name: "sand",
            order: 2,
            figures: bench::figures,
        }]
    }
}
