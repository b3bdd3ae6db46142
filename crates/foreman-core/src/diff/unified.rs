//! A [`FileDiff`] as unified-diff text, for terminals and logs.

use std::fmt::Write;

use foreman_protocol::diff::{DiffKind, FileDiff, LineTag};

/// `diff` in the familiar `---`/`+++`/`@@` form, one line per diff line.
pub fn unified_text(diff: &FileDiff) -> String {
    let mut out = String::new();
    let (old, new) = match diff.kind {
        DiffKind::Create => ("/dev/null".to_owned(), format!("b/{}", diff.path)),
        DiffKind::Delete => (format!("a/{}", diff.path), "/dev/null".to_owned()),
        DiffKind::Modify => (format!("a/{}", diff.path), format!("b/{}", diff.path)),
    };
    let _ = writeln!(out, "--- {old}\n+++ {new}");
    for hunk in &diff.hunks {
        let _ = writeln!(
            out,
            "@@ -{},{} +{},{} @@",
            hunk.old_start, hunk.old_lines, hunk.new_start, hunk.new_lines
        );
        for line in &hunk.lines {
            let sign = match line.tag {
                LineTag::Context => ' ',
                LineTag::Added => '+',
                LineTag::Removed => '-',
            };
            out.push(sign);
            for span in &line.spans {
                out.push_str(&span.text);
            }
            out.push('\n');
        }
    }
    if diff.lines_left_out > 0 {
        let _ = writeln!(out, "… {} more lines not sent", diff.lines_left_out);
    }
    if diff.omitted_hunks > 0 {
        let _ = writeln!(out, "… {} more hunks not shown", diff.omitted_hunks);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diff::{DiffLimits, diff_texts};

    #[test]
    fn renders_hunks_with_signs_and_headers() {
        let diff = diff_texts(
            "a.txt",
            Some("one\ntwo\nthree\n"),
            Some("one\n2\nthree\n"),
            DiffLimits::default(),
        );
        let text = unified_text(&diff);
        assert_eq!(
            text,
            "--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n"
        );
    }

    #[test]
    fn new_files_come_from_dev_null() {
        let diff = diff_texts("n.txt", None, Some("x\n"), DiffLimits::default());
        let text = unified_text(&diff);
        assert!(text.starts_with("--- /dev/null\n+++ b/n.txt\n"), "{text}");
        assert!(text.contains("\n+x\n"), "{text}");
    }
}
