//! Level import: the seed's JSON format and the puzzle generator's format,
//! plus [`load_any`], which reads RON or either JSON by file extension.
//!
//! Seed: `{"box": {"A":4,"B":4,"C":4}, "pieces": [{"id":"A", "localVoxels": [[0,0,0]]}]}`.
//! Generator: `{"box": [a,b,c], "pieces": [[[x,y,z], ...], ...]}` with
//! optional `solution`, `assembly_order`, `stats`, `signature` (ignored).
//! Both are 0-based; the level they become is 1-based.

use std::path::Path;

use serde_json::{Map, Value};

use super::level::{PieceSpec, PolycubeLevel};
use tessera_host::level::{Diagnostic, FieldKey, LevelFile, Severity, parse_level, read_text};

/// Piece ids for formats that have none.
const IDS: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/// Top-level keys a JSON level may hold (the generator's extra keys are
/// read past, not used).
const TOP_KEYS: &[&str] = &[
    "box",
    "pieces",
    "name",
    "solution",
    "assembly_order",
    "stats",
    "signature",
];

/// Reads either JSON format; `path` names the file in errors, each at the
/// line of the offending value. Unknown keys are refused, as in RON levels.
pub fn import_json(text: &str, path: &Path) -> Result<PolycubeLevel, Diagnostic> {
    let syntax = |e: serde_json::Error| Diagnostic {
        line: u32::try_from(e.line()).ok().filter(|&l| l > 0),
        col: u32::try_from(e.column()).ok().filter(|&c| c > 0),
        severity: Severity::Error,
        // A repeated key is the walk's own refusal (a data error), in words.
        ..Diagnostic::error(
            path,
            if e.is_data() {
                json_reason(&e)
            } else {
                format!("not valid JSON: {}", json_reason(&e))
            },
        )
    };
    serde_json::from_str::<crate::unique_keys::UniqueKeys>(text).map_err(syntax)?;
    let json: Value = serde_json::from_str(text).map_err(syntax)?;
    let fail = |message: String, at: &[FieldKey]| {
        let mut d = Diagnostic::error(path, message);
        d.field = at.to_vec();
        d.locate(text)
    };
    let name = |n: &str| FieldKey::Name(n.to_string());
    let Value::Object(top) = &json else {
        return Err(fail(
            format!(
                "a JSON level must be an object with `box` and `pieces`, not {}",
                kind(&json)
            ),
            &[],
        ));
    };
    refuse_unknown(top, TOP_KEYS, &[], &fail)?;
    let size = match top.get("box") {
        None => return Err(fail("missing `box` (the box size)".into(), &[])),
        Some(Value::Object(named)) => {
            refuse_unknown(named, &["A", "B", "C"], &[name("box")], &fail)?;
            let axis = |key: &str| match named.get(key) {
                Some(v) => whole(v, &format!("`box.{key}`"), &[name("box"), name(key)], &fail),
                None => Err(fail(
                    format!("`box` needs `A`, `B` and `C`; `{key}` is missing"),
                    &[name("box")],
                )),
            };
            (axis("A")?, axis("B")?, axis("C")?)
        }
        Some(Value::Array(list)) if list.len() == 3 => {
            let axis = |i: usize| {
                whole(
                    &list[i],
                    &format!("`box[{i}]`"),
                    &[name("box"), FieldKey::Index(i)],
                    &fail,
                )
            };
            (axis(0)?, axis(1)?, axis(2)?)
        }
        Some(other) => {
            return Err(fail(
                format!(
                    "`box` must be {{\"A\": a, \"B\": b, \"C\": c}} or [a, b, c], not {}",
                    kind(other)
                ),
                &[name("box")],
            ));
        }
    };
    let Some(Value::Array(list)) = top.get("pieces") else {
        return Err(fail(
            "`pieces` must be a list of pieces".into(),
            &[name("pieces")],
        ));
    };
    let mut pieces = Vec::with_capacity(list.len());
    for (i, piece) in list.iter().enumerate() {
        let at = [name("pieces"), FieldKey::Index(i)];
        let (id, cells, cells_at) = match piece {
            Value::Object(fields) => {
                // The seed's format also lists each piece's rotation
                // signatures; they are derived here, so read past them.
                refuse_unknown(
                    fields,
                    &["id", "localVoxels", "rotationSignatures"],
                    &at,
                    &fail,
                )?;
                let id = match fields.get("id") {
                    Some(Value::String(id)) => id.clone(),
                    _ => {
                        return Err(fail(format!("piece {}: `id` must be a string", i + 1), &at));
                    }
                };
                let Some(voxels) = fields.get("localVoxels") else {
                    return Err(fail(
                        format!("piece {}: missing `localVoxels` (its cells)", i + 1),
                        &at,
                    ));
                };
                let mut cells_at = at.to_vec();
                cells_at.push(name("localVoxels"));
                (id, voxels, cells_at)
            }
            Value::Array(_) => {
                let id = IDS
                    .chars()
                    .nth(i)
                    .map_or_else(|| format!("P{}", i + 1), String::from);
                (id, piece, at.to_vec())
            }
            other => {
                return Err(fail(
                    format!(
                        "piece {}: must be {{\"id\", \"localVoxels\"}} or a list of cells, not {}",
                        i + 1,
                        kind(other)
                    ),
                    &at,
                ));
            }
        };
        let Value::Array(cells) = cells else {
            return Err(fail(
                format!("piece {}: its cells must be a list of [x, y, z]", i + 1),
                &cells_at,
            ));
        };
        let mut one_based = Vec::with_capacity(cells.len());
        for (j, cell) in cells.iter().enumerate() {
            let mut cell_at = cells_at.clone();
            cell_at.push(FieldKey::Index(j));
            let Value::Array(xyz) = cell else {
                return Err(fail(
                    format!("piece {}, cell {}: must be [x, y, z]", i + 1, j + 1),
                    &cell_at,
                ));
            };
            if xyz.len() != 3 {
                return Err(fail(
                    format!(
                        "piece {}, cell {}: must be [x, y, z], not {} numbers",
                        i + 1,
                        j + 1,
                        xyz.len()
                    ),
                    &cell_at,
                ));
            }
            let what = format!("piece {}, cell {}", i + 1, j + 1);
            let v = |k: usize| whole(&xyz[k], &what, &cell_at, &fail).map(|v| v.saturating_add(1));
            one_based.push((v(0)?, v(1)?, v(2)?));
        }
        pieces.push(PieceSpec {
            id,
            cells: one_based,
            colour: None,
        });
    }
    let name = match top.get("name") {
        None | Some(Value::Null) => path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("imported")
            .to_string(),
        Some(Value::String(name)) => name.clone(),
        Some(other) => {
            return Err(fail(
                format!("`name` must be a string, not {}", kind(other)),
                &[FieldKey::Name("name".into())],
            ));
        }
    };
    Ok(PolycubeLevel {
        version: PolycubeLevel::VERSION,
        name,
        size,
        pieces,
        assembly: false,
    })
}

/// A JSON syntax error in words, without serde's internals.
fn json_reason(error: &serde_json::Error) -> String {
    let text = error.to_string();
    // serde_json appends " at line L column C"; the position is ours to show.
    match text.rfind(" at line ") {
        Some(at) => text[..at].to_string(),
        None => text,
    }
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

fn refuse_unknown(
    fields: &Map<String, Value>,
    known: &[&str],
    at: &[FieldKey],
    fail: &dyn Fn(String, &[FieldKey]) -> Diagnostic,
) -> Result<(), Diagnostic> {
    match fields.keys().find(|k| !known.contains(&k.as_str())) {
        Some(unknown) => {
            let mut here = at.to_vec();
            here.push(FieldKey::Name(unknown.clone()));
            let names: Vec<String> = known.iter().map(|k| format!("`{k}`")).collect();
            Err(fail(
                format!(
                    "unknown field `{unknown}` (known fields: {})",
                    names.join(", ")
                ),
                &here,
            ))
        }
        None => Ok(()),
    }
}

/// A whole number, or an error naming `what`.
fn whole(
    value: &Value,
    what: &str,
    at: &[FieldKey],
    fail: &dyn Fn(String, &[FieldKey]) -> Diagnostic,
) -> Result<i64, Diagnostic> {
    match value {
        Value::Number(n) if n.is_i64() => Ok(n.as_i64().unwrap_or_default()),
        Value::Number(n) if n.is_u64() => Ok(i64::MAX),
        Value::Number(n) => match n.as_f64() {
            Some(f) if f.fract() == 0.0 && f.abs() < 9e15 => Ok(f as i64),
            _ => Err(fail(format!("{what}: {n} is not a whole number"), at)),
        },
        other => Err(fail(
            format!("{what}: expected a whole number, not {}", kind(other)),
            at,
        )),
    }
}

/// Moves a finding's path from the RON field names to the JSON ones
/// (`size` is `box`; a seed piece's `cells` are `localVoxels`, a generator
/// piece is its list of cells), so it can be located in JSON text.
pub fn json_field_path(text: &str, field: &[FieldKey]) -> Vec<FieldKey> {
    let seed_format = text.contains("\"localVoxels\"");
    let mut out = Vec::with_capacity(field.len());
    for (i, key) in field.iter().enumerate() {
        match key {
            FieldKey::Name(n) if i == 0 && n == "size" => out.push(FieldKey::Name("box".into())),
            FieldKey::Name(n) if i == 2 && n == "cells" && seed_format => {
                out.push(FieldKey::Name("localVoxels".into()));
            }
            FieldKey::Name(n) if i == 2 && n == "cells" => {}
            other => out.push(other.clone()),
        }
    }
    out
}

/// Whether `path` names a JSON level.
pub fn is_json(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("json"))
}

/// Parses a level file's text: JSON (either format) by extension, else RON.
pub fn read_level(text: &str, path: &Path) -> Result<PolycubeLevel, Diagnostic> {
    if is_json(path) {
        import_json(text, path)
    } else {
        parse_level::<PolycubeLevel>(text, path)
    }
}

/// Locates a finding about a parsed level in its file's text (either
/// format).
pub fn locate(finding: Diagnostic, text: &str, path: &Path) -> Diagnostic {
    if is_json(path) {
        let original = finding.field.clone();
        let mut moved = finding;
        moved.field = json_field_path(text, &original);
        let mut located = moved.locate(text);
        located.field = original;
        located
    } else {
        finding.locate(text)
    }
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
    let level = read_level(text, path)?;
    let findings: Vec<Diagnostic> = level
        .diagnose()
        .into_iter()
        .map(|d| locate(d.in_file(path), text, path))
        .collect();
    if let Some(error) = findings.iter().find(|d| d.is_error()) {
        return Err(error.clone());
    }
    Ok((level, findings))
}

/// The level in the seed's JSON format: `name`, `box: {A, B, C}` and
/// `pieces: [{id, localVoxels}]`, each piece's voxels 0-based from its own
/// smallest corner. What the seed's format has no room for is left out: a
/// piece's colour and the level's assembly mode. [`import_json`] reads it
/// back to the same level (minus those).
pub fn export_seed_json(level: &PolycubeLevel) -> Result<String, serde_json::Error> {
    let pieces: Vec<Value> = level
        .pieces
        .iter()
        .map(|piece| {
            let min: [i64; 3] = std::array::from_fn(|a| {
                piece
                    .cells
                    .iter()
                    .map(|c| [c.0, c.1, c.2][a])
                    .min()
                    .unwrap_or(0)
            });
            let voxels: Vec<Value> = piece
                .cells
                .iter()
                .map(|c| serde_json::json!([c.0 - min[0], c.1 - min[1], c.2 - min[2]]))
                .collect();
            serde_json::json!({ "id": piece.id, "localVoxels": voxels })
        })
        .collect();
    let (a, b, c) = level.size;
    let mut top = Map::new();
    top.insert("name".into(), Value::String(level.name.clone()));
    top.insert("box".into(), serde_json::json!({ "A": a, "B": b, "C": c }));
    top.insert("pieces".into(), Value::Array(pieces));
    let mut text = serde_json::to_string_pretty(&Value::Object(top))?;
    text.push('\n');
    Ok(text)
}
