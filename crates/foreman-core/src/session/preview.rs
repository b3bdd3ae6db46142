//! Diff previews of file changes and the hash that pins what the person approved.

use serde_json::Value;
use sha2::{Digest, Sha256};
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
            .header(&format!("a/{}", change.shown), &format!("b/{}", change.shown))
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

/// Pins a decision to what was shown: the tool, its arguments and the file's current bytes.
pub fn preview_hash(tool: &str, arguments: &Value, file: Option<&[u8]>) -> String {
    let mut hasher = Sha256::new();
    hasher.update(tool.as_bytes());
    hasher.update([0]);
    hasher.update(arguments.to_string().as_bytes());
    hasher.update([0]);
    match file {
        Some(bytes) => {
            hasher.update([1]);
            hasher.update(bytes);
        }
        None => hasher.update([0]),
    }
    hasher
        .finalize()
        .iter()
        .take(12)
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

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
        assert!(p.diff.contains("-two\n") && p.diff.contains("+2\n"), "{}", p.diff);
        assert!(file_preview(&change, false).diff.is_empty());
    }

    #[test]
    fn hash_changes_with_the_file_or_arguments() {
        let a = json!({"path": "a"});
        let h = preview_hash("write", &a, Some(b"x"));
        assert_eq!(h, preview_hash("write", &a, Some(b"x")));
        assert_ne!(h, preview_hash("write", &a, Some(b"y")));
        assert_ne!(h, preview_hash("write", &a, None));
        assert_ne!(h, preview_hash("write", &json!({"path": "b"}), Some(b"x")));
    }
}
