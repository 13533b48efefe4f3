//! The README's five-minute tour, steps 1 to 5, walked and checked, with
//! its two pictures: `tour-reload.png` (step 3: `sand.lua` edited, the
//! playtest restarted at Score 284) and `tour-tests.png` (step 5: the
//! Tests panel listing `sand/my_cascade` as the one changed test).

use std::path::Path;

use anyhow::{Context as _, bail};
use egui::{Key, Modifiers};

use crate::walk::Walk;

/// The score rule the tour edits, as shipped.
const RULE: &str = "math.floor(10 * math.sqrt(cells)) * chain";

/// The rule's line, as the README's step 3 names its search result.
const README_LINE: usize = 40;

pub fn tour(root: &Path, out: &Path) -> anyhow::Result<()> {
    let script = root.join("scripts/sand.lua");
    let shipped = std::fs::read_to_string(&script)
        .with_context(|| format!("cannot read {}", script.display()))?;
    if shipped.matches(RULE).count() != 1 {
        bail!("scripts/sand.lua no longer holds the tour's rule `{RULE}` once");
    }
    // The README sends the reader to the rule's line by its number.
    let line = shipped
        .lines()
        .position(|l| l.contains(RULE))
        .map(|i| i + 1);
    if line != Some(README_LINE) {
        bail!(
            "the rule is on line {line:?} of scripts/sand.lua; the README's tour says {README_LINE}"
        );
    }
    let doubled = shipped.replacen(RULE, &RULE.replacen("10", "20", 1), 1);
    let replays = replay_count(root)?;
    let mut walk = Walk::open(root)?;

    // 1. Ctrl+P, cascade, Enter.
    walk.quick_open("cascade", "levels/sand/cascade.ron")?;
    // 2. F5: chain x3, Score 142, +24 +52 +66.
    walk.key(Key::F5);
    settle_at(&mut walk, 142, &["+24", "+52", "+66"])?;

    // 3. The 10 of the rule to 20, Ctrl+S, Restart (seed 1): 284.
    edit_rule(&mut walk, "10", "20")?;
    if walk.active_text()? != doubled {
        bail!("the edit changed more of scripts/sand.lua than the rule's 10");
    }
    walk.chord(Modifiers::COMMAND, Key::S);
    walk.wait_for("the reload of sand.lua", |w| reloads(w) == 1)?;
    walk.click("Restart (seed 1)")?;
    settle_at(&mut walk, 284, &["+48", "+104", "+132"])?;
    walk.shoot(&out.join("tour-reload.png"))?;

    // 4. Save as test, my_cascade, Save.
    walk.click("💾 Save as test")?;
    walk.retype("Test name", "my_cascade")?;
    walk.click("Save")?;
    walk.expect_console(
        "saved test tests/replays/sand/my_cascade.replay.ron (its trajectory is the accepted snapshot)",
    )?;

    // 5. The 20 back to 10, Ctrl+S, Run ▸ Tests: my_cascade changed.
    edit_rule(&mut walk, "20", "10")?;
    if walk.active_text()? != shipped {
        bail!("putting the 10 back did not give the shipped scripts/sand.lua");
    }
    walk.chord(Modifiers::COMMAND, Key::S);
    walk.wait_for("the second reload of sand.lua", |w| reloads(w) == 2)?;
    walk.click("Run")?;
    walk.click("Tests")?;
    let summary = format!("{replays} unchanged, 1 changed");
    walk.wait_for_label(&summary)?;
    if walk.named_containing("sand/my_cascade").is_empty() {
        bail!("the Tests panel does not list sand/my_cascade");
    }
    // The changed test is selected: its first step's score, old → new.
    if walk.named_containing("score 284 → score 142").is_empty() {
        bail!("the Tests panel does not show my_cascade's score 284 → score 142");
    }
    walk.shoot(&out.join("tour-tests.png"))
}

/// How many replays the project holds (all unchanged by the tour).
fn replay_count(root: &Path) -> anyhow::Result<usize> {
    let mut count = 0;
    let games = root.join("tests/replays");
    for game in
        std::fs::read_dir(&games).with_context(|| format!("cannot read {}", games.display()))?
    {
        let game = game?.path();
        if !game.is_dir() {
            continue;
        }
        for file in std::fs::read_dir(&game)? {
            let name = file?.file_name();
            if name.to_string_lossy().ends_with(".replay.ron") {
                count += 1;
            }
        }
    }
    Ok(count)
}

/// Console lines saying sand.lua was reloaded.
fn reloads(walk: &Walk) -> usize {
    walk.console()
        .iter()
        .filter(|line| line.contains("reloaded scripts/sand.lua"))
        .count()
}

/// Waits until the cascade has settled at `score`, then checks that the
/// console's latest clears scored `clears`.
fn settle_at(walk: &mut Walk, score: u32, clears: &[&str]) -> anyhow::Result<()> {
    let heading = format!("Score {score}");
    walk.wait_for(&format!("{heading}, settled"), |w| {
        w.has(&heading) && !w.named_containing("·  settled").is_empty()
    })?;
    // Chain x3: the third of the recent clears is the chain's third.
    if walk.named_containing("  x3  ").is_empty() {
        bail!("the cascade ended without a third clear in its chain");
    }
    let console = walk.console();
    let chains: Vec<&String> = console
        .iter()
        .filter(|line| line.starts_with("sand: chain x"))
        .collect();
    let last: Vec<&&String> = chains.iter().rev().take(clears.len()).rev().collect();
    for (line, points) in last.iter().zip(clears) {
        if !line.ends_with(&format!(", {points}")) {
            bail!("the cascade's clears were {last:?}, not {clears:?}");
        }
    }
    Ok(())
}

/// Finds the rule with Find in project (Ctrl+Shift+F: `scripts/sand.lua`
/// opens with the cursor at the start of the rule's line), walks the
/// cursor to `from` with the arrow keys, selects it and types `to`.
fn edit_rule(walk: &mut Walk, from: &str, to: &str) -> anyhow::Result<()> {
    let rule = RULE.replacen("10", from, 1);
    let find = format!("math.floor({from}");
    walk.chord(Modifiers::COMMAND | Modifiers::SHIFT, Key::F);
    walk.type_text(&find);
    walk.click_containing("scripts/sand.lua:")?;
    if walk.active_path()? != "scripts/sand.lua" {
        bail!(
            "Find in project opened {}, not scripts/sand.lua",
            walk.active_path()?
        );
    }
    let text = walk.active_text()?;
    let line = text
        .lines()
        .find(|line| line.contains(&rule))
        .with_context(|| format!("no line of sand.lua holds `{rule}`"))?;
    let column = line
        .find(&find)
        .map(|at| line[..at].chars().count() + "math.floor(".len())
        .with_context(|| format!("no `{find}` in `{line}`"))?;
    walk.keys(Key::ArrowRight, column);
    for _ in 0..from.chars().count() {
        walk.chord(Modifiers::SHIFT, Key::ArrowRight);
    }
    walk.type_text(to);
    Ok(())
}
