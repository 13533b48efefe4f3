//! `azulbot-match`: Tessera's Azul expert against gleb-t/AzulBot (a C++
//! MCTS whose playouts are uniformly random), 2 seats, equal wall time
//! per move, seats swapped every game. Tessera's rules referee every
//! move; AzulBot sees each position through `server.cpp`'s line protocol
//! and answers with a move, which must be legal here.
//!
//! `cargo run --release -p azulbot-match -- --server PATH --games N --move-ms MS`

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use anyhow::{Context, bail};
use clap::Parser;
use tessera_azul::ai::{AiSettings, AzulAgent, ExpertMemory, Level};
use tessera_azul::rules::{CENTRE, COLOURS, FLOOR, LINES, Move, MoveList, Rules, State};
use tessera_host::agent::{Budget, ThinkControl, Thinking, agent_rng};

#[derive(Parser)]
struct Args {
    /// The compiled AzulBot server (tools/azulbot/README.md).
    #[arg(long)]
    server: PathBuf,
    /// Games to play (seats swap every game).
    #[arg(long, default_value_t = 10)]
    games: u64,
    /// Wall-clock milliseconds per move, for both players.
    #[arg(long, default_value_t = 250)]
    move_ms: u64,
    /// Seed of the first game's deals (game i uses seed + i).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// The expert's trees (threads); 1 gives it AzulBot's one core.
    #[arg(long, default_value_t = 1)]
    threads: u32,
    /// The expert's playout horizon (rounds; 0 plays whole games).
    #[arg(long)]
    horizon: Option<u32>,
}

/// The AzulBot process and its pipes.
struct Peer {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Peer {
    fn start(path: &PathBuf) -> anyhow::Result<Self> {
        let mut child = Command::new(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .with_context(|| format!("cannot start {}", path.display()))?;
        let input = child.stdin.take().context("no stdin")?;
        let output = BufReader::new(child.stdout.take().context("no stdout")?);
        Ok(Self {
            child,
            input,
            output,
        })
    }

    /// AzulBot's move at `state` after `millis` of search, and its
    /// playout count.
    fn decide(&mut self, state: &State, millis: u64) -> anyhow::Result<(Move, u64)> {
        writeln!(self.input, "{}", encode(state, millis))?;
        self.input.flush()?;
        let mut line = String::new();
        self.output.read_line(&mut line)?;
        let numbers: Vec<u64> = line
            .split_whitespace()
            .map(str::parse)
            .collect::<Result<_, _>>()
            .with_context(|| format!("AzulBot answered {line:?}"))?;
        let [bin, colour, queue, playouts] = numbers[..] else {
            bail!("AzulBot answered {line:?}");
        };
        let source = if bin == 5 { CENTRE } else { bin as u8 };
        let target = if queue == 5 { FLOOR } else { queue as u8 };
        let mv = Move {
            source,
            colour: colour.checked_sub(1).context("colour 0")? as u8,
            target,
        };
        Ok((mv, playouts))
    }
}

impl Drop for Peer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `state` in AzulBot's encoding (server.cpp): colours 1-5, bins 0-4 the
/// factories and 5 the centre, queue 5 the floor.
fn encode(state: &State, millis: u64) -> String {
    let mut out: Vec<u64> = vec![
        millis,
        u64::from(state.to_move),
        u64::from(state.next_first),
        u64::from(!state.marker_in_centre),
    ];
    out.push(0);
    out.extend(state.bag.iter().map(|&n| u64::from(n)));
    for f in 0..5 {
        out.push(0);
        out.extend(state.factories[f].iter().map(|&n| u64::from(n)));
    }
    out.push(0);
    out.extend(state.centre.iter().map(|&n| u64::from(n)));
    for board in &state.boards[..2] {
        for row in 0..LINES {
            for column in 0..LINES {
                let bit = 1u32 << (row * 5 + column);
                let colour = (0..COLOURS).find(|&k| board.colours[k] & bit != 0);
                out.push(colour.map_or(0, |k| k as u64 + 1));
            }
        }
        for line in &board.lines {
            let colour = if line.count > 0 {
                u64::from(line.colour) + 1
            } else {
                0
            };
            out.extend([colour, u64::from(line.count)]);
        }
        out.push(u64::from(board.floor_len));
        out.push(board.score.max(0) as u64);
    }
    out.iter().map(u64::to_string).collect::<Vec<_>>().join(" ")
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let mut peer = Peer::start(&args.server)?;
    let mut settings = AiSettings::default();
    settings.expert.seconds = args.move_ms as f64 / 1000.0;
    settings.expert.threads = args.threads;
    if let Some(horizon) = args.horizon {
        settings.expert.horizon = horizon;
    }
    let (mut wins, mut ties, mut ours, mut theirs) = (0.0, 0, 0i64, 0i64);
    let (mut our_playouts, mut their_playouts, mut our_moves, mut their_moves) = (0, 0, 0, 0);
    for game in 0..args.games {
        let seed = args.seed + game;
        let expert_seat = (game % 2) as usize;
        let mut deals = tessera_host::rng::game_rng(seed);
        let mut state = State::new(Rules::default(), 2);
        state.deal(&mut deals, None);
        let memory = ExpertMemory::default();
        let mut agent = AzulAgent::new(Level::Expert, settings).with_memory(memory, expert_seat);
        let mut moves = MoveList::default();
        let mut turn = 0;
        while !state.over {
            let mv = if usize::from(state.to_move) == expert_seat {
                let control = ThinkControl::default();
                let mut rng = agent_rng(seed, expert_seat, turn);
                let mut thinking = Thinking::new(&mut rng, Budget::unbounded(), &control);
                let decision = agent
                    .decide_state(&state, &mut thinking)
                    .map_err(|e| anyhow::anyhow!("expert: {e}"))?;
                our_playouts += control.nodes();
                our_moves += 1;
                decision.action
            } else {
                let (mv, playouts) = peer.decide(&state, args.move_ms)?;
                their_playouts += playouts;
                their_moves += 1;
                mv
            };
            state.legal_moves(&mut moves);
            if !moves.as_slice().contains(&mv) {
                bail!("game {game}: {mv:?} is not legal here");
            }
            state.step(mv, &mut deals);
            turn += 1;
        }
        let (winners, count) = state.winners();
        let (mine, other) = (
            state.boards[expert_seat].score,
            state.boards[1 - expert_seat].score,
        );
        ours += i64::from(mine);
        theirs += i64::from(other);
        if winners[expert_seat] {
            if count > 1 {
                ties += 1;
                wins += 0.5;
            } else {
                wins += 1.0;
            }
        }
        println!(
            "game {game} (seed {seed}, expert seat {expert_seat}): expert {mine}, AzulBot {other}{}",
            if winners[expert_seat] {
                " (expert wins)"
            } else {
                ""
            }
        );
    }
    let games = args.games.max(1) as f64;
    println!(
        "expert won {wins} of {} ({ties} ties); mean score {:.1} to {:.1}; playouts a move: expert {:.0}, AzulBot {:.0}",
        args.games,
        ours as f64 / games,
        theirs as f64 / games,
        our_playouts as f64 / f64::from(our_moves.max(1)),
        their_playouts as f64 / f64::from(their_moves.max(1)),
    );
    Ok(())
}
