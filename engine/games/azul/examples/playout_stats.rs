//! Moves and rounds per random 2-player game (sanity figures for the bench).
use tessera_azul::ai::random_playout;
use tessera_azul::rules::{Rules, State};
fn main() {
    let mut rng = tessera_host::rng::game_rng(1);
    let (mut moves, mut rounds) = (0u64, 0u64);
    let n = 20000;
    let t = std::time::Instant::now();
    for _ in 0..n {
        let mut s = State::new(Rules::default(), 2);
        s.deal(&mut rng, None);
        moves += u64::from(random_playout(&mut s, &mut rng));
        rounds += u64::from(s.round);
    }
    let e = t.elapsed();
    println!(
        "{} moves/game, {} rounds/game, {:.0} games/s",
        moves as f64 / n as f64,
        rounds as f64 / n as f64,
        n as f64 / e.as_secs_f64()
    );
}
