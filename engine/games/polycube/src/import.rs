//! Level import: the seed's JSON format and the puzzle generator's format,
//! plus [`load_any`], which reads RON or either JSON by file extension.
//!
//! Seed: `{"box": {"A":4,"B":4,"C":4}, "pieces": [{"id":"A", "localVoxels": [[0,0,0]]}]}`.
//! Generator: `{"box": [a,b,c], "pieces": [[[x,y,z], ...], ...]}` with
//! optional `solution`, `assembly_order`, `stats`, `signature` (ignored).
//! Both are 0-based; the level they become is 1-based.

use std::path::Path;

use serde::Deserialize;

use super::level::{PieceSpec, PolycubeLevel};
use tessera_host::level::{Diagnostic, LevelFile, Severity, parse_level, read_text};

#[derive(Deserialize)]
struct JsonLevel {
    #[serde(rename = "box")]
    size: JsonBox,
    pieces: Vec<JsonPiece>,
    #[serde(default)]
    name: Option<String>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum JsonBox {
    #[allow(non_snake_case)]
    Named {
        A: i64,
        B: i64,
        C: i64,
    },
    List([i64; 3]),
}

#[derive(Deserialize)]
#[serde(untagged)]
enum JsonPiece {
    Seed {
        id: String,
        #[serde(rename = "localVoxels")]
        local_voxels: Vec<[i64; 3]>,
    },
    Cells(Vec<[i64; 3]>),
}

/// Piece ids for formats that have none.
const IDS: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/// Reads either JSON format; `path` names the file in errors (with line and
/// column for malformed JSON).
pub fn import_json(text: &str, path: &Path) -> Result<PolycubeLevel, Diagnostic> {
    let json: JsonLevel = serde_json::from_str(text).map_err(|e| Diagnostic {
        path: path.to_path_buf(),
        line: u32::try_from(e.line()).ok().filter(|&l| l > 0),
        col: u32::try_from(e.column()).ok().filter(|&c| c > 0),
        severity: Severity::Error,
        message: format!(
            "not a polycube level (expected `box` and `pieces` in the seed's or the generator's format): {e}"
        ),
    })?;
    let size = match json.size {
        JsonBox::Named { A, B, C } => (A, B, C),
        JsonBox::List([a, b, c]) => (a, b, c),
    };
    let one_based = |cells: Vec<[i64; 3]>| {
        cells
            .into_iter()
            .map(|[x, y, z]| {
                (
                    x.saturating_add(1),
                    y.saturating_add(1),
                    z.saturating_add(1),
                )
            })
            .collect()
    };
    let pieces = json
        .pieces
        .into_iter()
        .enumerate()
        .map(|(i, piece)| match piece {
            JsonPiece::Seed { id, local_voxels } => PieceSpec {
                id,
                cells: one_based(local_voxels),
                colour: None,
            },
            JsonPiece::Cells(cells) => PieceSpec {
                id: IDS
                    .chars()
                    .nth(i)
                    .map_or_else(|| format!("P{}", i + 1), String::from),
                cells: one_based(cells),
                colour: None,
            },
        })
        .collect();
    let name = json.name.unwrap_or_else(|| {
        path.file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("imported")
            .to_string()
    });
    Ok(PolycubeLevel {
        version: PolycubeLevel::VERSION,
        name,
        size,
        pieces,
    })
}

/// Reads a level in any supported format (`.json`: either JSON format;
/// otherwise RON) and diagnoses it: `Err` on the first error, otherwise
/// the level and its warnings (such as "cannot be filled").
pub fn load_any(path: &Path) -> Result<(PolycubeLevel, Vec<Diagnostic>), Diagnostic> {
    let text = read_text(path)?;
    parse_any(&text, path)
}

/// [`load_any`] on text already read.
pub fn parse_any(text: &str, path: &Path) -> Result<(PolycubeLevel, Vec<Diagnostic>), Diagnostic> {
    let is_json = path
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("json"));
    let level = if is_json {
        import_json(text, path)?
    } else {
        parse_level::<PolycubeLevel>(text, path)?
    };
    let findings: Vec<Diagnostic> = level
        .diagnose()
        .into_iter()
        .map(|d| Diagnostic {
            path: path.to_path_buf(),
            ..d
        })
        .collect();
    if let Some(error) = findings.iter().find(|d| d.is_error()) {
        return Err(error.clone());
    }
    Ok((level, findings))
}
