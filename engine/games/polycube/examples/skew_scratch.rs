// Scratch experiment for #37's 4x4x4 target, round 4 (not kept): skewed
// cuts, a few large twisted pieces and small distinct ones.
#![allow(clippy::all)]
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng};
use tessera_host::rng::GameRng;
use tessera_polycube::generate::cut;
use tessera_polycube::generate::design::Design;
use tessera_polycube::geometry::{Cell, orientations, signature};
use tessera_polycube::{CountOptions, Solver};

const FREE: usize = usize::MAX;
static STATS: [std::sync::atomic::AtomicUsize; 4] = [const { std::sync::atomic::AtomicUsize::new(0) }; 4];

fn at(i: usize) -> [i32; 3] {
    [(i % 4) as i32, ((i / 4) % 4) as i32, (i / 16) as i32]
}

fn nb(i: usize) -> impl Iterator<Item = usize> {
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

fn spans(cells: &[Cell]) -> usize {
    (0..3)
        .filter(|&k| {
            let lo = cells.iter().map(|c| c[k]).min().unwrap();
            let hi = cells.iter().map(|c| c[k]).max().unwrap();
            hi > lo
        })
        .count()
}

/// Grows piece `p` of `target` cells from a random free cell, stretched.
fn grow(owner: &mut [usize], p: usize, target: usize, stretch: f64, rng: &mut GameRng) -> bool {
    let free: Vec<usize> = (0..64).filter(|&i| owner[i] == FREE).collect();
    if free.is_empty() {
        return false;
    }
    let start = free[rng.random_range(0..free.len())];
    let origin = at(start);
    owner[start] = p;
    let mut cells = vec![start];
    for _ in 1..target {
        let mut frontier: Vec<usize> = cells
            .iter()
            .flat_map(|&c| nb(c))
            .filter(|&n| owner[n] == FREE)
            .collect();
        frontier.sort_unstable();
        frontier.dedup();
        if frontier.is_empty() {
            for &c in &cells {
                owner[c] = FREE;
            }
            return false;
        }
        let w: Vec<f64> = frontier
            .iter()
            .map(|&n| {
                let c = at(n);
                let d: i32 = (0..3).map(|k| (c[k] - origin[k]).abs()).sum();
                1.0 + stretch * (d * d) as f64
            })
            .collect();
        let total: f64 = w.iter().sum();
        let mut pick = rng.random_range(0.0..total);
        let mut chosen = frontier.len() - 1;
        for (k, x) in w.iter().enumerate() {
            if pick < *x {
                chosen = k;
                break;
            }
            pick -= x;
        }
        owner[frontier[chosen]] = p;
        cells.push(frontier[chosen]);
    }
    true
}

/// Fills the free cells with `count` pieces of `lo..=hi` cubes, all of
/// distinct shapes (and distinct from `used`): a depth-first search from the
/// lowest free cell, random pieces tried at each level.
fn fill_small(
    owner: &mut [usize],
    first: usize,
    count: usize,
    lo: usize,
    hi: usize,
    used: &mut Vec<Vec<Cell>>,
    budget: &mut usize,
    rng: &mut GameRng,
) -> bool {
    let free: usize = owner.iter().filter(|&&o| o == FREE).count();
    if count == 0 {
        return free == 0;
    }
    if free < count * lo || free > count * hi || *budget == 0 {
        return false;
    }
    // Every free region must hold whole pieces.
    if !regions_ok(owner, lo) {
        return false;
    }
    let Some(start) = (0..64).find(|&i| owner[i] == FREE) else {
        return false;
    };
    let p = first;
    for _ in 0..12 {
        *budget = budget.saturating_sub(1);
        if *budget == 0 {
            return false;
        }
        let target = rng.random_range(lo..=hi);
        let mut cells = vec![start];
        owner[start] = p;
        let mut ok = true;
        for _ in 1..target {
            let mut frontier: Vec<usize> = cells
                .iter()
                .flat_map(|&c| nb(c))
                .filter(|&n| owner[n] == FREE)
                .collect();
            frontier.sort_unstable();
            frontier.dedup();
            if frontier.is_empty() {
                ok = false;
                break;
            }
            let n = frontier[rng.random_range(0..frontier.len())];
            owner[n] = p;
            cells.push(n);
        }
        if ok {
            let sig = signature(&cells.iter().map(|&i| at(i)).collect::<Vec<_>>());
            if std::env::var("DUPES").is_ok() || !used.contains(&sig) {
                used.push(sig);
                if fill_small(owner, first + 1, count - 1, lo, hi, used, budget, rng) {
                    return true;
                }
                used.pop();
            }
        }
        for &c in &cells {
            owner[c] = FREE;
        }
    }
    false
}

/// Whether every connected region of free cells has at least `lo` cells.
fn regions_ok(owner: &[usize], lo: usize) -> bool {
    let mut seen = [false; 64];
    for s in 0..64 {
        if owner[s] != FREE || seen[s] {
            continue;
        }
        let mut stack = vec![s];
        seen[s] = true;
        let mut n = 0;
        while let Some(c) = stack.pop() {
            n += 1;
            for m in nb(c) {
                if owner[m] == FREE && !seen[m] {
                    seen[m] = true;
                    stack.push(m);
                }
            }
        }
        if n < lo {
            return false;
        }
    }
    true
}

fn shape(owner: &[usize], p: usize) -> Vec<Cell> {
    (0..64).filter(|&i| owner[i] == p).map(at).collect()
}

/// A skewed cut: `big` pieces twisted (spanning 3 axes, 24 turns), then
/// `small` pieces of sizes in `lo..=hi`, all distinct shapes, not loose.
fn skewed(
    big: &[usize],
    small: usize,
    lo: usize,
    hi: usize,
    stretch: f64,
    rng: &mut GameRng,
) -> Option<Design> {
    let rest: usize = 64 - big.iter().sum::<usize>();
    if small * lo > rest || small * hi < rest {
        return None;
    }
    'outer: for _ in 0..200 {
        let mut owner = vec![FREE; 64];
        for (p, &t) in big.iter().enumerate() {
            let mut ok = false;
            for _ in 0..2000 {
                if grow(&mut owner, p, t, stretch, rng) {
                    let s = shape(&owner, p);
                    let cap: usize = std::env::var("BIGMAX").map_or(10_000, |v| v.parse().unwrap());
                    if spans(&s) == 3 && orientations(&s).len() == 24 && cut::placements([4, 4, 4], &s) <= cap {
                        ok = true;
                        break;
                    }
                    for c in owner.iter_mut().filter(|c| **c == p) {
                        *c = FREE;
                    }
                }
            }
            if !ok {
                STATS[3].fetch_add(1, Ordering::Relaxed);
                continue 'outer;
            }
        }
        for _ in 0..20 {
            let mut o = owner.clone();
            let n = big.len() + small;
            let mut used: Vec<Vec<Cell>> = (0..big.len()).map(|p| signature(&shape(&o, p))).collect();
            let mut budget = 20_000;
            if !fill_small(&mut o, big.len(), small, lo, hi, &mut used, &mut budget, rng) {
                STATS[0].fetch_add(1, Ordering::Relaxed);
                continue;
            }
            let d = Design {
                size: [4, 4, 4],
                owner: o,
                pieces: n,
            };
            if cut::loose(&d) {
                STATS[2].fetch_add(1, Ordering::Relaxed);
                continue;
            }
            return Some(d);
        }
    }
    None
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    // skew_scratch BIG(12,10,9,8) SMALL_COUNT LO HI CUTS CAP SEED [STRETCH]
    let big: Vec<usize> = if args[1] == "-" {
        vec![]
    } else {
        args[1].split(',').map(|s| s.parse().unwrap()).collect()
    };
    let small: usize = args[2].parse().unwrap();
    let lo: usize = args[3].parse().unwrap();
    let hi: usize = args[4].parse().unwrap();
    let n: usize = args[5].parse().unwrap();
    let cap: u64 = args[6].parse().unwrap();
    let seed: u64 = args[7].parse().unwrap();
    let stretch: f64 = args.get(8).map_or(3.0, |s| s.parse().unwrap());
    let mut rng = GameRng::seed_from_u64(seed);
    for k in 0..n {
        let t = Instant::now();
        let drawn_cut = if std::env::var("CRATE").is_ok() {
            // The crate's skewed cut: SMALL_COUNT + 3 pieces of LO..HI.
            tessera_polycube::generate::skew::skewed([4, 4, 4], small + 3, (lo, hi), &mut rng)
        } else {
            skewed(&big, small, lo, hi, stretch, &mut rng)
        };
        let Some(d) = drawn_cut else {
            println!("cut {k}: none drawn {:?}", STATS.iter().map(|s| s.load(Ordering::Relaxed)).collect::<Vec<_>>());
            continue;
        };
        let drawn = t.elapsed().as_secs_f64();
        let shapes = d.shapes();
        let pl: Vec<usize> = shapes.iter().map(|s| cut::placements([4, 4, 4], s)).collect();
        let solver = Solver::new([4, 4, 4], &shapes).unwrap();
        let cancel = Arc::new(AtomicBool::new(false));
        let c2 = cancel.clone();
        let t0 = Instant::now();
        let timer = std::thread::spawn(move || {
            let end = Instant::now() + Duration::from_secs(cap);
            while Instant::now() < end && !c2.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(20));
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
        println!(
            "cut {k} (drawn {drawn:.2}s) score {:.1} placements {:?} distinct {} nodes {} {} in {:.2}s",
            cut::score(&d),
            pl,
            r.counts.distinct,
            r.nodes,
            if complete { "complete" } else { "STOPPED" },
            el.as_secs_f64()
        );
    }
}
