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

/// A hunk as a card shows it: where it sits in the two texts, as its header gives it, and its
/// lines (`lines`: each line's sign, ' ', '+' or '-', and text, ending in a newline). An
/// operation on a shown hunk names it so, and is refused when the file's diff no longer has
/// exactly that hunk.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct HunkRef {
    pub old_start: u32,
    pub old_lines: u32,
    pub new_start: u32,
    pub new_lines: u32,
    pub lines: String,
}

impl Hunk {
    /// How an operation names this hunk.
    pub fn reference(&self) -> HunkRef {
        let mut lines = String::new();
        for line in &self.lines {
            lines.push(match line.tag {
                LineTag::Context => ' ',
                LineTag::Added => '+',
                LineTag::Removed => '-',
            });
            for span in &line.spans {
                lines.push_str(&span.text);
            }
            lines.push('\n');
        }
        HunkRef {
            old_start: self.old_start,
            old_lines: self.old_lines,
            new_start: self.new_start,
            new_lines: self.new_lines,
            lines,
        }
    }
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
    /// Lines of the kept hunks left out of this copy to keep it small on the wire (0 when the
    /// copy is whole): the hunks hold only their first lines, and hunks with none are dropped.
    /// [`Op::LoadPreview`](crate::Op::LoadPreview) sends the whole diff.
    #[serde(default)]
    pub lines_left_out: u32,
}

impl FileDiff {
    /// How many hunks a user may choose among, to approve or undo some of them (0: the change
    /// goes whole): a modified file's exact diff, whole here, of two or more hunks.
    pub fn choosable_hunks(&self) -> usize {
        let whole = self.omitted_hunks == 0 && self.lines_left_out == 0 && !self.approximate;
        if whole && self.kind == DiffKind::Modify && self.hunks.len() >= 2 {
            self.hunks.len()
        } else {
            0
        }
    }

    /// The lines across all hunks.
    pub fn line_count(&self) -> usize {
        self.hunks.iter().map(|h| h.lines.len()).sum()
    }

    /// A copy with at most `max_lines` lines across its hunks, in order, and the rest counted
    /// in `lines_left_out`. Only the lines kept are copied, so shortening a 12,000-line diff
    /// costs what the copy holds; a diff within `max_lines` comes back equal to itself.
    pub fn first_lines(&self, max_lines: usize) -> FileDiff {
        let mut left = max_lines;
        let mut hunks = Vec::new();
        for hunk in &self.hunks {
            if left == 0 {
                break;
            }
            let keep = hunk.lines.len().min(left);
            left -= keep;
            hunks.push(Hunk {
                old_start: hunk.old_start,
                old_lines: hunk.old_lines,
                new_start: hunk.new_start,
                new_lines: hunk.new_lines,
                lines: hunk.lines.get(..keep).unwrap_or_default().to_vec(),
            });
        }
        let kept = max_lines - left;
        FileDiff {
            path: self.path.clone(),
            kind: self.kind,
            added: self.added,
            removed: self.removed,
            hunks,
            omitted_hunks: self.omitted_hunks,
            approximate: self.approximate,
            lines_left_out: self.lines_left_out
                + u32::try_from(self.line_count() - kept).unwrap_or(u32::MAX),
        }
    }
}

/// The diff of a file from before a session's changes to it to now.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct NetChange {
    /// From the file before `since_call_id` (absent: it did not exist) to the file now (absent:
    /// it is gone).
    pub diff: FileDiff,
    /// The oldest of the changes asked about whose earlier content is kept.
    pub since_call_id: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(n: u32) -> DiffLine {
        DiffLine {
            tag: LineTag::Added,
            old_line: None,
            new_line: Some(n),
            spans: vec![Span {
                text: format!("line {n}"),
                changed: false,
            }],
        }
    }

    fn hunk(start: u32, len: u32) -> Hunk {
        Hunk {
            old_start: 0,
            old_lines: 0,
            new_start: start,
            new_lines: len,
            lines: (start..start + len).map(line).collect(),
        }
    }

    fn diff(hunks: Vec<Hunk>) -> FileDiff {
        FileDiff {
            path: "a.rs".into(),
            kind: DiffKind::Create,
            added: 10,
            removed: 0,
            hunks,
            omitted_hunks: 1,
            approximate: false,
            lines_left_out: 0,
        }
    }

    #[test]
    fn first_lines_keeps_a_prefix_across_hunks_and_counts_the_rest() {
        let whole = diff(vec![hunk(1, 4), hunk(20, 4), hunk(40, 2)]);
        let short = whole.first_lines(6);
        assert_eq!(short.line_count(), 6);
        assert_eq!(short.lines_left_out, 4);
        assert_eq!(short.hunks.len(), 2);
        assert_eq!(short.hunks[1].lines.len(), 2);
        // Headers describe the whole hunk; the rest of the diff is untouched.
        assert_eq!(
            (short.hunks[1].new_start, short.hunks[1].new_lines),
            (20, 4)
        );
        assert_eq!((short.added, short.omitted_hunks), (10, 1));
        assert_eq!(short.hunks[0], whole.hunks[0]);
    }

    #[test]
    fn first_lines_of_a_small_diff_is_the_diff() {
        let whole = diff(vec![hunk(1, 3)]);
        assert_eq!(whole.first_lines(3), whole);
        assert_eq!(whole.first_lines(100), whole);
        assert_eq!(whole.first_lines(0).hunks.len(), 0);
        assert_eq!(whole.first_lines(0).lines_left_out, 3);
    }

    #[test]
    fn a_diff_sent_before_the_field_existed_is_whole() {
        let mut value = serde_json::to_value(diff(vec![hunk(1, 1)])).unwrap();
        value.as_object_mut().unwrap().remove("lines_left_out");
        let back: FileDiff = serde_json::from_value(value).unwrap();
        assert_eq!(back.lines_left_out, 0);
    }

    #[test]
    fn bindings_are_up_to_date() {
        use crate::bindings::assert_bindings_current;
        assert_bindings_current::<FileDiff>();
        assert_bindings_current::<Hunk>();
        assert_bindings_current::<HunkRef>();
        assert_bindings_current::<DiffLine>();
        assert_bindings_current::<Span>();
        assert_bindings_current::<LineTag>();
        assert_bindings_current::<DiffKind>();
    }
}
