//! Counting lines added and removed between two versions of a file (with `similar`).

use similar::{ChangeTag, TextDiff};

/// Lines added and removed going from `old` to `new`.
pub fn line_changes(old: &str, new: &str) -> (usize, usize) {
    let diff = TextDiff::from_lines(old, new);
    let mut added = 0;
    let mut removed = 0;
    for change in diff.iter_all_changes() {
        match change.tag() {
            ChangeTag::Insert => added += 1,
            ChangeTag::Delete => removed += 1,
            ChangeTag::Equal => {}
        }
    }
    (added, removed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_changes() {
        assert_eq!(line_changes("", "a\nb\n"), (2, 0));
        assert_eq!(line_changes("a\nb\nc\n", "a\nB\nc\nd\n"), (2, 1));
        assert_eq!(line_changes("same\n", "same\n"), (0, 0));
    }
}
