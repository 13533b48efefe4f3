//! The JSON partial a sharded run prints (`tessera solve --count --shard
//! I/N`, `tessera sim ... --shard I/N`) and `tessera merge` reads: what was
//! run (command, input and its hash, options), which shard, and its result.

use std::path::Path;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::level::Diagnostic;

/// Format version of [`Partial`]; a merge refuses any other. 2: a sim
/// partial carries its line-ups' tallies, not a list of games.
pub const FORMAT: u32 = 2;

/// Which shard a partial is: `index` of `of`, 1-based.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShardId {
    /// 1-based shard number.
    pub index: usize,
    /// Shards in all.
    pub of: usize,
}

impl ShardId {
    /// Parses `I/N` (1-based `I`, `1 <= I <= N`).
    pub fn parse(text: &str) -> Result<Self, String> {
        let bad = || format!("`{text}` is not a shard: write I/N with 1 <= I <= N, e.g. 2/8");
        let (i, n) = text.split_once('/').ok_or_else(bad)?;
        let i: usize = i.trim().parse().map_err(|_| bad())?;
        let n: usize = n.trim().parse().map_err(|_| bad())?;
        if n == 0 || i == 0 || i > n {
            return Err(bad());
        }
        Ok(Self { index: i, of: n })
    }

    /// The range of `items` (e.g. games) this shard takes: contiguous,
    /// sizes differing by at most one.
    pub fn range(&self, items: u64) -> (u64, u64) {
        // In u128: games times shard index must not overflow.
        let at = |i: usize| (u128::from(items) * i as u128 / self.of as u128) as u64;
        (at(self.index - 1), at(self.index))
    }
}

/// One shard's output.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Partial {
    /// Always [`FORMAT`].
    pub tessera_partial: u32,
    /// `solve --count` or `sim`.
    pub command: String,
    /// The input as named on the command line.
    pub input: String,
    /// SHA-256 of the input's content (hex).
    pub input_sha256: String,
    /// Every option that shapes the result (shards of one run agree on
    /// them all); the tessera version included.
    pub options: serde_json::Value,
    /// This shard.
    pub shard: ShardId,
    /// Whether the shard ran to the end (a stopped one is refused).
    pub complete: bool,
    /// Wall seconds this shard took.
    pub seconds: f64,
    /// The command's own result for this shard.
    pub result: serde_json::Value,
}

impl Partial {
    /// The count at `result.KEY` of this shard, read from the partial
    /// `path`: refused at that value's line when it is missing or not a
    /// count.
    pub fn result_count(&self, path: &Path, key: &str) -> Result<u64, Diagnostic> {
        self.result[key].as_u64().ok_or_else(|| {
            refusal(
                path,
                &["result", key],
                format!("result.{key} is missing or not a count"),
            )
        })
    }
}

/// Hex SHA-256 of some bytes.
pub fn sha256_hex(parts: &[&[u8]]) -> String {
    let mut hasher = Sha256::new();
    for part in parts {
        hasher.update((part.len() as u64).to_le_bytes());
        hasher.update(part);
    }
    hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Hex SHA-256 of a file, read through the host's capped reader.
pub fn file_sha256(path: &Path) -> Result<String, Diagnostic> {
    let text = crate::level::read_text(path)?;
    Ok(sha256_hex(&[text.as_bytes()]))
}

/// A refusal of the value at `field` in the partial `path` (names, and
/// digits for list entries: `["result", "tallies", "0"]`), naming the file
/// and the line of that value, or of the nearest enclosing value the file
/// has (a missing key: its object; nothing found: line 1). The file is
/// read again here, only when a merge refuses it, so the merges keep
/// taking parsed partials.
pub fn refusal(path: &Path, field: &[&str], message: impl std::fmt::Display) -> Diagnostic {
    let message = message.to_string();
    let Ok(text) = crate::level::read_text(path) else {
        return Diagnostic::error(path, message);
    };
    for known in (1..=field.len()).rev() {
        let located = field[..known]
            .iter()
            .fold(
                Diagnostic::error(path, message.clone()),
                |d, key| match key.parse::<usize>() {
                    Ok(index) => d.at_index(index),
                    Err(_) => d.at(key),
                },
            )
            .locate(&text);
        if located.line.is_some() {
            return located;
        }
    }
    Diagnostic {
        line: Some(1),
        ..Diagnostic::error(path, message)
    }
}
