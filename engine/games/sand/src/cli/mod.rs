//! Sand's command-line capability, registered beside the game in
//! `engine/builtin/games.rs`: no subcommand of its own, the `tessera bench
//! sand` group (`bench.rs`).

use tessera_host::command::{BenchGroup, GameCommands};

mod bench;

/// Sand's command-line capability.
pub const COMMANDS: &dyn GameCommands = &SandCommands;

struct SandCommands;

impl GameCommands for SandCommands {
    fn bench_groups(&self) -> &'static [BenchGroup] {
        &[BenchGroup {
            name: "sand",
            order: 2,
            figures: bench::figures,
        }]
    }
}
