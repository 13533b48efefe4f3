// Scratch experiment for #37's 4x4x4 target (not kept).
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rand::SeedableRng;
use tessera_host::rng::GameRng;
use tessera_polycube::generate::cut;
use tessera_polycube::generate::design::Design;
use tessera_polycube::geometry::{Cell, orientations};
use tessera_polycube::{CountOptions, Solver};

fn spans(cells: &[Cell]) -> usize {
    (0..3)
        .filter(|&k| {
            let lo = cells.iter().map(|c| c[k]).min().unwrap();
            let hi = cells.iter().map(|c| c[k]).max().unwrap();
            hi > lo
        })
        .count()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let sizes: Vec<usize> = args[1].split(',').map(|s| s.parse().unwrap()).collect();
    let filter: &str = &args[2];
    let n: usize = args[3].parse().unwrap();
    let cap: u64 = args[4].parse().unwrap();
    let seed: u64 = args.get(5).map_or(1, |s| s.parse().unwrap());
    let stretch: f64 = args.get(6).map_or(1.0, |s| s.parse().unwrap());
    let size = [4, 4, 4];
    if filter == "anneal" {
        let mn = *sizes.iter().min().unwrap();
        let mx = *sizes.iter().max().unwrap();
        let budget: u64 = args.get(6).map_or(1 << 20, |s| s.parse().unwrap());
        let temp: f64 = args.get(7).map_or(1.0, |s| s.parse().unwrap());
        anneal(mn, mx, &sizes, seed, cap, budget, temp);
        let _ = n;
        return;
    }
    let mut rng = GameRng::seed_from_u64(seed);
    let mut done = 0;
    let mut drawn = 0;
    while done < n {
        let mut s = sizes.clone();
        use rand::seq::SliceRandom;
        s.shuffle(&mut rng);
        let Some(d) = cut::stretched(size, &s, stretch, &mut rng) else {
            continue;
        };
        drawn += 1;
        let shapes = d.shapes();
        let ok = match filter {
            "any" => true,
            "solid" => shapes.iter().all(|c| spans(c) == 3),
            "chiral" => shapes
                .iter()
                .all(|c| spans(c) == 3 && orientations(c).len() == 24),
            "tight" => {
                shapes
                    .iter()
                    .all(|c| spans(c) == 3 && orientations(c).len() == 24)
                    && !cut::loose(&d)
            }
            _ => panic!(),
        };
        if !ok {
            continue;
        }
        done += 1;
        let solver = Solver::new(size, &shapes).unwrap();
        if filter == "any" && std::env::var("PROOF").is_ok() {
            for threads in [1usize, 2] {
                let t = Instant::now();
                let w = if threads == 1 {
                    solver
                        .distinct_within(1 << 20, u64::MAX, &AtomicBool::new(false))
                        .unwrap()
                } else {
                    solver
                        .distinct_parallel(1 << 20, 2, &AtomicBool::new(false))
                        .unwrap()
                };
                println!(
                    "proof threads {threads}: {} distinct, {} nodes, {:.2}s",
                    w.found.len(),
                    w.nodes,
                    t.elapsed().as_secs_f64()
                );
            }
            return;
        }
        let cancel = Arc::new(AtomicBool::new(false));
        let c2 = cancel.clone();
        let t0 = Instant::now();
        let timer = std::thread::spawn(move || {
            let end = Instant::now() + Duration::from_secs(cap);
            while Instant::now() < end && !c2.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(50));
            }
            c2.store(true, Ordering::Relaxed);
        });
        let opts = CountOptions {
            threads: 2,
            ..CountOptions::default()
        };
        let r = solver.count_with(&opts, &cancel, &mut |_| {}).unwrap();
        let el = t0.elapsed();
        let complete = r.complete && el.as_secs() < cap;
        cancel.store(true, Ordering::Relaxed);
        timer.join().unwrap();
        let score = cut::score(&d);
        let tk = Instant::now();
        let mut krng = GameRng::seed_from_u64(7);
        let (kn, kl) = knuth(&shapes, 2000, &mut krng);
        println!(
            "  knuth(2000 paths, {:.2}s): tree {:.3e} leaves {:.3e} ~distinct {:.3e}",
            tk.elapsed().as_secs_f64(),
            kn,
            kl,
            kl / 24.0
        );
        println!(
            "cut {done} (drawn {drawn}) score {score:.1} placements {} distinct {} nodes {} {} in {:.1}s",
            solver.placements(),
            r.counts.distinct,
            r.nodes,
            if complete { "complete" } else { "STOPPED" },
            el.as_secs_f64()
        );
        let _ = Design::clone(&d);
    }
}

/// Knuth's random-path estimate over the lowest-empty-cell tree of a 4x4x4:
/// (tree nodes, raw leaves) averaged over `paths` paths.
pub fn knuth(shapes: &[Vec<Cell>], paths: usize, rng: &mut GameRng) -> (f64, f64) {
    use rand::Rng;
    // placements[kind] by lowest cell: list of masks
    let mut by_cell: Vec<Vec<(usize, u64)>> = vec![Vec::new(); 64];
    for (k, s) in shapes.iter().enumerate() {
        let mut seen = std::collections::HashSet::new();
        for o in orientations(s) {
            let far = tessera_polycube::geometry::max_corner(&o.cells).unwrap();
            for dz in 0..(4 - far[2]).max(0) {
                for dy in 0..(4 - far[1]).max(0) {
                    for dx in 0..(4 - far[0]).max(0) {
                        let mut m = 0u64;
                        for c in &o.cells {
                            let (x, y, z) = (c[0] + dx, c[1] + dy, c[2] + dz);
                            m |= 1 << (x + 4 * y + 16 * z);
                        }
                        if seen.insert(m) {
                            by_cell[m.trailing_zeros() as usize].push((k, m));
                        }
                    }
                }
            }
        }
    }
    let n = shapes.len();
    let (mut nodes, mut leaves) = (0.0, 0.0);
    let mut kids: Vec<(usize, u64)> = Vec::new();
    for _ in 0..paths {
        let mut filled = 0u64;
        let mut used = vec![false; n];
        let mut w = 1.0;
        loop {
            nodes += w;
            if filled == u64::MAX {
                leaves += w;
                break;
            }
            let c = (!filled).trailing_zeros() as usize;
            kids.clear();
            kids.extend(
                by_cell[c]
                    .iter()
                    .filter(|(k, m)| !used[*k] && m & filled == 0 && !isolated(filled | m)),
            );
            if kids.is_empty() {
                break;
            }
            w *= kids.len() as f64;
            let (k, m) = kids[rng.random_range(0..kids.len())];
            used[k] = true;
            filled |= m;
        }
    }
    (nodes / paths as f64, leaves / paths as f64)
}

fn isolated(filled: u64) -> bool {
    let e = !filled;
    let mut open = 0u64;
    for i in 0..64 {
        if e >> i & 1 == 1 {
            let (x, y, z) = (i % 4, (i / 4) % 4, i / 16);
            let has = (x > 0 && e >> (i - 1) & 1 == 1)
                || (x < 3 && e >> (i + 1) & 1 == 1)
                || (y > 0 && e >> (i - 4) & 1 == 1)
                || (y < 3 && e >> (i + 4) & 1 == 1)
                || (z > 0 && e >> (i - 16) & 1 == 1)
                || (z < 3 && e >> (i + 16) & 1 == 1);
            if !has {
                open |= 1 << i;
            }
        }
    }
    open != 0
}

pub fn neighbours64(i: usize) -> impl Iterator<Item = usize> {
    let (x, y, z) = (i % 4, (i / 4) % 4, i / 16);
    [
        (x > 0).then(|| i - 1),
        (x < 3).then(|| i + 1),
        (y > 0).then(|| i - 4),
        (y < 3).then(|| i + 4),
        (z > 0).then(|| i - 16),
        (z < 3).then(|| i + 16),
    ]
    .into_iter()
    .flatten()
}

/// Re-cuts the union of two touching pieces into two connected pieces.
pub fn recut(d: &Design, min: usize, max: usize, rng: &mut GameRng) -> Option<Design> {
    use rand::Rng;
    let a = d.owner[rng.random_range(0..64)];
    let cells_a: Vec<usize> = (0..64).filter(|&i| d.owner[i] == a).collect();
    let mut nb: Vec<usize> = cells_a
        .iter()
        .flat_map(|&i| neighbours64(i))
        .map(|n| d.owner[n])
        .filter(|&o| o != a)
        .collect();
    nb.sort_unstable();
    nb.dedup();
    if nb.is_empty() {
        return None;
    }
    let b = nb[rng.random_range(0..nb.len())];
    let u: Vec<usize> = (0..64)
        .filter(|&i| d.owner[i] == a || d.owner[i] == b)
        .collect();
    let total = u.len();
    let lo = min.max(total.saturating_sub(max));
    let hi = max.min(total - min);
    if lo > hi {
        return None;
    }
    for _ in 0..30 {
        let sa = rng.random_range(lo..=hi);
        let start = u[rng.random_range(0..total)];
        let mut mine = vec![start];
        let mut front: Vec<usize> = neighbours64(start).filter(|n| u.contains(n)).collect();
        while mine.len() < sa {
            front.retain(|n| !mine.contains(n));
            if front.is_empty() {
                break;
            }
            let n = front.swap_remove(rng.random_range(0..front.len()));
            mine.push(n);
            front.extend(neighbours64(n).filter(|m| u.contains(m) && !mine.contains(m)));
        }
        if mine.len() != sa {
            continue;
        }
        let rest: Vec<Cell> = u
            .iter()
            .filter(|i| !mine.contains(i))
            .map(|&i| d.cell(i))
            .collect();
        if !tessera_polycube::geometry::is_connected(&rest) {
            continue;
        }
        let mut next = d.clone();
        for &i in &u {
            next.owner[i] = if mine.contains(&i) { a } else { b };
        }
        if next == *d {
            continue;
        }
        return Some(next);
    }
    None
}

/// (found, nodes, complete) of distinct packings within a budget.
pub fn probe(d: &Design, limit: usize, budget: u64) -> (usize, u64, bool) {
    let s = Solver::new([4, 4, 4], &d.shapes()).unwrap();
    let w = s
        .distinct_within(limit, budget, &AtomicBool::new(false))
        .unwrap();
    (w.found.len(), w.nodes, w.complete)
}

pub fn cost(p: (usize, u64, bool), budget: u64) -> f64 {
    let (f, n, complete) = p;
    let lim: usize = std::env::var("LIM").map_or(32, |v| v.parse().unwrap());
    if complete && f < lim {
        return (f as f64).max(0.5).ln();
    }
    // packings per budget: extrapolate to the budget
    ((f as f64).max(0.5) * (budget as f64 / n.max(1) as f64)).ln() + 1.0
}

/// Two-stage: a cheap probe; a sparse design gets a deep one (exact count).
pub fn eval(d: &Design, budget: u64) -> (f64, (usize, u64, bool), bool) {
    if std::env::var("TREE").is_ok() {
        // Small trees only: an exact count within the budget, else a penalty.
        let p = probe(d, 64, budget);
        if p.2 && p.0 < 64 {
            return ((p.0 as f64).max(0.5).ln(), p, false);
        }
        let f = if p.0 == 0 { 64.0 } else { p.0 as f64 };
        return ((f * budget as f64 / p.1.max(1) as f64).ln() + 4.0, p, false);
    }
    let p = probe(d, 32, budget);
    if p.0 >= 2 || (p.2 && p.0 < 32) {
        return (cost(p, budget), p, false);
    }
    let deep: u64 = std::env::var("DEEP").map_or(16_000_000, |v| v.parse().unwrap());
    let q = probe(d, 64, deep);
    let c = if q.2 && q.0 < 64 {
        (q.0 as f64).max(0.5).ln() - 5.0
    } else {
        ((q.0 as f64).max(0.5) * (deep as f64 / q.1.max(1) as f64)).ln() - 4.0
    };
    (c, q, true)
}

pub fn anneal(
    min: usize,
    max: usize,
    sizes: &[usize],
    seed: u64,
    secs: u64,
    budget: u64,
    temp0: f64,
) {
    use rand::Rng;
    use rand::seq::SliceRandom;
    let mut rng = GameRng::seed_from_u64(seed);
    let mut d = loop {
        let mut s = sizes.to_vec();
        s.shuffle(&mut rng);
        if let Some(d) = cut::stretched([4, 4, 4], &s, 1.0, &mut rng)
            && !cut::loose(&d)
        {
            break d;
        }
    };
    let t0 = Instant::now();
    let lim: usize = std::env::var("LIM").map_or(32, |v| v.parse().unwrap());
    let _ = lim;
    let (mut c, mut p, _) = eval(&d, budget);
    let mut best = c;
    let mut step = 0;
    while t0.elapsed().as_secs() < secs {
        step += 1;
        let Some(next) = recut(&d, min, max, &mut rng) else {
            continue;
        };
        if cut::loose(&next) {
            continue;
        }
        let (cq, q, deep) = eval(&next, budget);
        if deep {
            println!("   deep {:?} cost {cq:.2}", q);
        }
        let temp = temp0 * (1.0 - t0.elapsed().as_secs_f64() / secs as f64).max(0.05);
        if cq <= c || rng.random::<f64>() < ((c - cq) / temp).exp() {
            d = next;
            p = q;
            c = cq;
            if c < best {
                best = c;
            }
        }
        if step % 20 == 0 || (p.0 <= 2) {
            println!(
                "{:6.1}s step {step} cost {c:.2} best {best:.2} probe {:?}",
                t0.elapsed().as_secs_f64(),
                p
            );
        }
        if false {
            let t1 = Instant::now();
            let full = probe(&d, 2, u64::MAX);
            println!(
                "  full search: {:?} in {:.1}s",
                full,
                t1.elapsed().as_secs_f64()
            );
            if full.0 == 1 {
                println!(
                    "UNIQUE at {:.1}s: {:?}",
                    t0.elapsed().as_secs_f64(),
                    d.canonical()
                );
                return;
            }
            p = full;
            c = cost(p, budget);
        }
        if p.0 == 1 && p.2 {
            println!(
                "UNIQUE at {:.1}s: {:?}",
                t0.elapsed().as_secs_f64(),
                d.canonical()
            );
            return;
        }
    }
}
