//! Why an edit could not be applied, written for the model: what was wrong, where in the file
//! (as it is on disk), and what to send instead. The stable code is [`EditFailure::code`]; the
//! text does not repeat it.

use std::time::{Duration, Instant};

use similar::TextDiff;
use thiserror::Error;

/// Why an edit could not be applied.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum EditFailure {
    #[error("old_string is empty. Give the exact text to replace (use write to create a file).")]
    EmptyOldString,
    #[error("old_string and new_string are identical; nothing would change.")]
    NoChange,
    #[error(
        "old_string matches {count} times ({}). Include more surrounding lines to make it \
         unique, or set replace_all to replace every occurrence.",
        places(.at)
    )]
    Ambiguous {
        count: usize,
        /// Line and column (1-based) of each match.
        at: Vec<(usize, usize)>,
    },
    #[error("old_string was not found.{}", closest_text(.closest))]
    NoMatch { closest: Option<ClosestRegion> },
    #[error(
        "old_string is at line {line} of the file, but an earlier edit of this call changed that \
         text; each edit applies to what the earlier ones left, so quote the text as they leave it."
    )]
    ChangedByEarlierEdit { line: usize },
    #[error(
        "new_string has the placeholder `{line}` where code would go, and writing it would \
         delete that code. Give the complete text of the replacement, or make smaller edits \
         that leave the rest of the file alone."
    )]
    Placeholder { line: String },
}

impl EditFailure {
    /// Stable error code.
    pub fn code(&self) -> &'static str {
        match self {
            Self::EmptyOldString | Self::NoChange => "EDIT_INVALID",
            Self::Ambiguous { .. } => "EDIT_AMBIGUOUS",
            Self::NoMatch { .. } | Self::ChangedByEarlierEdit { .. } => "EDIT_NO_MATCH",
            Self::Placeholder { .. } => "EDIT_PLACEHOLDER",
        }
    }
}

/// The part of the file most similar to an `old_string` that was not found.
#[derive(Debug, Clone, PartialEq)]
pub struct ClosestRegion {
    /// First line of the region (1-based).
    pub start_line: usize,
    /// Last line of the region (1-based).
    pub end_line: usize,
    /// Similarity in percent (0–100).
    pub similarity_percent: u32,
    /// The region's text, line-numbered.
    pub snippet: String,
}

fn places(at: &[(usize, usize)]) -> String {
    let shown: Vec<String> = at
        .iter()
        .take(10)
        .map(|(line, column)| format!("line {line} column {column}"))
        .collect();
    match at.len() {
        n if n > 10 => format!("at {}, and {} more", shown.join(", "), n - 10),
        _ => format!("at {}", shown.join(", ")),
    }
}

fn closest_text(closest: &Option<ClosestRegion>) -> String {
    match closest {
        Some(c) => format!(
            " The closest region is lines {}–{} ({}% similar):\n{}\nRead the file again if it may \
             have changed, and copy old_string exactly (including whitespace).",
            c.start_line, c.end_line, c.similarity_percent, c.snippet
        ),
        None => " Read the file again and copy old_string exactly (including whitespace).".into(),
    }
}

/// Files with more lines than this skip the closest-region search (it is quadratic-ish).
const CLOSEST_SEARCH_MAX_LINES: usize = 20_000;

/// How long the search may take: it runs wherever an edit is applied, the live preview on the
/// session's task included, so a long `old_string` in a long file gives the best window found
/// by then rather than a stall.
const CLOSEST_SEARCH_TIME: Duration = Duration::from_millis(200);

/// The window of lines of `content` (as many as `old` has) most similar to `old`, among those
/// compared within [`CLOSEST_SEARCH_TIME`].
pub fn closest_region(content: &str, old: &str) -> Option<ClosestRegion> {
    let deadline = Instant::now() + CLOSEST_SEARCH_TIME;
    let lines: Vec<&str> = content.lines().collect();
    let wanted = old.trim_end_matches('\n').split('\n').count().max(1);
    if lines.is_empty() || lines.len() > CLOSEST_SEARCH_MAX_LINES {
        return None;
    }
    let window = wanted.min(lines.len());
    let target = old.trim_end_matches('\n');
    let mut best: Option<(f32, usize)> = None;
    for start in 0..=lines.len() - window {
        if best.is_some() && Instant::now() >= deadline {
            break;
        }
        let text = lines[start..start + window].join("\n");
        let ratio = TextDiff::configure()
            .deadline(deadline)
            .diff_chars(text.as_str(), target)
            .ratio();
        if best.is_none_or(|(r, _)| ratio > r) {
            best = Some((ratio, start));
        }
    }
    let (ratio, start) = best?;
    let snippet = (start..start + window)
        .map(|i| format!("{:>6}\t{}", i + 1, lines[i]))
        .collect::<Vec<_>>()
        .join("\n");
    Some(ClosestRegion {
        start_line: start + 1,
        end_line: start + window,
        similarity_percent: (ratio * 100.0).round() as u32,
        snippet,
    })
}

/// Line and column (1-based, columns in characters) of byte offset `at` of `content`.
pub fn line_column(content: &str, at: usize) -> (usize, usize) {
    let before = &content[..at];
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (
        memchr::memchr_iter(b'\n', before.as_bytes()).count() + 1,
        before[line_start..].chars().count() + 1,
    )
}
