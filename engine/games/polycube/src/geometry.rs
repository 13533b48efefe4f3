//! Cells, the 24 proper rotations of the cube and shape signatures.
//!
//! Everything here is 0-based; files and messages add 1 at the edges.

use std::sync::LazyLock;

/// A unit cube's position on the grid, 0-based `[x, y, z]`.
pub type Cell = [i32; 3];

/// A signed permutation matrix: a rotation (determinant +1) or a
/// reflection (determinant -1) of the cube.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rotation {
    /// Row-major 3x3 integer matrix.
    pub matrix: [[i32; 3]; 3],
}

impl Rotation {
    /// The identity.
    pub const IDENTITY: Rotation = Rotation {
        matrix: [[1, 0, 0], [0, 1, 0], [0, 0, 1]],
    };

    /// Applies the matrix to a cell (about the origin).
    pub fn apply(&self, c: Cell) -> Cell {
        let m = &self.matrix;
        [
            m[0][0] * c[0] + m[0][1] * c[1] + m[0][2] * c[2],
            m[1][0] * c[0] + m[1][1] * c[1] + m[1][2] * c[2],
            m[2][0] * c[0] + m[2][1] * c[1] + m[2][2] * c[2],
        ]
    }

    /// `self` after `other`: `(self.then(other)).apply(c) == other.apply(self.apply(c))`.
    pub fn then(&self, other: &Rotation) -> Rotation {
        let (a, b) = (&other.matrix, &self.matrix);
        let mut matrix = [[0; 3]; 3];
        for (i, row) in matrix.iter_mut().enumerate() {
            for (j, value) in row.iter_mut().enumerate() {
                *value = (0..3).map(|k| a[i][k] * b[k][j]).sum();
            }
        }
        Rotation { matrix }
    }

    /// The determinant: +1 for a rotation, -1 for a reflection.
    pub fn determinant(&self) -> i32 {
        let m = &self.matrix;
        m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
            - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
    }
}

/// All 48 signed permutation matrices, rotations first (identity first).
static SYMMETRIES: LazyLock<Vec<Rotation>> = LazyLock::new(|| {
    const PERMUTATIONS: [[usize; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut all = Vec::with_capacity(48);
    for permutation in PERMUTATIONS {
        for signs in 0..8u32 {
            let mut matrix = [[0; 3]; 3];
            for (row, &column) in permutation.iter().enumerate() {
                matrix[row][column] = if signs & (1 << row) == 0 { 1 } else { -1 };
            }
            all.push(Rotation { matrix });
        }
    }
    // Stable sort: the identity (first generated) stays first.
    all.sort_by_key(|r| r.determinant() < 0);
    all
});

/// The 24 proper rotations of the cube; index 0 is the identity.
pub fn rotations() -> &'static [Rotation] {
    &SYMMETRIES[..24]
}

/// All 48 symmetries of the cube: the 24 rotations, then the 24 reflections.
pub fn symmetries() -> &'static [Rotation] {
    &SYMMETRIES
}

/// Mirror image in the x axis (a reflection), used to pair chiral pieces.
pub const MIRROR_X: Rotation = Rotation {
    matrix: [[-1, 0, 0], [0, 1, 0], [0, 0, 1]],
};

/// Translates `cells` so each axis starts at 0, sorts and removes duplicates.
pub fn normalize(cells: &[Cell]) -> Vec<Cell> {
    let Some(min) = min_corner(cells) else {
        return Vec::new();
    };
    let mut out: Vec<Cell> = cells
        .iter()
        .map(|c| [c[0] - min[0], c[1] - min[1], c[2] - min[2]])
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// The smallest coordinate on each axis, `None` for no cells.
pub fn min_corner(cells: &[Cell]) -> Option<Cell> {
    let first = *cells.first()?;
    Some(cells.iter().fold(first, |m, c| {
        [m[0].min(c[0]), m[1].min(c[1]), m[2].min(c[2])]
    }))
}

/// The largest coordinate on each axis, `None` for no cells.
pub fn max_corner(cells: &[Cell]) -> Option<Cell> {
    let first = *cells.first()?;
    Some(cells.iter().fold(first, |m, c| {
        [m[0].max(c[0]), m[1].max(c[1]), m[2].max(c[2])]
    }))
}

/// The cells rotated by `r`, then normalised.
pub fn transform(cells: &[Cell], r: &Rotation) -> Vec<Cell> {
    let moved: Vec<Cell> = cells.iter().map(|&c| r.apply(c)).collect();
    normalize(&moved)
}

/// One distinct orientation of a shape: the first rotation (by index) that
/// produces it, and the normalised cells.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Orientation {
    /// Index into [`rotations`].
    pub rotation: u8,
    /// Normalised cells in this orientation.
    pub cells: Vec<Cell>,
}

/// The distinct orientations of a shape under the 24 rotations (1 to 24 of
/// them; symmetric shapes have fewer), in rotation-index order.
pub fn orientations(cells: &[Cell]) -> Vec<Orientation> {
    let mut out: Vec<Orientation> = Vec::with_capacity(24);
    for (index, r) in rotations().iter().enumerate() {
        let shape = transform(cells, r);
        if !out.iter().any(|o| o.cells == shape) {
            out.push(Orientation {
                rotation: index as u8,
                cells: shape,
            });
        }
    }
    out
}

/// The rotation-invariant signature of a shape: the lexicographically
/// smallest normalised form over the 24 rotations. Two pieces are the same
/// piece exactly when their signatures are equal (mirror images differ).
pub fn signature(cells: &[Cell]) -> Vec<Cell> {
    rotations()
        .iter()
        .map(|r| transform(cells, r))
        .min()
        .unwrap_or_default()
}

/// The signature of the mirror image.
pub fn mirror_signature(cells: &[Cell]) -> Vec<Cell> {
    signature(&transform(cells, &MIRROR_X))
}

/// Whether the cells are face-connected (the empty set is not).
pub fn is_connected(cells: &[Cell]) -> bool {
    // Linear: a flood fill over a hash set of the cells (comparing every
    // pair took 1.6 s for a 32^3 piece).
    let Some(&first) = cells.first() else {
        return false;
    };
    let mut unseen: std::collections::HashSet<Cell> = cells.iter().copied().collect();
    unseen.remove(&first);
    let mut stack = vec![first];
    while let Some(c) = stack.pop() {
        for d in DIRECTIONS {
            let n = [c[0] + d[0], c[1] + d[1], c[2] + d[2]];
            if unseen.remove(&n) {
                stack.push(n);
            }
        }
    }
    unseen.is_empty()
}

/// Whether two cells share a face.
pub fn are_neighbours(a: Cell, b: Cell) -> bool {
    let d = (a[0] - b[0]).abs() + (a[1] - b[1]).abs() + (a[2] - b[2]).abs();
    d == 1
}

/// The six face directions.
pub const DIRECTIONS: [Cell; 6] = [
    [1, 0, 0],
    [-1, 0, 0],
    [0, 1, 0],
    [0, -1, 0],
    [0, 0, 1],
    [0, 0, -1],
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn there_are_24_distinct_proper_rotations() {
        let r = rotations();
        assert_eq!(r.len(), 24);
        assert_eq!(r[0], Rotation::IDENTITY);
        for (i, a) in r.iter().enumerate() {
            assert_eq!(a.determinant(), 1);
            for b in &r[i + 1..] {
                assert_ne!(a, b);
            }
        }
        assert!(symmetries()[24..].iter().all(|s| s.determinant() == -1));
    }

    #[test]
    fn l_tromino_has_twelve_orientations() {
        let l = [[0, 0, 0], [1, 0, 0], [0, 1, 0]];
        assert_eq!(orientations(&l).len(), 12);
        let bar = [[0, 0, 0], [1, 0, 0], [2, 0, 0]];
        assert_eq!(orientations(&bar).len(), 3);
    }

    #[test]
    fn connectivity() {
        assert!(is_connected(&[[0, 0, 0], [0, 0, 1]]));
        assert!(!is_connected(&[[0, 0, 0], [1, 1, 0]]));
    }
}
