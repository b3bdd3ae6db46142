//! The structured diff the UI renders.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// What the change does to the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum DiffKind {
    Create,
    Modify,
    Delete,
}

/// The role of one line in a hunk.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum LineTag {
    Context,
    Added,
    Removed,
}

/// A piece of a line; `changed` marks the words that differ from the paired line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct Span {
    pub text: String,
    pub changed: bool,
}

/// One line of a hunk, with its line numbers (1-based) on each side it exists on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct DiffLine {
    pub tag: LineTag,
    pub old_line: Option<u32>,
    pub new_line: Option<u32>,
    pub spans: Vec<Span>,
}

/// A run of changes with its surrounding context.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct Hunk {
    pub old_start: u32,
    pub old_lines: u32,
    pub new_start: u32,
    pub new_lines: u32,
    pub lines: Vec<DiffLine>,
}

/// The preview of one file change.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct FileDiff {
    pub path: String,
    pub kind: DiffKind,
    pub added: u32,
    pub removed: u32,
    pub hunks: Vec<Hunk>,
    /// Hunks left out because the diff is over the limits (0 when complete).
    pub omitted_hunks: u32,
    /// True when the diff gave up on finding the minimal diff within its deadline.
    pub approximate: bool,
}
