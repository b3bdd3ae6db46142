//! Diff previews of file changes (the hash that pins them is `approval::preview_hash`).

use similar::{ChangeTag, TextDiff};

use super::tools::ProposedChange;
use crate::protocol::FilePreview;

/// The preview of `change`; with `with_diff` false only the counts (cheap, for live updates).
pub fn file_preview(change: &ProposedChange, with_diff: bool) -> FilePreview {
    let old = change.old.as_deref().unwrap_or("");
    let diff = TextDiff::from_lines(old, change.new.as_str());
    let (mut added, mut removed) = (0u32, 0u32);
    for op in diff.ops() {
        for c in diff.iter_changes(op) {
            match c.tag() {
                ChangeTag::Insert => added += 1,
                ChangeTag::Delete => removed += 1,
                ChangeTag::Equal => {}
            }
        }
    }
    let text = if with_diff {
        diff.unified_diff()
            .context_radius(3)
            .header(
                &format!("a/{}", change.shown),
                &format!("b/{}", change.shown),
            )
            .to_string()
    } else {
        String::new()
    };
    FilePreview {
        path: change.shown.clone(),
        created: change.old.is_none(),
        lines_added: added,
        lines_removed: removed,
        diff: text,
    }
}

/// A unified diff between two versions (what the person changed in the model's proposal).
pub fn unified(path: &str, before: &str, after: &str) -> String {
    TextDiff::from_lines(before, after)
        .unified_diff()
        .context_radius(3)
        .header(&format!("proposed/{path}"), &format!("written/{path}"))
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert!(
            p.diff.contains("-two\n") && p.diff.contains("+2\n"),
            "{}",
            p.diff
        );
        assert!(file_preview(&change, false).diff.is_empty());
    }
}
