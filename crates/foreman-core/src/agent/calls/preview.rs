//! Diff previews of file changes (the hash that pins them is `approval::preview_hash`).

use std::time::{Duration, Instant};

use similar::TextDiff;

use crate::diff::{DiffLimits, FileDiff, diff_texts, line_counts, line_counts_within};
use crate::protocol::FilePreview;
use crate::tools::ProposedChange;

/// How long the counts of a live preview may search: they are redrawn every
/// `LIVE_PREVIEW_INTERVAL` (`task/turn.rs`) on the session's
/// task while the model writes, so a big rewrite must not hold the stream up (past it the
/// counts are an upper bound until the final preview).
pub const LIVE_COUNT_LIMIT: Duration = Duration::from_millis(40);

/// The preview of `change`; with `with_diff` false only the counts (cheap, for live updates).
pub fn file_preview(change: &ProposedChange, with_diff: bool) -> FilePreview {
    let old = change.old.as_deref();
    if with_diff {
        return diff_preview(&change.shown, old, &change.new);
    }
    let counts = line_counts_within(old.unwrap_or(""), change.new.as_str(), LIVE_COUNT_LIMIT);
    FilePreview {
        path: change.shown.clone(),
        created: old.is_none(),
        lines_added: u32::try_from(counts.added).unwrap_or(u32::MAX),
        lines_removed: u32::try_from(counts.removed).unwrap_or(u32::MAX),
        diff: None,
    }
}

/// The preview, with its diff, of `shown` (the workspace-relative path) going from `old` (`None`:
/// no file) to `new`.
pub fn diff_preview(shown: &str, old: Option<&str>, new: &str) -> FilePreview {
    diff_preview_within(shown, old, new, DiffLimits::default())
}

/// [`diff_preview`] within `limits`.
pub fn diff_preview_within(
    shown: &str,
    old: Option<&str>,
    new: &str,
    limits: DiffLimits,
) -> FilePreview {
    let diff = diff_texts(shown, old, Some(new), limits);
    FilePreview {
        path: shown.to_owned(),
        created: old.is_none(),
        lines_added: diff.added,
        lines_removed: diff.removed,
        diff: Some(diff),
    }
}

/// About how many bytes `diff` takes in an event's JSON: its text and a fixed share for each
/// line's and span's fields.
pub fn event_bytes(diff: &FileDiff) -> usize {
    diff.hunks
        .iter()
        .flat_map(|h| &h.lines)
        .map(|line| 60 + line.spans.iter().map(|s| s.text.len() + 30).sum::<usize>())
        .sum()
}

/// A unified diff between two versions (what the user changed in the model's proposal).
pub fn unified(path: &str, before: &str, after: &str) -> String {
    // Bounded like the previews: a huge file gets an approximate diff rather than a stall.
    let deadline = Instant::now() + DiffLimits::default().deadline;
    TextDiff::configure()
        .deadline(deadline)
        .diff_lines(before, after)
        .unified_diff()
        .context_radius(3)
        .header(&format!("proposed/{path}"), &format!("written/{path}"))
        .to_string()
}

/// How many lines differ between two versions: the larger of the lines added and removed, in
/// the same bounded diff as [`unified`].
pub fn lines_differing(before: &str, after: &str) -> u32 {
    let counts = line_counts(before, after);
    u32::try_from(counts.added.max(counts.removed)).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diff::unified_text;

    #[test]
    fn preview_counts_and_diffs() {
        let change = ProposedChange {
            path: "/w/a.txt".into(),
            shown: "a.txt".into(),
            old: Some("one\ntwo\n".into()),
            new: "one\n2\nthree\n".into(),
        };
        let p = file_preview(&change, true);
        assert_eq!((p.lines_added, p.lines_removed, p.created), (2, 1, false));
        let text = unified_text(p.diff.as_ref().unwrap());
        assert!(text.contains("-two\n") && text.contains("+2\n"), "{text}");
        assert!(file_preview(&change, false).diff.is_none());
    }
}
