//! Expert playouts per second on one core: the expert decides at the
//! first move of `N` fresh 2-player games with the script's default
//! settings (1 s per move) and reports its playout rate.
//!
//! `taskset -c 1 cargo run --release -p tessera-azul --example expert_speed [N] [SECONDS] [PLAYOUTS]`
use std::time::Instant;

use tessera_azul::ai::{AiSettings, AzulAgent, Level};
use tessera_azul::rules::{Rules, State};
use tessera_host::agent::{Budget, ThinkControl, Thinking, agent_rng};

fn main() {
    let mut args = std::env::args().skip(1);
    let games: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(5);
    let seconds: f64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(1.0);
    let mut settings = AiSettings::default();
    settings.expert.seconds = seconds;
    if let Some(playouts) = args.next().and_then(|a| a.parse().ok()) {
        settings.expert.playouts = playouts;
    }
    let (mut playouts, mut time) = (0u64, 0.0);
    for game in 0..games {
        let mut state = State::new(Rules::default(), 2);
        state.deal(&mut tessera_host::rng::game_rng(game), None);
        let mut agent = AzulAgent::new(Level::Expert, settings);
        let control = ThinkControl::default();
        let mut rng = agent_rng(game, 0, 0);
        let mut thinking = Thinking::new(&mut rng, Budget::unbounded(), &control);
        let started = Instant::now();
        let decision = agent.decide_state(&state, &mut thinking).expect("a move");
        time += started.elapsed().as_secs_f64();
        playouts += control.nodes();
        println!("game {game}: {:?} ({})", decision.action, control.note());
    }
    println!(
        "{playouts} playouts in {time:.2} s: {:.0} playouts/s (whole games from the first move)",
        playouts as f64 / time
    );
}
