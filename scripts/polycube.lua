-- Polycube packing: what designers tune. Read once per event (start, win).

-- Per-level hint allowances by level name; others use the default below.
local hints_by_level = {
  ["Soma cube"] = 3,
  ["Pentominoes 6x10"] = 4,
  ["Pentominoes 5x12"] = 4,
  ["Pentominoes 3x20"] = 2,
}
local default_hints = 3

-- Star thresholds: seconds per piece and moves per piece for 3 and 2 stars.
local three_star = { seconds_per_piece = 20, moves_per_piece = 1.5 }
local two_star = { seconds_per_piece = 45, moves_per_piece = 3 }

return {
  -- Seed rule: a placed piece must touch the floor or another piece.
  support_rule = true,
  ticks_per_second = 60,

  hints_allowed = function(level_name, pieces, cells)
    return hints_by_level[level_name] or default_hints
  end,

  stars = function(seconds, moves, hints_used, pieces)
    local function within(t)
      return seconds <= t.seconds_per_piece * pieces and moves <= t.moves_per_piece * pieces
    end
    local stars = 1
    if within(three_star) then
      stars = 3
    elseif within(two_star) then
      stars = 2
    end
    -- Each hint costs a star, never below one.
    return math.max(1, stars - hints_used)
  end,
}
