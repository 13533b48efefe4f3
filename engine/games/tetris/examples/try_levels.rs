use tessera_tetris::level::TetrisLevel;
use tessera_tetris::piece::RotationSystem;
use tessera_tetris::solver::solve;
use tessera_host::level::parse_level;
fn main() {
    for path in std::env::args().skip(1) {
        let text = std::fs::read_to_string(&path).unwrap();
        let level: TetrisLevel = parse_level(&text, std::path::Path::new(&path)).unwrap();
        for sys in [RotationSystem::Srs, RotationSystem::Cycle] {
            let r = solve(&level, sys, &mut |_| true);
            println!("{path} {sys}: {:?} nodes {}", r.verdict, r.nodes);
        }
    }
}
