-- Azul: every number a designer may tune. The engine reads the rules when a
-- game starts and again before every wall-tiling phase, so saving a new
-- floor penalty here applies from the next tiling. The AIs read their
-- weights when they are asked for a move, never during their search.

return {
  -- Tiles: 20 of each colour, 100 in all. Order matters: colour 1 is the
  -- colour of wall row 1, column 1 (row r, column c holds colour c - r mod 5).
  tiles_per_colour = 20,
  colours = {
    { name = "blue",   letter = "B", rgb = "#3498DB" },
    { name = "yellow", letter = "Y", rgb = "#F1C40F" },
    { name = "red",    letter = "R", rgb = "#E74C3C" },
    { name = "green",  letter = "G", rgb = "#2ECC71" },
    { name = "orange", letter = "O", rgb = "#E67E22" },
  },

  -- Factories per player count (tiles per factory: 4).
  factories = { [2] = 5, [3] = 7, [4] = 9 },
  tiles_per_factory = 4,

  -- Points lost per floor slot, left to right (7 slots; more tiles go to
  -- the lid).
  floor_penalties = { 1, 1, 2, 2, 2, 3, 3 },

  -- The grey-wall variant (the published board's other side): no printed
  -- pattern; at each wall tiling a player chooses the column of every full
  -- line's tile, a column that does not hold that colour yet (each colour
  -- once per row and once per column). A level may set it too (grey_wall).
  -- Read when a game starts.
  grey_wall = false,

  -- End-of-game bonuses.
  bonus_row = 2,
  bonus_column = 7,
  bonus_colour = 10,

  -- AI levels, weakest first (names the command line and editor show).
  ai_levels = { "easy", "medium", "hard", "expert" },

  -- Seconds the table waits before an AI's move is shown (presentation
  -- only: headless runs and tests skip it).
  reaction_seconds = { easy = 1, medium = 2, hard = 3, expert = 3 },

  -- medium: value = immediate score + 0.5 future potential - floor risk
  -- + 0.3 blocking (the seed's evaluation).
  medium = { immediate = 1.0, potential = 0.5, floor_risk = 1.0, blocking = 0.3 },

  -- hard: alpha-beta (paranoid with 3-4 players) to the end of the round.
  -- nodes: search nodes per move; potential: weight of end-bonus progress;
  -- carry: weight of unfinished lines carried into the next round.
  hard = { nodes = 200000, potential = 1.0, carry = 0.5 },

  -- expert: Monte Carlo tree search; future deals drawn from the bag.
  -- seconds / playouts: whichever runs out first; exploration: UCT constant;
  -- epsilon: share of random playout moves. The reward of a playout (a
  -- whole game) is own_weight x own score (score_scale points earn all of
  -- it) plus the rest x the contest: win_weight for winning, the rest for
  -- the margin over the best other player (margin_scale points earn 0.88
  -- of it). own_weight 0 plays only to win: in self-play that is mutual
  -- blocking and low scores; 0.3 with exploration 0.35 beat hard most
  -- often at 250 ms a move (README) and still builds its wall.
  -- threads: trees searched side by side, one per thread (0: one per
  -- core); a fixed number with a playout budget decides the same on any
  -- machine. max_nodes: most tree nodes over all trees (20 bytes each),
  -- the memory bound of a move. The trees are kept between the expert's
  -- moves: the subtree of the move played and the replies goes on.
  -- horizon: rounds a playout plays before it scores the table by estimate
  -- (score + potential x end-bonus progress + carry x unfinished lines;
  -- 0: whole games, the strongest measured). widening: progressive
  -- widening, a node with n visits tries its first 2 + n^widening moves
  -- (0: all; measured no stronger).
  expert = {
    seconds = 1.0,
    playouts = 1000000,
    exploration = 0.35,
    epsilon = 0.15,
    win_weight = 0.5,
    margin_scale = 20,
    own_weight = 0.3,
    score_scale = 100,
    threads = 0,
    max_nodes = 4000000,
    horizon = 0,
    potential = 1.0,
    carry = 0.5,
    widening = 0,
  },

}
