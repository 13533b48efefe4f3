use rand::Rng;
use tessera_host::rng::game_rng;
use tessera_tetris::board::Board;
use tessera_tetris::level::{Goal, TetrisLevel};
use tessera_tetris::piece::{PieceKind, RotationSystem, orientation};
use tessera_tetris::solver::{solve, Verdict};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let pieces: usize = args[1].parse().unwrap();
    let rows: usize = args[2].parse().unwrap();
    let tries: u64 = args[3].parse().unwrap();
    let mut best: Option<(u64, TetrisLevel)> = None;
    for seed in 0..tries {
        let mut rng = game_rng(seed);
        // holes: carve pieces within bottom `rows` rows of a 10 wide board
        let mut holes = Board::new(10, rows);
        let mut seq = String::new();
        let mut ok = true;
        for _ in 0..pieces {
            let mut placed = false;
            for _ in 0..200 {
                let k = PieceKind::ALL[rng.random_range(0..7)];
                let s = rng.random_range(0..4u8);
                let x = rng.random_range(-2..10);
                let y = rng.random_range(-2..rows as i32);
                let o = orientation(k, s);
                let cells: Vec<(i32,i32)> = o.cells.iter().map(|&(dx,dy)| (x+dx as i32, y+dy as i32)).collect();
                if cells.iter().all(|&(cx,cy)| cx>=0 && cy>=0 && cx<10 && (cy as usize)<rows && !holes.filled(cx,cy)) {
                    // must touch existing holes or bottom row
                    let touches = holes.is_empty() || cells.iter().any(|&(cx,cy)| [(1,0),(-1,0),(0,1),(0,-1)].iter().any(|(a,b)| { let (nx,ny)=(cx+a,cy+b); nx>=0&&ny>=0&&nx<10&&(ny as usize)<rows&&holes.filled(nx,ny)}));
                    if !touches { continue; }
                    for &(cx,cy) in &cells { holes.set(cx as usize, cy as usize, true); }
                    seq.push(k.letter());
                    placed = true; break;
                }
            }
            if !placed { ok = false; break; }
        }
        if !ok { continue; }
        let garbage: Vec<String> = (0..rows).map(|y| (0..10).map(|x| if holes.filled(x, y as i32) {'.'} else {'G'}).collect()).collect();
        if garbage.iter().any(|r| !r.contains('.')) { continue; }
        // shuffle sequence
        let mut chars: Vec<char> = seq.chars().collect();
        for i in (1..chars.len()).rev() { let j = rng.random_range(0..=i); chars.swap(i,j); }
        let level = TetrisLevel { version: 1, rows: 10, columns: 10, hidden_rows: 2, goal: Goal::ClearGarbage, garbage, sequence: chars.into_iter().collect(), rotation: Some("srs".into()), ..Default::default() };
        let r = solve(&level, RotationSystem::Srs, &mut |n| n < 100_000);
        if let Verdict::Solvable(_) = r.verdict {
            if best.as_ref().is_none_or(|b| r.nodes > b.0) { best = Some((r.nodes, level)); }
        }
    }
    if let Some((n, l)) = best { println!("nodes {n}\n{}\nseq {}", l.garbage.join("\n"), l.sequence); let c = solve(&l, RotationSystem::Cycle, &mut |n| n < 100_000); println!("cycle {:?}", c.verdict); }
}
