//! Helpers shared by the workspace-level tests (they live in
//! `tessera-testkit`, shared with every crate's tests).
#![allow(dead_code, unused_imports)]

pub use tessera_testkit::{nim, repo_path, repo_root, snapshots};
