-- scripts/cairn.lua: what a designer tunes in Cairns. The host checks the
-- table this returns against the game's schema: a key it does not know
-- (`max_tkae`) is refused at its line with the nearest known key.
return {
  -- Most stones one move may take from a row (1 to 8).
  max_take = 3,

  -- How often each AI level plays a random move instead of its best, 0 to
  -- 1. Only `easy` and `hard` are allowed here.
  mistakes = { easy = 1.0, hard = 0.0 },

  -- Points for a move that takes `taken` stones and leaves `left` in its
  -- row: emptying a row scores double. Points are a tally for the
  -- scoreboard; the winner is whoever takes the last stone.
  score = function(taken, left)
    if left == 0 then
      return taken * 2
    end
    return taken
  end,
}
