//! Diff previews for file changes, computed here and drawn by the UI (which never diffs).
//!
//! A preview is a list of hunks with 3 lines of context; each line carries its old/new line
//! numbers, a tag, and spans marking the words that changed inside modified lines. New files are
//! all added, deleted files all removed. Very large diffs keep only the hunks nearest the start
//! and a summary of what was left out, so a preview never grows without bound. Counting the
//! lines a change adds and removes ([`line_counts`]) has the same time limit as a preview.

mod compute;
mod counts;
mod select;
mod unified;

pub use compute::{DiffLimits, diff_texts};
pub use counts::{LineCounts, line_counts, line_counts_within};
pub use foreman_protocol::diff::{DiffKind, DiffLine, FileDiff, Hunk, HunkRef, LineTag, Span};
pub use select::{HunkChoiceError, apply_hunks};
pub use unified::unified_text;
