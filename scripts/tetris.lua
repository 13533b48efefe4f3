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

  -- Flow hooks (optional); they may print to the editor console.
  on_lock = function(piece, lines, score) end,
  on_level_up = function(level) end,
  on_game_over = function(score, won) end,
}
