//! Applying some of a diff's hunks: the user approves a change in part, and the file gets the
//! hunks they chose while the others keep what the file has.

use similar::DiffableStr;
use thiserror::Error;

use foreman_protocol::diff::{DiffKind, FileDiff};

/// Why a choice of hunks cannot be applied.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum HunkChoiceError {
    /// The preview left hunks out, so the user could not see every change.
    #[error(
        "this change has more hunks than its preview shows; approve or reject it whole, or edit it"
    )]
    Incomplete,
    /// A new or deleted file is one change.
    #[error("a new or deleted file is one change; approve or reject it whole")]
    WholeFile,
    /// An index names no hunk.
    #[error("there is no hunk {index}: the change has {count}")]
    NoSuchHunk { index: u32, count: usize },
    /// The hunks do not fit the two texts (they are of another diff).
    #[error("the hunks do not match the file; ask for the change again")]
    Mismatch,
}

/// A hunk's start as a 0-based line index: unified diffs give an empty range the number of the
/// line before it, a non-empty one its first line.
fn start_index(start: u32, lines: u32) -> usize {
    let start = start as usize;
    if lines > 0 { start - 1 } else { start }
}

/// `old` with the hunks of `diff` (the diff from `old` to `new`) whose indices are in `chosen`
/// applied and the others left as `old` has them. Every hunk chosen gives `new`, none `old`.
pub fn apply_hunks(
    diff: &FileDiff,
    old: &str,
    new: &str,
    chosen: &[u32],
) -> Result<String, HunkChoiceError> {
    if diff.omitted_hunks > 0 || diff.lines_left_out > 0 {
        return Err(HunkChoiceError::Incomplete);
    }
    if diff.kind != DiffKind::Modify {
        return Err(HunkChoiceError::WholeFile);
    }
    let count = diff.hunks.len();
    if let Some(&index) = chosen.iter().find(|&&i| i as usize >= count) {
        return Err(HunkChoiceError::NoSuchHunk { index, count });
    }
    let old_lines = old.tokenize_lines();
    let new_lines = new.tokenize_lines();
    let mut out = String::with_capacity(old.len().max(new.len()));
    // The next line of `old` not yet copied or replaced.
    let mut cursor = 0;
    for (index, hunk) in diff.hunks.iter().enumerate() {
        let old_from = start_index(hunk.old_start, hunk.old_lines);
        let old_to = old_from + hunk.old_lines as usize;
        let new_from = start_index(hunk.new_start, hunk.new_lines);
        let new_to = new_from + hunk.new_lines as usize;
        let before = old_lines
            .get(cursor..old_from)
            .ok_or(HunkChoiceError::Mismatch)?;
        out.extend(before.iter().copied());
        let taken = if chosen.contains(&(index as u32)) {
            new_lines.get(new_from..new_to)
        } else {
            old_lines.get(old_from..old_to)
        };
        out.extend(taken.ok_or(HunkChoiceError::Mismatch)?.iter().copied());
        cursor = old_to;
    }
    let rest = old_lines.get(cursor..).ok_or(HunkChoiceError::Mismatch)?;
    out.extend(rest.iter().copied());
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diff::{DiffLimits, diff_texts};
    use proptest::prelude::*;

    fn diff(old: &str, new: &str) -> FileDiff {
        diff_texts("f.txt", Some(old), Some(new), DiffLimits::default())
    }

    fn numbered(n: usize) -> String {
        (1..=n).map(|i| format!("line {i}\n")).collect()
    }

    #[test]
    fn each_hunk_can_be_taken_alone() {
        let old = numbered(30);
        let new = old
            .replace("line 2\n", "line two\n")
            .replace("line 15\n", "")
            .replace("line 28\n", "line 28\nline 28b\n");
        let d = diff(&old, &new);
        assert_eq!(d.hunks.len(), 3);
        assert_eq!(d.choosable_hunks(), 3);
        assert_eq!(apply_hunks(&d, &old, &new, &[0, 1, 2]).unwrap(), new);
        assert_eq!(apply_hunks(&d, &old, &new, &[]).unwrap(), old);
        assert_eq!(
            apply_hunks(&d, &old, &new, &[0]).unwrap(),
            old.replace("line 2\n", "line two\n")
        );
        assert_eq!(
            apply_hunks(&d, &old, &new, &[1, 2]).unwrap(),
            old.replace("line 15\n", "")
                .replace("line 28\n", "line 28\nline 28b\n")
        );
    }

    #[test]
    fn line_endings_and_a_missing_last_newline_are_kept() {
        let lines: Vec<String> = (1..=20).map(|i| format!("l{i}")).collect();
        let old = lines.join("\r\n");
        let new = format!(
            "{}\n",
            old.replace("l1\r\n", "L1\r\n").replace("l20", "L20")
        );
        let d = diff(&old, &new);
        assert_eq!(d.hunks.len(), 2);
        assert_eq!(
            apply_hunks(&d, &old, &new, &[1]).unwrap(),
            format!("{}\n", old.replace("l20", "L20"))
        );
        assert_eq!(
            apply_hunks(&d, &old, &new, &[0]).unwrap(),
            old.replace("l1\r\n", "L1\r\n")
        );
    }

    #[test]
    fn choices_that_cannot_be_applied_are_refused() {
        let old = numbered(10);
        let new = old.replace("line 5\n", "five\n");
        let d = diff(&old, &new);
        assert_eq!(
            apply_hunks(&d, &old, &new, &[3]),
            Err(HunkChoiceError::NoSuchHunk { index: 3, count: 1 })
        );
        let cut = FileDiff {
            omitted_hunks: 1,
            ..d.clone()
        };
        assert_eq!(
            apply_hunks(&cut, &old, &new, &[0]),
            Err(HunkChoiceError::Incomplete)
        );
        assert_eq!(cut.choosable_hunks(), 0);
        assert_eq!(d.choosable_hunks(), 0, "one hunk goes whole");
        let created = diff_texts("f.txt", None, Some(&new), DiffLimits::default());
        assert_eq!(created.choosable_hunks(), 0);
        assert_eq!(
            apply_hunks(&created, "", &new, &[0]),
            Err(HunkChoiceError::WholeFile)
        );
        // Hunks of another file's diff.
        assert_eq!(
            apply_hunks(&d, "short\n", &new, &[0]),
            Err(HunkChoiceError::Mismatch)
        );
    }

    /// Texts of a few lines from a small alphabet, so diffs have several hunks and some lines
    /// repeat; line ends vary, and the last line may have none.
    fn text() -> impl Strategy<Value = String> {
        prop::collection::vec(
            (
                prop::sample::select(vec!["a", "b", "c", "dd", "", "é"]),
                0..3usize,
            ),
            0..40,
        )
        .prop_map(|lines| {
            lines
                .into_iter()
                .map(|(l, end)| format!("{l}{}", ["\n", "\r\n", "\n"][end]))
                .collect()
        })
    }

    proptest! {
        /// Taking hunks one at a time, each choice changes exactly the lines of its hunks:
        /// applying a set of hunks and then diffing gives back those hunks' changes only, and
        /// all or none give the two texts.
        #[test]
        fn any_choice_is_between_old_and_new(old in text(), new in text(), pick in any::<u64>()) {
            let d = diff(&old, &new);
            prop_assume!(d.kind == DiffKind::Modify);
            let all: Vec<u32> = (0..d.hunks.len() as u32).collect();
            prop_assert_eq!(apply_hunks(&d, &old, &new, &all).unwrap(), new.clone());
            prop_assert_eq!(apply_hunks(&d, &old, &new, &[]).unwrap(), old.clone());
            let chosen: Vec<u32> = all.iter().copied().filter(|i| (pick >> (i % 64)) & 1 == 1).collect();
            let mixed = apply_hunks(&d, &old, &new, &chosen).unwrap();
            // The chosen hunks' added lines are in, the others' are not: removed and added
            // counts of the partial diff are those of the chosen hunks.
            let part = diff(&old, &mixed);
            let counted = |tag| -> usize {
                chosen
                    .iter()
                    .map(|&i| d.hunks[i as usize].lines.iter().filter(|l| l.tag == tag).count())
                    .sum()
            };
            prop_assert!(part.added as usize <= counted(crate::diff::LineTag::Added));
            prop_assert!(part.removed as usize <= counted(crate::diff::LineTag::Removed));
            // What is left to do after the partial write is the other hunks.
            let rest: Vec<u32> = all.iter().copied().filter(|i| !chosen.contains(i)).collect();
            let remaining = diff(&mixed, &new);
            let others = |tag| -> usize {
                rest
                    .iter()
                    .map(|&i| d.hunks[i as usize].lines.iter().filter(|l| l.tag == tag).count())
                    .sum()
            };
            prop_assert!(remaining.added as usize <= others(crate::diff::LineTag::Added));
            prop_assert!(remaining.removed as usize <= others(crate::diff::LineTag::Removed));
        }
    }
}
