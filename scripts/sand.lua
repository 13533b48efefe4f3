-- Sand drop: every number a designer may tune. The engine reads this table
-- when a game starts (palette, slots, ticks per second, rotation) and at
-- every clear (timings, score), so saving this file while a game runs
-- changes the score of the next clear.

return {
  -- Colours pieces are drawn in (uniformly). `letter` is used in text
  -- pictures and level boards. Up to 8 colours.
  palette = {
    { name = "red",    letter = "R", rgb = { 220,  60,  50 } },
    { name = "blue",   letter = "B", rgb = {  50, 110, 220 } },
    { name = "green",  letter = "G", rgb = {  60, 170,  70 } },
    { name = "yellow", letter = "Y", rgb = { 230, 200,  50 } },
    -- The seed's 6-colour variant: uncomment these two.
    -- { name = "purple", letter = "P", rgb = { 150,  70, 190 } },
    -- { name = "white",  letter = "W", rgb = { 235, 235, 235 } },
  },

  -- Preview slots.
  slots = 3,

  -- Physics ticks per second of game time (a grain moves one cell a tick).
  ticks_per_second = 60,

  -- Clear sequence: matched grains flash, then burst into particles for
  -- the animation time, then are removed.
  flash_seconds = 0.2,
  clear_animation_seconds = 1.0,

  -- Whether a dragged piece may be rotated.
  rotation = false,

  -- Points for one cleared cluster. `cells` = grains / 100 (a logical cell
  -- holds 10x10 grains); `chain` = 1 for the first clear after a placement,
  -- +1 for each further clear caused by the fall. Must return a number >= 0;
  -- if it raises an error or returns NaN or a negative number, that cluster
  -- scores 0, the error (with this file's line) goes to the console, and the
  -- game goes on. Saving a fixed version applies to the next clear.
  score = function(cells, chain)
    return math.floor(10 * math.sqrt(cells)) * chain
  end,

  -- Flow hooks (optional). They may print to the editor console.
  on_settle = function(score) end,
  on_clear = function(chain, clusters, cells, points) end,
  on_game_over = function(score) end,
}
