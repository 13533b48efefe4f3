//! The plain-text picture of a table (`tessera play --render`, the
//! replay trajectories and the tests).

use tessera_host::text::count;

use crate::rules::{self, COLOURS, LINES, State, wall_colour};

/// The letter of a colour (upper case: a tile).
pub(crate) fn letter(colour: u8) -> char {
    ['B', 'Y', 'R', 'G', 'O'][colour as usize % COLOURS]
}

/// A plain-text picture of the table: factories, centre, then each board
/// (wall with lower-case letters for empty cells, pattern lines, floor).
pub fn render(s: &State) -> String {
    let mut out = String::new();
    let pile = |counts: &[u8; COLOURS]| -> String {
        let mut t = String::new();
        for (k, &n) in counts.iter().enumerate() {
            for _ in 0..n {
                t.push(letter(k as u8));
            }
        }
        if t.is_empty() { "-".into() } else { t }
    };
    out.push_str(&format!(
        "round {}  {}\n",
        s.round,
        if s.over {
            "game over".to_string()
        } else if let Some((row, _, mask)) = s.pending_choice() {
            let columns: Vec<String> = (0..LINES)
                .filter(|c| mask & (1 << c) != 0)
                .map(|c| (c + 1).to_string())
                .collect();
            format!(
                "tiling: player {} chooses the column of line {} ({})",
                s.to_move + 1,
                row + 1,
                columns.join(" ")
            )
        } else {
            format!("player {} to move", s.to_move + 1)
        }
    ));
    if s.rules.grey_wall {
        out.push_str("grey wall (no printed pattern)\n");
    }
    let factories: Vec<String> = (0..s.factory_count as usize)
        .map(|f| format!("{}:{}", f + 1, pile(&s.factories[f])))
        .collect();
    out.push_str(&format!("factories {}\n", factories.join(" ")));
    out.push_str(&format!(
        "centre {}{}\n",
        pile(&s.centre),
        if s.marker_in_centre { " +marker" } else { "" }
    ));
    out.push_str(&format!("bag {}  lid {}\n", pile(&s.bag), pile(&s.lid)));
    for p in 0..s.players as usize {
        let b = &s.boards[p];
        out.push_str(&format!("player {} score {}\n", p + 1, b.score));
        for row in 0..LINES {
            let line = b.lines[row];
            let mut lt = String::new();
            for i in (0..=row).rev() {
                lt.push(if i < line.count as usize {
                    letter(line.colour)
                } else {
                    '.'
                });
            }
            let wall: String = (0..LINES)
                .map(|c| match b.colour_at(row, c) {
                    Some(k) => letter(k as u8),
                    None if b.grey => '.',
                    None => letter(wall_colour(row, c) as u8).to_ascii_lowercase(),
                })
                .collect();
            out.push_str(&format!("  {lt:>5} | {wall}\n"));
        }
        let (floor, off_floor) = floor_text(b);
        out.push_str(&format!(
            "  floor [{}]{off_floor} -{}\n",
            floor,
            b.floor_penalty(&s.rules)
        ));
    }
    out
}

/// A floor in slot order, left to right: `1` for the first-player marker
/// in the slot it took, the tiles (by colour) in the others; and
/// ` +marker` when the marker came to a full floor (it takes no slot).
fn floor_text(b: &rules::Board) -> (String, &'static str) {
    let mut tiles = b
        .floor
        .iter()
        .enumerate()
        .flat_map(|(k, &n)| std::iter::repeat_n(letter(k as u8), usize::from(n)));
    let mut text = String::new();
    for slot in 0..usize::from(b.floor_len) {
        if b.marker && slot == usize::from(b.marker_slot) {
            text.push('1');
        } else if let Some(tile) = tiles.next() {
            text.push(tile);
        }
    }
    let off = b.marker && usize::from(b.marker_slot) >= rules::FLOOR_SLOTS;
    (text, if off { " +marker" } else { "" })
}

/// A tiling's sum for the message log: the wall points, the floor's whole
/// penalty and the new score, saying so when the score stopped at 0
/// (`+1, floor -4 = 0 (stopped at 0)`).
pub fn tiling_sum(gained: i32, penalty: i32, lost: i32, score: i32) -> String {
    let mut text = format!("+{gained}");
    if penalty > 0 {
        text += &format!(", floor -{penalty}");
    }
    text += &format!(" = {score}");
    if lost < penalty {
        text += " (stopped at 0)";
    }
    text
}

/// The end bonus split into its parts (`+9 (1 row +2, 1 column +7) = 41`).
pub fn bonus_sum(board: &rules::Board, rules: &rules::Rules) -> String {
    let parts = [
        (board.complete_rows() as i32, rules.row_bonus, "row"),
        (
            board.complete_columns() as i32,
            rules.column_bonus,
            "column",
        ),
        (
            board.complete_colours() as i32,
            rules.colour_bonus,
            "colour",
        ),
    ];
    let total: i32 = parts.iter().map(|(n, each, _)| n * each).sum();
    let named: Vec<String> = parts
        .iter()
        .filter(|(n, _, _)| *n > 0)
        .map(|(n, each, what)| format!("{} +{}", count(*n, what), n * each))
        .collect();
    if named.is_empty() {
        format!("+{total} = {}", board.score)
    } else {
        format!("+{total} ({}) = {}", named.join(", "), board.score)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Board, Rules, wall_colour};

    #[test]
    fn a_tiling_shows_the_whole_floor_penalty_and_where_the_score_stopped() {
        // From 0: +1 on the wall, a floor of -4 takes only the 1 point.
        assert_eq!(tiling_sum(1, 4, 1, 0), "+1, floor -4 = 0 (stopped at 0)");
        assert_eq!(tiling_sum(3, 1, 1, 2), "+3, floor -1 = 2");
        assert_eq!(tiling_sum(5, 0, 0, 12), "+5 = 12");
    }

    #[test]
    fn the_end_bonus_names_its_rows_columns_and_colours() {
        let rules = Rules::default();
        let mut board = Board {
            score: 41,
            ..Board::default()
        };
        // Row 1 complete, and column 1 complete: one row, one column.
        for (row, column) in (0..5).map(|c| (0, c)).chain((1..5).map(|r| (r, 0))) {
            board.wall |= 1 << (row * 5 + column);
            board.colours[wall_colour(row, column)] |= 1 << (row * 5 + column);
        }
        assert_eq!(bonus_sum(&board, &rules), "+9 (1 row +2, 1 column +7) = 41");
        assert_eq!(bonus_sum(&Board::default(), &rules), "+0 = 0");
    }
}
