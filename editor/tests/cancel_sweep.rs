//! The Ctrl+C sweep's editor side: every long `generate` run a game lists
//! (`GameCommands::long_runs`, the runs `tests/interrupt.rs` stops with
//! Ctrl+C) is started from File ▸ Generate…'s form, and its Cancel, clicked
//! while the generator works, must end the job within the contract's half
//! second (`tessera_host::job::STOP_WITHIN`) and leave the form ready again.
//! A pack's options (`--count`, `--out-dir`) are the command line's, not
//! the form's: those runs are generated one level at a time here, and a
//! run that ends before its Cancel is reported, not judged.

use std::time::{Duration, Instant};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use tessera_editor::generate_dialog::{GenerateDialog, Generation};
use tessera_host::job::STOP_WITHIN;

/// When Cancel is clicked after Generate: deep in the work.
const CANCEL_AFTER: Duration = Duration::from_millis(1500);

/// The words of a `generate GAME ...` run after `generate GAME`, without
/// the pack's options.
fn spec_words(args: &[String]) -> Vec<String> {
    let mut words = Vec::new();
    let mut rest = args.iter().skip(2);
    while let Some(word) = rest.next() {
        if matches!(word.as_str(), "--count" | "--out-dir" | "--shard" | "--out") {
            rest.next();
        } else {
            words.push(word.clone());
        }
    }
    words
}

/// The Generate dialog alone in a window.
fn dialog_window(dialog: GenerateDialog) -> Harness<'static, GenerateDialog> {
    Harness::builder()
        .with_size(egui::vec2(900.0, 600.0))
        .build_ui_state(
            |ui, dialog: &mut GenerateDialog| {
                let _ = dialog.ui(ui.ctx());
            },
            dialog,
        )
}

/// How one Cancel went: the time from the click to the job's end, or
/// `None` when the generation ended before the click.
fn cancel_once(game: &str, dialog: GenerateDialog) -> Option<Duration> {
    let mut harness = dialog_window(dialog);
    harness.run_steps(2);
    harness.get_by_label("Generate").click();
    harness.run_steps(1);
    assert!(
        harness.state().is_running(),
        "{game}: Generate started no job: {:?}",
        harness.state().error()
    );
    let started = Instant::now();
    while started.elapsed() < CANCEL_AFTER {
        harness.step();
        if !harness.state().is_running() {
            return None;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    harness.get_by_label("Cancel").click();
    let clicked = Instant::now();
    harness.step();
    while harness.state().is_running() && clicked.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(5));
        harness.step();
    }
    assert!(
        !harness.state().is_running(),
        "{game}: Cancel left the job running for a minute"
    );
    Some(clicked.elapsed())
}

#[test]
fn cancel_ends_every_long_generation_within_half_a_second() {
    let context = tessera_builtin::command_context();
    let mut judged = Vec::new();
    let mut failures = Vec::new();
    for (game, generator) in context.registry().generators() {
        let runs = context
            .commands_of(game)
            .flat_map(|c| c.long_runs())
            .filter(|r| r.args.first().is_some_and(|a| a == "generate"));
        for run in runs {
            // A run on a file (`--repair FILE`) names it from the project
            // folder, which the form's test has not: the level editor's
            // Make unique is that run's editor side.
            if !run.files.is_empty() || run.args.iter().any(|a| a.ends_with(".ron")) {
                continue;
            }
            let words = spec_words(&run.args);
            let dialog = GenerateDialog::from_command_line(game, generator, &words)
                .unwrap_or_else(|e| panic!("{game}: `{}`: {e}", run.args.join(" ")));
            let command = format!("generate {game} {}", words.join(" "));
            match cancel_once(game, dialog) {
                None => eprintln!("{command}: ended before Cancel (not judged)"),
                Some(latency) if latency > STOP_WITHIN => {
                    failures.push(format!("{command}: Cancel took {latency:?}"));
                }
                Some(latency) => judged.push((command, latency)),
            }
        }
    }
    for (command, latency) in &judged {
        println!(
            "| `{command}` (editor Cancel) | {} ms |",
            latency.as_millis()
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // The heavy generators (polycube's unique large boxes, Azul's
    // endgames) run past the click: the sweep judged something.
    assert!(
        !judged.is_empty(),
        "no generation was still running at its Cancel"
    );
}

#[test]
fn a_command_line_fills_the_form_and_a_foreign_option_is_refused() {
    let registry = tessera_builtin::registry();
    let Some(generator) = registry.generator("polycube") else {
        panic!("polycube brings a generator");
    };
    let words: Vec<String> = ["--box", "4x4x4", "--unique", "--seed", "7"]
        .iter()
        .map(|w| w.to_string())
        .collect();
    let dialog = GenerateDialog::from_command_line("polycube", generator, &words).expect("fills");
    let mut harness = dialog_window(dialog);
    harness.run_steps(2);
    assert!(
        harness.query_all_by_value("4x4x4").next().is_some(),
        "the box field holds 4x4x4"
    );
    assert!(
        harness.query_all_by_value("7").next().is_some(),
        "the seed field holds 7"
    );
    let foreign: Vec<String> = vec!["--count".into(), "3".into()];
    let refused = GenerateDialog::from_command_line("polycube", generator, &foreign);
    assert_eq!(
        refused.err().as_deref(),
        Some("--count is not an option of polycube's generator")
    );
    let _ = Generation::Closed;
}

/// Every game's form opens valid, titled by the game: Generate, clicked
/// on the defaults, starts a generation rather than a refusal in red
/// (Azul's one kind, `--endgame`, is required, so its form ticks it).
#[test]
fn every_generators_form_opens_valid_and_titled_by_its_game() {
    let registry = tessera_builtin::registry();
    for (game, generator) in registry.generators() {
        let Some(entry) = registry.get(game) else {
            panic!("{game} is registered");
        };
        let dialog = GenerateDialog::new(game, generator).titled(entry.title);
        let mut harness = Harness::builder()
            .with_size(egui::vec2(900.0, 600.0))
            .build_ui_state(
                |ui, dialog: &mut GenerateDialog| {
                    let _ = dialog.ui(ui.ctx());
                },
                dialog,
            );
        harness.run_steps(2);
        harness.get_by_label(&format!("Generate a level: {}", entry.title));
        harness.get_by_label("Generate").click();
        harness.run_steps(1);
        assert!(
            harness.state().is_running(),
            "{game}: the defaults are refused: {:?}",
            harness.state().error()
        );
        // A spec the generator refuses fails at once: watch a moment.
        let started = Instant::now();
        while harness.state().is_running() && started.elapsed() < Duration::from_millis(300) {
            harness.step();
            std::thread::sleep(Duration::from_millis(10));
        }
        assert_eq!(
            harness.state().error(),
            None,
            "{game}: the defaults are refused"
        );
        if harness.state().is_running() {
            harness.get_by_label("Cancel").click();
            while harness.state().is_running() {
                harness.step();
                std::thread::sleep(Duration::from_millis(5));
            }
        }
    }
}
