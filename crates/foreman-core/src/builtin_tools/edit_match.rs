//! Finding and replacing `old_string` in file content for the `edit` and `multi_edit` tools:
//! exact match first, then a whitespace-tolerant fallback (indentation and trailing spaces
//! ignored) that is used only when it yields exactly one match. Failures explain themselves:
//! several matches give the count and line numbers, no match shows the closest region.

use similar::TextDiff;
use thiserror::Error;

/// Why an edit could not be applied.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum EditFailure {
    /// `old_string` is empty.
    #[error(
        "EDIT_INVALID: old_string is empty. Give the exact text to replace (use write to create a file)."
    )]
    EmptyOldString,
    /// `old_string` and `new_string` are the same.
    #[error("EDIT_INVALID: old_string and new_string are identical; nothing would change.")]
    NoChange,
    /// `old_string` matches several times and `replace_all` is not set.
    #[error(
        "EDIT_AMBIGUOUS: old_string matches {count} times (lines {}). Include more surrounding \
         lines to make it unique, or set replace_all to replace every occurrence.",
        join_lines(.lines)
    )]
    Ambiguous { count: usize, lines: Vec<usize> },
    /// `old_string` does not occur.
    #[error("EDIT_NO_MATCH: old_string was not found.{}", closest_text(.closest))]
    NoMatch { closest: Option<ClosestRegion> },
}

impl EditFailure {
    /// Stable error code.
    pub fn code(&self) -> &'static str {
        match self {
            Self::EmptyOldString | Self::NoChange => "EDIT_INVALID",
            Self::Ambiguous { .. } => "EDIT_AMBIGUOUS",
            Self::NoMatch { .. } => "EDIT_NO_MATCH",
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

fn join_lines(lines: &[usize]) -> String {
    lines
        .iter()
        .map(usize::to_string)
        .collect::<Vec<_>>()
        .join(", ")
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

/// How an edit was applied.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Applied {
    /// Number of occurrences replaced.
    pub replacements: usize,
    /// Whether the whitespace-tolerant fallback found the match.
    pub whitespace_tolerant: bool,
    /// Line (1-based) of the first replacement.
    pub first_line: usize,
}

/// Applies one edit to `content` (LF line endings). Returns the new content.
pub fn apply_edit(
    content: &str,
    old: &str,
    new: &str,
    replace_all: bool,
) -> Result<(String, Applied), EditFailure> {
    if old.is_empty() {
        return Err(EditFailure::EmptyOldString);
    }
    if old == new {
        return Err(EditFailure::NoChange);
    }
    let positions: Vec<usize> = content.match_indices(old).map(|(i, _)| i).collect();
    match positions.len() {
        0 => {}
        1 => {
            let at = positions[0];
            let mut out = String::with_capacity(content.len() + new.len());
            out.push_str(&content[..at]);
            out.push_str(new);
            out.push_str(&content[at + old.len()..]);
            let first_line = line_of(content, at);
            return Ok((
                out,
                Applied {
                    replacements: 1,
                    whitespace_tolerant: false,
                    first_line,
                },
            ));
        }
        count if replace_all => {
            let first_line = line_of(content, positions[0]);
            let out = content.replace(old, new);
            return Ok((
                out,
                Applied {
                    replacements: count,
                    whitespace_tolerant: false,
                    first_line,
                },
            ));
        }
        count => {
            let lines = positions.iter().map(|&p| line_of(content, p)).collect();
            return Err(EditFailure::Ambiguous { count, lines });
        }
    }
    if let Some(result) = whitespace_tolerant(content, old, new) {
        return Ok(result);
    }
    Err(EditFailure::NoMatch {
        closest: closest_region(content, old),
    })
}

/// 1-based line number of byte offset `at`.
fn line_of(content: &str, at: usize) -> usize {
    content.as_bytes()[..at]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

/// Byte ranges of each line of `content` (without the `\n`).
fn line_spans(content: &str) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut start = 0;
    for (i, b) in content.bytes().enumerate() {
        if b == b'\n' {
            spans.push((start, i));
            start = i + 1;
        }
    }
    if start < content.len() {
        spans.push((start, content.len()));
    }
    spans
}

fn old_lines(old: &str) -> Vec<&str> {
    let trimmed = old.strip_suffix('\n').unwrap_or(old);
    trimmed.split('\n').collect()
}

fn leading_ws(line: &str) -> &str {
    &line[..line.len() - line.trim_start().len()]
}

/// Matches whole lines with leading and trailing whitespace ignored. Applies only if exactly one
/// window of lines matches; the replacement is re-indented by the difference between the file's
/// indentation and `old_string`'s.
fn whitespace_tolerant(content: &str, old: &str, new: &str) -> Option<(String, Applied)> {
    let wanted = old_lines(old);
    if wanted.iter().all(|l| l.trim().is_empty()) {
        return None;
    }
    let spans = line_spans(content);
    if wanted.len() > spans.len() {
        return None;
    }
    let mut found = None;
    for start in 0..=spans.len() - wanted.len() {
        let matches = wanted.iter().enumerate().all(|(k, w)| {
            let (a, b) = spans[start + k];
            content[a..b].trim() == w.trim()
        });
        if matches {
            if found.is_some() {
                return None;
            }
            found = Some(start);
        }
    }
    let start = found?;
    let region_start = spans[start].0;
    let region_end = spans[start + wanted.len() - 1].1;
    let file_indent = leading_ws(&content[spans[start].0..spans[start].1]);
    let old_indent = leading_ws(wanted[0]);
    let new_body = new.strip_suffix('\n').unwrap_or(new);
    let reindented: Vec<String> = new_body
        .split('\n')
        .map(|line| match line.strip_prefix(old_indent) {
            Some(rest) if !line.trim().is_empty() => format!("{file_indent}{rest}"),
            _ => line.to_string(),
        })
        .collect();
    let mut out = String::with_capacity(content.len() + new.len());
    out.push_str(&content[..region_start]);
    out.push_str(&reindented.join("\n"));
    out.push_str(&content[region_end..]);
    Some((
        out,
        Applied {
            replacements: 1,
            whitespace_tolerant: true,
            first_line: start + 1,
        },
    ))
}

/// Files with more lines than this skip the closest-region search (it is quadratic-ish).
const CLOSEST_SEARCH_MAX_LINES: usize = 20_000;

/// The window of lines (as many as `old` has) most similar to `old`.
fn closest_region(content: &str, old: &str) -> Option<ClosestRegion> {
    let spans = line_spans(content);
    let wanted = old_lines(old).len().max(1);
    if spans.is_empty() || spans.len() > CLOSEST_SEARCH_MAX_LINES {
        return None;
    }
    let window = wanted.min(spans.len());
    let mut best: Option<(f32, usize)> = None;
    for start in 0..=spans.len() - window {
        let text = &content[spans[start].0..spans[start + window - 1].1];
        let ratio = TextDiff::from_chars(text, old.trim_end_matches('\n')).ratio();
        if best.is_none_or(|(r, _)| ratio > r) {
            best = Some((ratio, start));
        }
    }
    let (ratio, start) = best?;
    let snippet = (start..start + window)
        .map(|i| format!("{:>6}\t{}", i + 1, &content[spans[i].0..spans[i].1]))
        .collect::<Vec<_>>()
        .join("\n");
    Some(ClosestRegion {
        start_line: start + 1,
        end_line: start + window,
        similarity_percent: (ratio * 100.0).round() as u32,
        snippet,
    })
}

/// Line-ending convention of a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineEnding {
    /// `\n`
    Lf,
    /// `\r\n`
    CrLf,
}

impl LineEnding {
    /// The convention of `content`: CRLF if it contains any `\r\n`.
    pub fn detect(content: &str) -> Self {
        if content.contains("\r\n") {
            Self::CrLf
        } else {
            Self::Lf
        }
    }

    /// `text` with line endings normalised to LF.
    pub fn to_lf(text: &str) -> String {
        text.replace("\r\n", "\n")
    }

    /// LF text converted back to this convention.
    pub fn restore(self, lf_text: &str) -> String {
        match self {
            Self::Lf => lf_text.to_string(),
            Self::CrLf => lf_text.replace('\n', "\r\n"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_single_match() {
        let (out, a) = apply_edit("a\nb\nc\n", "b", "B", false).unwrap();
        assert_eq!(out, "a\nB\nc\n");
        assert_eq!(
            a,
            Applied {
                replacements: 1,
                whitespace_tolerant: false,
                first_line: 2
            }
        );
    }

    #[test]
    fn several_matches_give_count_and_lines() {
        let err = apply_edit("x\nfoo\ny\nfoo\nfoo\n", "foo", "bar", false).unwrap_err();
        assert_eq!(
            err,
            EditFailure::Ambiguous {
                count: 3,
                lines: vec![2, 4, 5]
            }
        );
        assert!(err.to_string().contains("3 times (lines 2, 4, 5)"));
    }

    #[test]
    fn replace_all_replaces_every_match() {
        let (out, a) = apply_edit("foo foo\nfoo\n", "foo", "bar", true).unwrap();
        assert_eq!(out, "bar bar\nbar\n");
        assert_eq!(a.replacements, 3);
    }

    #[test]
    fn no_match_shows_closest_region() {
        let content = "fn main() {\n    let x = 1;\n    println!(\"{x}\");\n}\n";
        let err = apply_edit(content, "let x = 2;\nprintln!(\"{y}\");", "z", false).unwrap_err();
        let EditFailure::NoMatch { closest: Some(c) } = &err else {
            panic!("{err:?}")
        };
        assert_eq!((c.start_line, c.end_line), (2, 3));
        assert!(
            c.similarity_percent > 60 && c.similarity_percent < 100,
            "{c:?}"
        );
        let text = err.to_string();
        assert!(text.contains("lines 2–3"), "{text}");
        assert!(text.contains("     2\t    let x = 1;"), "{text}");
    }

    #[test]
    fn whitespace_tolerant_fallback_reindents() {
        let content = "impl A {\n    fn f() {\n        call();  \n    }\n}\n";
        let (out, a) = apply_edit(
            content,
            "fn f() {\n    call();\n}",
            "fn f() {\n    other();\n}",
            false,
        )
        .unwrap();
        assert!(a.whitespace_tolerant);
        assert_eq!(a.first_line, 2);
        assert_eq!(out, "impl A {\n    fn f() {\n        other();\n    }\n}\n");
    }

    #[test]
    fn whitespace_tolerant_needs_unique_match() {
        let content = "  a()\nb\n    a()\n";
        let err = apply_edit(content, "a() ", "c()", false).unwrap_err();
        assert_eq!(err.code(), "EDIT_NO_MATCH");
    }

    #[test]
    fn empty_and_identical_are_invalid() {
        assert_eq!(
            apply_edit("a", "", "b", false).unwrap_err(),
            EditFailure::EmptyOldString
        );
        assert_eq!(
            apply_edit("a", "a", "a", false).unwrap_err(),
            EditFailure::NoChange
        );
    }

    #[test]
    fn line_endings_round_trip() {
        assert_eq!(LineEnding::detect("a\r\nb"), LineEnding::CrLf);
        assert_eq!(LineEnding::detect("a\nb"), LineEnding::Lf);
        assert_eq!(
            LineEnding::CrLf.restore(&LineEnding::to_lf("a\r\nb\r\n")),
            "a\r\nb\r\n"
        );
    }
}
