//! `tessera play GAME`: plays a game headless from an action file or with
//! random legal moves, and prints the score, the chain log and the outcome.
//!
//! Each game that supports headless play adds one arm to [`run`].

use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use rand::Rng;
use tessera_host::Game;
use tessera_host::level::{Diagnostic, LevelFile, load_level, parse_ron, read_text};
use tessera_host::rng::game_rng;
use tessera_sand::{Sand, SandAction, SandLevel};

use crate::Status;

/// Arguments of `tessera play`.
#[derive(clap::Args)]
pub struct Args {
    /// Game id (`tessera games` lists them).
    game: String,
    /// The session's seed.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// A RON list of actions, e.g. `[Place(slot: 0, x: 4, y: 0), Tick(30), Settle]`.
    #[arg(long, conflicts_with = "random_play")]
    actions: Option<PathBuf>,
    /// Play this many turns of random legal moves instead.
    #[arg(long, value_name = "TURNS")]
    random_play: Option<u32>,
    /// Level file (default: the game's default level).
    #[arg(long)]
    level: Option<PathBuf>,
    /// Also print the board as text.
    #[arg(long)]
    render: bool,
    /// Print the final state as JSON instead of text.
    #[arg(long)]
    json: bool,
}

/// Runs `tessera play`.
pub fn run(args: &Args) -> anyhow::Result<Status> {
    match args.game.as_str() {
        "sand" => play_sand(args),
        other => {
            if tessera_builtin::registry().get(other).is_some() {
                bail!("`play` does not support `{other}` yet");
            }
            bail!("unknown game `{other}` (see `tessera games`)")
        }
    }
}

fn load_sand_level(path: Option<&Path>) -> anyhow::Result<SandLevel> {
    let Some(path) = path else {
        return Ok(SandLevel::default());
    };
    let level: SandLevel = load_level(path)?;
    if let Some(error) = level.diagnose().into_iter().find(Diagnostic::is_error) {
        return Err(Diagnostic {
            path: path.to_path_buf(),
            ..error
        }
        .into());
    }
    Ok(level)
}

fn play_sand(args: &Args) -> anyhow::Result<Status> {
    if args.actions.is_none() && args.random_play.is_none() {
        bail!("give --actions FILE or --random-play TURNS");
    }
    let mut project = super::current_project(tessera_builtin::registry())?;
    let script_path = project.game_script_path(Sand::ID);
    let script = project
        .script(&script_path)
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let level = load_sand_level(args.level.as_deref())?;
    let mut game = Sand::start(level, script, args.seed).map_err(|e| anyhow::anyhow!("{e}"))?;
    let mut failure = None;
    if let Some(path) = &args.actions {
        let text = read_text(path)?;
        let actions: Vec<SandAction> = parse_ron(&text, path)?;
        for (index, action) in actions.iter().enumerate() {
            let result = game.apply(action);
            print_messages(&mut game);
            if let Err(error) = result {
                failure = Some(format!(
                    "{}: action {} `{}`: {error}",
                    path.display(),
                    index + 1,
                    action_text(action)
                ));
                break;
            }
        }
    }
    if let Some(turns) = args.random_play {
        let mut rng = game_rng(args.seed ^ 0x5eed_5a4d);
        for _ in 0..turns {
            if game.outcome().is_over() {
                break;
            }
            let moves = game.legal_placements();
            if moves.is_empty() {
                break;
            }
            let action = moves[rng.random_range(0..moves.len())];
            game.apply(&action)
                .with_context(|| format!("random move `{}`", action_text(&action)))?;
            game.settle()?;
            print_messages(&mut game);
        }
    }
    if args.json {
        println!("{}", serde_json::to_string_pretty(&sand_json(&game, args))?);
    } else {
        print!("{}", sand_summary(&game, args));
    }
    if let Some(failure) = failure {
        eprintln!("tessera: {failure}");
        return Ok(Status::Failed);
    }
    Ok(Status::Ok)
}

fn print_messages(game: &mut Sand) {
    for message in game.take_messages() {
        if message.is_error {
            eprintln!("script error: {}", message.text);
        } else {
            eprintln!("script: {}", message.text);
        }
    }
}

fn action_text(action: &SandAction) -> String {
    ron::to_string(action).unwrap_or_else(|_| format!("{action:?}"))
}

fn letter(game: &Sand, colour: u8) -> char {
    game.palette()
        .get(usize::from(colour))
        .map(|c| c.letter)
        .unwrap_or('?')
}

/// The text summary: header, chain log, outcome, and the grid when asked.
fn sand_summary(game: &Sand, args: &Args) -> String {
    let mut out = format!(
        "sand  seed {}  ticks {}  placed {}  grains {}  score {}\n",
        args.seed,
        game.tick(),
        game.placed(),
        game.grid().grain_count(),
        game.score()
    );
    out.push_str("chain log:\n");
    if game.chain_log().is_empty() {
        out.push_str("  (no clears)\n");
    }
    for round in game.chain_log() {
        for cluster in &round.clusters {
            out.push_str(&format!(
                "  tick {}  chain x{}  {} {} grains ({} cells)  +{}\n",
                round.tick,
                round.chain,
                letter(game, cluster.colour),
                cluster.grains,
                cluster.cells,
                cluster.points
            ));
        }
    }
    let slots: Vec<String> = game
        .slots()
        .iter()
        .map(|p| format!("{}{}", letter(game, p.colour), p.shape))
        .collect();
    out.push_str(&format!("slots: {}\n", slots.join(" ")));
    out.push_str(&format!("outcome: {}\n", game.outcome()));
    if args.render {
        out.push_str(&game.grid_text());
    }
    out
}

fn sand_json(game: &Sand, args: &Args) -> serde_json::Value {
    let slots: Vec<serde_json::Value> = game
        .slots()
        .iter()
        .map(|p| {
            serde_json::json!({
                "shape": p.shape.to_string(),
                "colour": game.palette().get(usize::from(p.colour)).map(|c| c.name.clone()),
            })
        })
        .collect();
    let grid: Vec<String> = game.grid_text().lines().map(str::to_string).collect();
    serde_json::json!({
        "game": "sand",
        "seed": args.seed,
        "tick": game.tick(),
        "placed": game.placed(),
        "score": game.score(),
        "grains": game.grid().grain_count(),
        "cleared_grains": game.cleared_grains(),
        "outcome": game.outcome().to_string(),
        "chain_log": game.chain_log(),
        "slots": slots,
        "width": game.grid().width(),
        "height": game.grid().height(),
        "grid": grid,
    })
}
