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
        let tray: Vec<String> = "IOTLJSZIOTLJSZIO"
            .chars()
            .zip("RB".chars().cycle())
            .map(|(shape, colour)| format!("\"{shape} {colour}\""))
            .collect();
        // A generated level whose tray was grown by hand to sixteen
        // pieces: `check` re-proves its claim over every placement order
        // until its budget says the level is too large.
        let grown = format!(
            "{}(\n    version: 1,\n    columns: 6,\n    rows: 6,\n    cell: 2,\n    \
             board: [\".BRBRR\", \".B..B.\"],\n    tray: [{}],\n    clears: 1,\n    physics_seed: 1,\n)\n",
            tessera_host::generate::claim_block(
                "generate sand --clears 1 --pieces 2 --seed 1",
                "66 of 216 placement sequences reach 1 spanning clear",
                "1.7 (easy): one placement sequence in 3 wins; 240 placements played",
            ),
            tray.join(", ")
        );
        vec![
            LongRun::new(&["check", "levels/sand/grown.ron"])
                .with_file("levels/sand/grown.ron", grown),
            LongRun::new(&[
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
            ]),
        ]
    }

    fn bench_groups(&self) -> &'static [BenchGroup] {
        &[BenchGroup {
            name: "sand",
            order: 2,
            figures: bench::figures,
        }]
    }
}
