//! Computing a [`FileDiff`] with `similar`.

use std::time::{Duration, Instant};

use similar::{Algorithm, ChangeTag, DiffOp, TextDiff};

use foreman_protocol::diff::{DiffKind, DiffLine, FileDiff, Hunk, LineTag, Span};

/// Bounds that keep a preview small and quick.
#[derive(Debug, Clone, Copy)]
pub struct DiffLimits {
    /// Lines of context around each change.
    pub context: usize,
    /// Hunks kept in full; later ones are counted in `omitted_hunks`.
    pub max_hunks: usize,
    /// Lines kept across all hunks.
    pub max_lines: usize,
    /// Lines longer than this get no word-level highlights (too costly, rarely useful).
    pub max_inline_line_len: usize,
    /// Time after which the line diff approximates instead of searching further.
    pub deadline: Duration,
}

impl DiffLimits {
    /// The bounds of every preview ([`Default`]).
    pub const DEFAULT: Self = Self {
        context: 3,
        max_hunks: 200,
        max_lines: 5_000,
        max_inline_line_len: 1_000,
        deadline: Duration::from_millis(500),
    };
}

impl Default for DiffLimits {
    fn default() -> Self {
        Self::DEFAULT
    }
}

fn line_number(index: usize) -> u32 {
    u32::try_from(index + 1).unwrap_or(u32::MAX)
}

fn count(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

fn plain(text: &str) -> Vec<Span> {
    vec![Span {
        text: strip_newline(text).to_owned(),
        changed: false,
    }]
}

fn strip_newline(text: &str) -> &str {
    text.strip_suffix("\r\n")
        .or_else(|| text.strip_suffix('\n'))
        .unwrap_or(text)
}

/// Diffs `old` (None when the file does not exist yet) against `new` (None when it is deleted).
pub fn diff_texts(
    path: &str,
    old: Option<&str>,
    new: Option<&str>,
    limits: DiffLimits,
) -> FileDiff {
    let kind = match (old, new) {
        (None, _) => DiffKind::Create,
        (Some(_), None) => DiffKind::Delete,
        (Some(_), Some(_)) => DiffKind::Modify,
    };
    let old_text = old.unwrap_or("");
    let new_text = new.unwrap_or("");
    let started = Instant::now();
    let deadline = started + limits.deadline;
    let diff = TextDiff::configure()
        .algorithm(Algorithm::Myers)
        .deadline(deadline)
        .diff_lines(old_text, new_text);
    let approximate = started.elapsed() >= limits.deadline;

    let mut added = 0u32;
    let mut removed = 0u32;
    for op in diff.ops() {
        let (tag, old_range, new_range) = op.as_tag_tuple();
        match tag {
            similar::DiffTag::Insert => added += count(new_range.len()),
            similar::DiffTag::Delete => removed += count(old_range.len()),
            similar::DiffTag::Replace => {
                added += count(new_range.len());
                removed += count(old_range.len());
            }
            similar::DiffTag::Equal => {}
        }
    }

    let groups = similar::group_diff_ops(contiguous(diff.ops()), limits.context);
    let mut hunks = Vec::new();
    let mut lines_kept = 0usize;
    let mut omitted = 0u32;
    let mut left_out = 0usize;
    for group in &groups {
        if hunks.len() >= limits.max_hunks || lines_kept >= limits.max_lines {
            omitted += 1;
            continue;
        }
        // One hunk never takes more than the lines left: a new file of 5 MB is one hunk.
        let budget = limits.max_lines - lines_kept;
        let (hunk, cut) = build_hunk(&diff, group, limits, deadline, budget);
        lines_kept += hunk.lines.len();
        left_out += cut;
        hunks.push(hunk);
    }
    FileDiff {
        path: path.to_owned(),
        kind,
        added,
        removed,
        hunks,
        omitted_hunks: omitted,
        approximate,
        lines_left_out: u32::try_from(left_out).unwrap_or(u32::MAX),
    }
}

/// `ops` with each op's indices recomputed from the lengths of the ops before it. `similar`'s
/// Myers diff can leave the empty side of a `Delete` or `Insert` that follows a `Replace` with a
/// stale index (`"a\nc\na\na\n"` to `"dd\nb\nc\nb\nb\nb\nc\n"` ends in a `Delete` at new
/// index 3 instead of 7), which gave hunks wrong headers and wrong ranges; the lengths are right.
fn contiguous(ops: &[DiffOp]) -> Vec<DiffOp> {
    let (mut old_index, mut new_index) = (0, 0);
    ops.iter()
        .map(|op| {
            let fixed = match *op {
                DiffOp::Equal { len, .. } => DiffOp::Equal {
                    old_index,
                    new_index,
                    len,
                },
                DiffOp::Delete { old_len, .. } => DiffOp::Delete {
                    old_index,
                    old_len,
                    new_index,
                },
                DiffOp::Insert { new_len, .. } => DiffOp::Insert {
                    old_index,
                    new_index,
                    new_len,
                },
                DiffOp::Replace {
                    old_len, new_len, ..
                } => DiffOp::Replace {
                    old_index,
                    old_len,
                    new_index,
                    new_len,
                },
            };
            old_index += fixed.old_range().len();
            new_index += fixed.new_range().len();
            fixed
        })
        .collect()
}

/// One hunk of at most `budget` lines (its header still describes all of it) and how many of its
/// lines were left out; its word highlights share the line diff's `deadline` (`similar` would
/// give each replaced block 500 ms of its own, so a diff of many blocks had no bound).
fn build_hunk<'a>(
    diff: &'a TextDiff<'a, 'a, 'a, str>,
    group: &[DiffOp],
    limits: DiffLimits,
    deadline: Instant,
    budget: usize,
) -> (Hunk, usize) {
    let mut lines = Vec::new();
    let mut left_out = 0usize;
    for op in group {
        let op_lines = match op {
            DiffOp::Equal { len, .. } => *len,
            other => other.old_range().len() + other.new_range().len(),
        };
        let room = budget.saturating_sub(lines.len());
        if room == 0 {
            left_out += op_lines;
            continue;
        }
        left_out += op_lines.saturating_sub(room);
        let replace_small = match op {
            DiffOp::Replace {
                old_index,
                old_len,
                new_index,
                new_len,
            } => {
                let longest = diff.old_slices()[*old_index..old_index + old_len]
                    .iter()
                    .chain(&diff.new_slices()[*new_index..new_index + new_len])
                    .map(|l| l.len())
                    .max()
                    .unwrap_or(0);
                longest <= limits.max_inline_line_len
            }
            _ => false,
        };
        if replace_small {
            for change in diff
                .iter_inline_changes_deadline(op, Some(deadline))
                .take(room)
            {
                let spans: Vec<Span> = change
                    .iter_strings_lossy()
                    .map(|(changed, text)| Span {
                        text: text.into_owned(),
                        changed,
                    })
                    .collect();
                lines.push(make_line(
                    change.tag(),
                    change.old_index(),
                    change.new_index(),
                    trim_spans(spans),
                ));
            }
        } else {
            for change in diff.iter_changes(op).take(room) {
                let spans = plain(change.value());
                lines.push(make_line(
                    change.tag(),
                    change.old_index(),
                    change.new_index(),
                    spans,
                ));
            }
        }
    }
    let old_start = group.first().map_or(0, |op| op.old_range().start);
    let new_start = group.first().map_or(0, |op| op.new_range().start);
    let old_end = group.last().map_or(0, |op| op.old_range().end);
    let new_end = group.last().map_or(0, |op| op.new_range().end);
    let hunk = Hunk {
        old_start: if old_end > old_start {
            line_number(old_start)
        } else {
            count(old_start)
        },
        old_lines: count(old_end - old_start),
        new_start: if new_end > new_start {
            line_number(new_start)
        } else {
            count(new_start)
        },
        new_lines: count(new_end - new_start),
        lines,
    };
    (hunk, left_out)
}

fn make_line(tag: ChangeTag, old: Option<usize>, new: Option<usize>, spans: Vec<Span>) -> DiffLine {
    DiffLine {
        tag: match tag {
            ChangeTag::Equal => LineTag::Context,
            ChangeTag::Insert => LineTag::Added,
            ChangeTag::Delete => LineTag::Removed,
        },
        old_line: old.map(line_number),
        new_line: new.map(line_number),
        spans,
    }
}

/// Removes the line ending from the last span and drops spans left empty.
fn trim_spans(mut spans: Vec<Span>) -> Vec<Span> {
    if let Some(last) = spans.last_mut() {
        last.text = strip_newline(&last.text).to_owned();
    }
    spans.retain(|s| !s.text.is_empty());
    if spans.is_empty() {
        spans.push(Span {
            text: String::new(),
            changed: false,
        });
    }
    spans
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(lines: &[&str]) -> String {
        lines.iter().map(|l| format!("{l}\n")).collect()
    }

    #[test]
    fn a_hunk_bigger_than_the_line_limit_is_cut_and_the_rest_counted() {
        let big: String = (0..20_000).map(|n| format!("line {n}\n")).collect();
        let d = diff_texts("big.txt", None, Some(&big), DiffLimits::default());
        assert_eq!(d.added, 20_000);
        assert!(
            d.line_count() <= DiffLimits::DEFAULT.max_lines,
            "{}",
            d.line_count()
        );
        assert_eq!(d.line_count() + d.lines_left_out as usize, 20_000);
        assert_eq!(
            d.hunks[0].new_lines, 20_000,
            "the header describes the whole hunk"
        );
    }

    #[test]
    fn a_new_file_is_all_added() {
        let d = diff_texts("a.rs", None, Some("one\ntwo\n"), DiffLimits::default());
        assert_eq!(d.kind, DiffKind::Create);
        assert_eq!((d.added, d.removed), (2, 0));
        assert_eq!(d.hunks.len(), 1);
        assert!(d.hunks[0].lines.iter().all(|l| l.tag == LineTag::Added));
        assert_eq!(d.hunks[0].lines[1].new_line, Some(2));
        assert_eq!(d.hunks[0].lines[1].spans[0].text, "two");
    }

    #[test]
    fn a_hunk_ending_in_a_deletion_after_a_replacement_counts_its_new_lines() {
        // similar's ops end in a Delete whose new index is stale here.
        let d = diff_texts(
            "f",
            Some("a\nc\na\na\n"),
            Some("dd\nb\nc\nb\nb\nb\nc\n"),
            DiffLimits::default(),
        );
        let h = &d.hunks[0];
        assert_eq!(
            (h.old_start, h.old_lines, h.new_start, h.new_lines),
            (1, 4, 1, 7)
        );
        let added = h.lines.iter().filter(|l| l.tag == LineTag::Added).count();
        let context = h.lines.iter().filter(|l| l.tag == LineTag::Context).count();
        assert_eq!(added + context, 7);
    }

    #[test]
    fn a_deleted_file_is_all_removed() {
        let d = diff_texts("a.rs", Some("one\ntwo\n"), None, DiffLimits::default());
        assert_eq!(d.kind, DiffKind::Delete);
        assert_eq!((d.added, d.removed), (0, 2));
        assert!(d.hunks[0].lines.iter().all(|l| l.tag == LineTag::Removed));
    }

    #[test]
    fn hunks_have_three_lines_of_context_and_line_numbers() {
        let old: Vec<String> = (1..=20).map(|i| format!("line {i}")).collect();
        let mut new = old.clone();
        new[9] = "line ten".to_owned();
        let old_s = text(&old.iter().map(String::as_str).collect::<Vec<_>>());
        let new_s = text(&new.iter().map(String::as_str).collect::<Vec<_>>());
        let d = diff_texts("f", Some(&old_s), Some(&new_s), DiffLimits::default());
        assert_eq!(d.hunks.len(), 1);
        let h = &d.hunks[0];
        assert_eq!(
            (h.old_start, h.old_lines, h.new_start, h.new_lines),
            (7, 7, 7, 7)
        );
        assert_eq!(h.lines.first().unwrap().old_line, Some(7));
        let removed = h.lines.iter().find(|l| l.tag == LineTag::Removed).unwrap();
        assert_eq!(removed.old_line, Some(10));
        // Word-level: only "10" -> "ten" is marked as changed.
        let added = h.lines.iter().find(|l| l.tag == LineTag::Added).unwrap();
        let changed: Vec<_> = added
            .spans
            .iter()
            .filter(|s| s.changed)
            .map(|s| s.text.as_str())
            .collect();
        assert_eq!(changed, ["ten"]);
        assert_eq!(
            added
                .spans
                .iter()
                .map(|s| s.text.as_str())
                .collect::<String>(),
            "line ten"
        );
    }

    #[test]
    fn distant_changes_make_separate_hunks_and_limits_omit_the_rest() {
        let old: String = (0..1000).map(|i| format!("l{i}\n")).collect();
        let new = old
            .replace("l100\n", "x\n")
            .replace("l500\n", "y\n")
            .replace("l900\n", "z\n");
        let d = diff_texts("f", Some(&old), Some(&new), DiffLimits::default());
        assert_eq!(d.hunks.len(), 3);
        assert_eq!((d.added, d.removed), (3, 3));
        let limited = DiffLimits {
            max_hunks: 1,
            ..DiffLimits::default()
        };
        let d = diff_texts("f", Some(&old), Some(&new), limited);
        assert_eq!((d.hunks.len(), d.omitted_hunks), (1, 2));
        assert_eq!(
            (d.added, d.removed),
            (3, 3),
            "totals still count every change"
        );
    }

    #[test]
    fn identical_texts_have_no_hunks_and_crlf_is_not_shown() {
        let d = diff_texts(
            "f",
            Some("a\r\nb\r\n"),
            Some("a\r\nb\r\n"),
            DiffLimits::default(),
        );
        assert!(d.hunks.is_empty());
        let d = diff_texts(
            "f",
            Some("a\r\nb\r\n"),
            Some("a\r\nc\r\n"),
            DiffLimits::default(),
        );
        assert!(
            d.hunks[0]
                .lines
                .iter()
                .all(|l| l.spans.iter().all(|s| !s.text.contains('\r')))
        );
    }
}
