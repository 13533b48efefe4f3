-- Tetris (classic): every number a designer may tune. The engine reads
-- this table when a game starts and again at the next lock after the file
-- is saved (so a new score for 4 lines applies to the next tetris). The
-- functions are called per lock, never per frame.

-- Points per lock, by lines cleared at once (the seed: 10/30/50/70).
local line_points = { 10, 30, 50, 70 }

return {
  -- Game time runs in ticks; DAS, ARR, lock delay and soft drop are in
  -- ticks so headless runs and replays are exact.
  ticks_per_second = 60,

  -- Seconds per row of gravity, level 0 first. Level 0 is the seed's 2 s;
  -- the seed leaves levels 1-9 open. Must be decreasing and positive.
  fall_seconds = { 2.0, 1.6, 1.3, 1.05, 0.85, 0.7, 0.55, 0.42, 0.3, 0.2 },

  -- Rows per tick while the down key is held: one row every N ticks.
  soft_drop_ticks = 2,

  -- Ticks a piece may rest on the stack before it locks. 0 = the seed's
  -- instant lock (at the next gravity step). Moves and turns on the ground
  -- restart the delay up to `lock_resets` times per piece.
  lock_delay_ticks = 0,
  lock_resets = 15,

  -- Auto-repeat of a held left/right key: first repeat after `das_ticks`,
  -- then one every `arr_ticks` (0 = straight to the wall).
  das_ticks = 10,
  arr_ticks = 2,

  -- Next pieces shown (1-5) and the hold box.
  preview = 1,
  hold = false,

  -- "cycle": the seed's rule (next orientation, refused if it collides);
  -- "srs": Super Rotation System with wall kicks.
  rotation = "cycle",

  -- "bag": each 7 pieces hold one of each; "uniform": independent draws.
  randomizer = "bag",

  -- Points for one lock that cleared `lines` (1-4) rows at `level`.
  score = function(lines, level)
    return line_points[lines] or 0
  end,

  -- The level for a score: level k is passed at 1000*k points (seed).
  level_for = function(score)
    return math.min(math.floor(score / 1000), 9)
  end,

  -- The marathon goal: passing level 9 (9000 points) wins (seed).
  won = function(score, level, lines)
    return score >= 9000
  end,

  -- The AI (seed 004). Each difficulty is read once per decision; edit a
  -- weight, save, and the next decision uses it. Names are the AI levels
  -- seats use (`ai:god`), weakest first. `tessera check` reads all of it.
  --   weights: the score is the sum of weight x metric. Metrics, measured
  --     after the piece locks and full rows clear: holes, holesCreated,
  --     blockades, wellSums, maxHeight, aggregateHeight, bumpiness,
  --     linesCleared, edgeDistance, gameOverAfterMove (0 or 1),
  --     rowTransitions, columnTransitions, landingHeight, erodedCells,
  --     highRows (rows of the stack above half the rows a piece may fill).
  --   noise: each score gets a random +-noise (EASY's mistakes).
  --   order: rank lexicographically instead, metric by metric (GOD);
  --     netBenefit = 3 x linesCleared - holesCreated; "score" = the
  --     weighted score as the last tie-break; with lookahead, also
  --     "nextTopOut" (1 when some next piece can only top out, 0 when every
  --     one survives, 0.5 outside the beam) and "lookahead" (the score plus
  --     the next piece's best score); with adversary "own" or "height",
  --     "linePlies" (pieces of the expected line the move's boards survive,
  --     up to `line_depth`; higher is better). The hate feeder reads an
  --     order without its lookahead values, "lookahead" read as "score".
  --   lookahead = 1: also weigh the next piece, for the best `beam`
  --     candidates of the one-piece ranking: the piece shown (classic
  --     preview), else the average over the seven, and in feed mode the
  --     worst the player may give (the seven and the special on offer).
  --   adversary (feed mode): "score" = that worst case; "height" = the
  --     piece whose lowest reachable stack is highest (HATETRIS's rule);
  --     "own" = the piece whose best landing by this row's own one-piece
  --     ranking leaves the highest stack (a player who reads the AI, the
  --     `hate` feeder's rule). With "height" or "own" the lookahead
  --     follows that one expected line `line_depth` pieces deep (0 =
  --     `lookahead`), keeping the best `line_beam` boards per ply (0 =
  --     `beam`); classic play keeps `lookahead` and `beam`.
  --   line_step (adversary "height" only): 0 = search afresh at every
  --     decision; N = keep the search for the next decision (the lines
  --     through the move played) and add N plies' worth of boards to it.
  --   off_line_order (adversary "own" only): the order for a player who
  --     does not feed the expected line, with the worst case over the
  --     offer 2 pieces deep in place of the line search. The row's own order ranks only once the player has given
  --     the piece a reader of the AI gives (the `hate` rule) `line_trust`
  --     times in a row (default 3; the AI log's readerStreak).
  --   decision_ms: the seed's thinking pause (presentation only).
  --   special_chance: feed mode's chance per turn of one special piece.
  --   ceiling_every: feed mode's ceiling drops a row every N AI pieces
  --     (a feed level may set its own).
  ai = {
    log_top = 5, -- candidates the AI log (S) lists
    difficulties = {
      { name = "EASY", noise = 2.0, decision_ms = 800, special_chance = 0.10, ceiling_every = 5,
        weights = { aggregateHeight = -0.51, linesCleared = 0.76, holes = -0.36,
                    wellSums = -0.18, blockades = -0.18, bumpiness = -0.18,
                    gameOverAfterMove = -1000 } },
      { name = "NORMAL", decision_ms = 500, special_chance = 0.08, ceiling_every = 8, noise = 1.0,
        weights = { aggregateHeight = -0.51, linesCleared = 0.76, holes = -0.36,
                    wellSums = -0.18, blockades = -0.18, bumpiness = -0.18,
                    gameOverAfterMove = -1000 } },
      { name = "HARD", decision_ms = 300, special_chance = 0.06, ceiling_every = 12, lookahead = 1, beam = 2, noise = 2.0,
        weights = { aggregateHeight = -0.51, linesCleared = 0.76, holes = -0.9,
                    holesCreated = -0.5, wellSums = -0.25, blockades = -0.3,
                    bumpiness = -0.18, rowTransitions = -0.2, columnTransitions = -0.3,
                    gameOverAfterMove = -1000 } },
      -- The seed's section 3.2 order, literally: against a hostile feeder
      -- it stacks S pieces in one column (no new hole each time) until it
      -- dies. Kept to compare with GOD.
      { name = "GOD_SEED", decision_ms = 200, special_chance = 0.04, ceiling_every = 15,
        order = { "gameOverAfterMove", "netBenefit", "linesCleared", "holes",
                  "blockades", "wellSums", "aggregateHeight", "bumpiness",
                  "edgeDistance", "score" },
        weights = { aggregateHeight = -0.51, linesCleared = 0.76, holes = -0.36,
                    wellSums = -0.18, blockades = -0.18, bumpiness = -0.18 } },
      -- GOD: the seed's form (hard priorities led by "no immediate
      -- top-out", with netBenefit) and guards from the worst-case
      -- lookahead. It watches the player: one who has fed the piece a
      -- reader of GOD would give 3 times in a row (`line_trust`) is
      -- expected to go on, and GOD follows that line (adversary "own"),
      -- 12 pieces deep, the best 48 boards per ply, the ceiling's drops
      -- included: `linePlies` (how many of those pieces a move's boards
      -- survive) first, then the line's score, then netBenefit. Against
      -- any other player (`off_line_order`) it takes the worst piece of
      -- the offer 2 pieces deep, and refuses a move after which some
      -- piece can only top out (nextTopOut) or the stack stands above half
      -- the free rows while a lower move exists (highRows): fed only S and
      -- Z, it keeps its stack low.
      { name = "GOD", decision_ms = 200, special_chance = 0.04, ceiling_every = 15,
        lookahead = 1, beam = 3, adversary = "own", line_depth = 12, line_beam = 48,
        order = { "gameOverAfterMove", "linePlies", "lookahead", "netBenefit",
                  "holes", "aggregateHeight", "score" },
        line_trust = 3,
        off_line_order = { "gameOverAfterMove", "nextTopOut", "highRows", "lookahead",
                           "netBenefit", "holes", "aggregateHeight", "score" },
        weights = { landingHeight = -4.500158825082766, erodedCells = 3.4181268101392694,
                    rowTransitions = -3.2178882868487753, columnTransitions = -9.348695305445199,
                    holes = -7.899265427351652, wellSums = -3.3855972247263626,
                    gameOverAfterMove = -1000000 } },
      -- Against HATETRIS (feed mode, the `hatetris` feeder): its piece is
      -- predicted exactly (adversary "height"), so a line of moves to the
      -- game's end is a plan that will really be played. Lines rank by rows
      -- cleared (100 each), then the last board (weights tuned on this one
      -- deterministic game). Each decision spends 5 x 16384 boards on a
      -- whole-game beam rooted 12 moves ahead, which replaces the rest of
      -- the plan when it clears more (line_lead: docs/games/tetris.md).
      -- A specialist: in classic play it looks one piece ahead.
      { name = "VS_HATETRIS", decision_ms = 150, special_chance = 0, ceiling_every = 18,
        lookahead = 1, beam = 3, adversary = "height", line_beam = 16384, line_step = 5, line_lead = 12,
        weights = { linesCleared = 100, holes = -5.62, maxHeight = -5, bumpiness = -1,
                    rowTransitions = -1, columnTransitions = -3, aggregateHeight = -0.5,
                    blockades = -0.5, gameOverAfterMove = -1000000 } },
      -- Above GOD: Dellacherie's features with El-Tetris's published
      -- weights (El-Ashi, 2011), looking one piece ahead from its best 3
      -- moves. Against the hate feeder (100 games) beam 2 cleared 2.9
      -- lines a game, 3 and 6 both 5.4 and 5.3; beam 3 costs half of 6.
      -- In feed mode MASTER follows the line a player who reads it would
      -- feed (adversary "own"), 10 deep, the best 40 boards a ply (12 x 80
      -- won no more of level 8's games for 2.4 times the boards), always,
      -- unlike GOD; its ceiling comes down every 30 pieces, the slowest.
      { name = "MASTER", decision_ms = 150, special_chance = 0.03, ceiling_every = 30,
        lookahead = 1, beam = 3, adversary = "own", line_depth = 10, line_beam = 40,
        weights = { landingHeight = -4.500158825082766, erodedCells = 3.4181268101392694,
                    rowTransitions = -3.2178882868487753, columnTransitions = -9.348695305445199,
                    holes = -7.899265427351652, wellSums = -3.3855972247263626,
                    gameOverAfterMove = -1000000 } },
    },
  },

  -- Feed mode: the special pieces a turn may offer (pentomino letters:
  -- F N P U V W X Y).
  feed = { specials = { "X", "U", "W", "V" } },

  -- Flow hooks (optional); they may print to the editor console.
  on_lock = function(piece, lines, score) end,
  on_level_up = function(level) end,
  on_game_over = function(score, won) end,
}
