//! Finding `old_string` in a file's text: exactly first; then line by line with indentation,
//! inner runs of whitespace, Unicode punctuation and the spacing around punctuation read
//! loosely, one level at a time; then with
//! the repairs of [`super::repair`]. Every step but the exact one is kept only when it finds
//! exactly one place, and says which tolerance it needed.

use std::ops::Range;

use super::failure::{EditFailure, closest_region, line_column};
use super::repair::{
    Repaired, Tolerance, placeholder, strip_line_numbers, trim_blank_lines, unescape,
};

/// Where an edit goes: each range of the text with what replaces it, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    pub edits: Vec<(Range<usize>, String)>,
    pub tolerances: Vec<Tolerance>,
}

/// A repair of the edit's strings ([`super::repair`]).
type Repair = fn(&str, &str) -> Option<Repaired>;

enum Attempt {
    Found(Found),
    Ambiguous(Vec<usize>),
    Nothing,
}

/// Where `old` is in `text` (LF, as are `old` and `new`), and what replaces it.
pub fn locate(text: &str, old: &str, new: &str, replace_all: bool) -> Result<Found, EditFailure> {
    if old.is_empty() {
        return Err(EditFailure::EmptyOldString);
    }
    if old == new {
        return Err(EditFailure::NoChange);
    }
    if let Some(line) = placeholder(old, new) {
        return Err(EditFailure::Placeholder { line });
    }
    match attempt(text, old, new, replace_all) {
        Attempt::Found(found) => return Ok(found),
        Attempt::Ambiguous(at) => {
            return Err(EditFailure::Ambiguous {
                count: at.len(),
                at: at.iter().map(|&p| line_column(text, p)).collect(),
            });
        }
        Attempt::Nothing => {}
    }
    let repairs: [(Tolerance, Repair); 3] = [
        (Tolerance::LineNumbers, strip_line_numbers),
        (Tolerance::BlankLines, trim_blank_lines),
        (Tolerance::Unescaped, unescape),
    ];
    let (mut old, mut new) = (old.to_owned(), new.to_owned());
    let mut applied = Vec::new();
    for (tolerance, repair) in repairs {
        let Some((fixed_old, fixed_new)) = repair(&old, &new) else {
            continue;
        };
        (old, new) = (fixed_old, fixed_new);
        applied.push(tolerance);
        if old == new || old.is_empty() {
            break;
        }
        if let Attempt::Found(mut found) = attempt(text, &old, &new, replace_all) {
            applied.append(&mut found.tolerances);
            found.tolerances = applied;
            return Ok(found);
        }
    }
    Err(EditFailure::NoMatch {
        closest: closest_region(text, &old),
    })
}

fn attempt(text: &str, old: &str, new: &str, replace_all: bool) -> Attempt {
    let positions: Vec<usize> = text.match_indices(old).map(|(i, _)| i).collect();
    match positions.len() {
        0 => {}
        1 => return Attempt::Found(exact(text, old, new, &positions)),
        _ if replace_all => return Attempt::Found(exact(text, old, new, &positions)),
        _ => return Attempt::Ambiguous(positions),
    }
    match loose(text, old, new) {
        Some(found) => Attempt::Found(found),
        None => Attempt::Nothing,
    }
}

/// The exact matches at `positions`. A deletion of whole lines quoted without their
/// indentation takes the indentation too, so the next line is not shifted.
fn exact(text: &str, old: &str, new: &str, positions: &[usize]) -> Found {
    let mut tolerances = Vec::new();
    let edits = positions
        .iter()
        .map(|&at| {
            let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
            let indent_only = text[line_start..at].chars().all(|c| c == ' ' || c == '\t');
            let start = if new.is_empty() && old.ends_with('\n') && at > line_start && indent_only {
                if !tolerances.contains(&Tolerance::WholeLines) {
                    tolerances.push(Tolerance::WholeLines);
                }
                line_start
            } else {
                at
            };
            (start..at + old.len(), new.to_owned())
        })
        .collect();
    Found { edits, tolerances }
}

/// Matches whole lines of `old` with the file's lines, each level reading more loosely; a level
/// is used only when exactly one window of lines matches, and a level that finds several stops
/// the search (a looser one would find as many). The replacement is re-indented by the
/// difference between the file's indentation and `old`'s.
fn loose(text: &str, old: &str, new: &str) -> Option<Found> {
    let wanted: Vec<&str> = old.strip_suffix('\n').unwrap_or(old).split('\n').collect();
    if wanted.iter().all(|l| l.trim().is_empty()) {
        return None;
    }
    let spans = line_spans(text);
    if wanted.len() > spans.len() {
        return None;
    }
    let levels: [&[Tolerance]; 4] = [
        &[Tolerance::Indentation],
        &[Tolerance::Indentation, Tolerance::InnerWhitespace],
        &[
            Tolerance::Indentation,
            Tolerance::InnerWhitespace,
            Tolerance::Punctuation,
        ],
        &[
            Tolerance::Indentation,
            Tolerance::InnerWhitespace,
            Tolerance::Punctuation,
            Tolerance::TokenSpacing,
        ],
    ];
    for level in levels {
        let norm = |line: &str| normalise(line, level);
        let wanted_norm: Vec<String> = wanted.iter().map(|l| norm(l)).collect();
        let mut found = None;
        let mut several = false;
        for start in 0..=spans.len() - wanted.len() {
            let matches = wanted_norm.iter().enumerate().all(|(k, w)| {
                let (a, b) = spans[start + k];
                norm(&text[a..b]) == *w
            });
            if matches {
                if found.is_some() {
                    several = true;
                    break;
                }
                found = Some(start);
            }
        }
        if several {
            return None;
        }
        if let Some(start) = found {
            return Some(reindented(text, &spans, start, &wanted, old, new, level));
        }
    }
    None
}

fn reindented(
    text: &str,
    spans: &[(usize, usize)],
    start: usize,
    wanted: &[&str],
    old: &str,
    new: &str,
    level: &[Tolerance],
) -> Found {
    let region = spans[start].0..spans[start + wanted.len() - 1].1;
    let file_indent = leading_ws(&text[spans[start].0..spans[start].1]);
    let old_indent = leading_ws(wanted[0]);
    let body = match old.ends_with('\n') {
        true => new.strip_suffix('\n').unwrap_or(new),
        false => new,
    };
    let replacement: Vec<String> = body
        .split('\n')
        .map(|line| match line.strip_prefix(old_indent) {
            Some(rest) if !line.trim().is_empty() => format!("{file_indent}{rest}"),
            _ => line.to_owned(),
        })
        .collect();
    // Name only what this match needed.
    let needs = |t: &Tolerance| {
        let fewer: Vec<Tolerance> = level.iter().copied().filter(|x| x != t).collect();
        (0..wanted.len()).any(|k| {
            let (a, b) = spans[start + k];
            normalise(&text[a..b], &fewer) != normalise(wanted[k], &fewer)
        })
    };
    let tolerances = level.iter().copied().filter(needs).collect();
    Found {
        edits: vec![(region, replacement.join("\n"))],
        tolerances,
    }
}

/// Byte ranges of each line of `text` (without the `\n`).
fn line_spans(text: &str) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut start = 0;
    for i in memchr::memchr_iter(b'\n', text.as_bytes()) {
        spans.push((start, i));
        start = i + 1;
    }
    if start < text.len() {
        spans.push((start, text.len()));
    }
    spans
}

fn leading_ws(line: &str) -> &str {
    &line[..line.len() - line.trim_start().len()]
}

/// `line` read as loosely as `level` says.
fn normalise(line: &str, level: &[Tolerance]) -> String {
    let mut out: String = if level.contains(&Tolerance::Punctuation) {
        line.chars().map(ascii_form).collect()
    } else {
        line.to_owned()
    };
    if level.contains(&Tolerance::Indentation) {
        out = out.trim().to_owned();
    }
    let inner = level.contains(&Tolerance::InnerWhitespace);
    let tokens = level.contains(&Tolerance::TokenSpacing);
    if inner || tokens {
        out = spaced(&out, inner, tokens);
    }
    out
}

/// `line` with each run of spaces and tabs read as one space and dropped at the ends
/// (`collapse`), and dropped inside where it does not sit between two word characters
/// (`drop_by_punctuation`).
fn spaced(line: &str, collapse: bool, drop_by_punctuation: bool) -> String {
    let is_blank = |c: char| c == ' ' || c == '\t';
    let is_word = |c: char| c.is_alphanumeric() || c == '_';
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(at) = rest.find(is_blank) {
        let (before, run) = rest.split_at(at);
        out.push_str(before);
        let len = run.len() - run.trim_start_matches(is_blank).len();
        let (blank, after) = run.split_at(len);
        let between_words = out.chars().next_back().is_some_and(is_word)
            && after.chars().next().is_some_and(is_word);
        let ends = out.is_empty() || after.is_empty();
        if ends && collapse {
            // Leading and trailing runs go, as splitting on them drops them.
        } else if drop_by_punctuation && !between_words && !ends {
            // Next to punctuation: the space is optional.
        } else if collapse {
            out.push(' ');
        } else {
            out.push_str(blank);
        }
        rest = after;
    }
    out.push_str(rest);
    out
}

/// The ASCII form of a Unicode dash, quote or space (other characters as they are).
fn ascii_form(c: char) -> char {
    match c {
        '\u{2010}'..='\u{2015}' | '\u{2212}' | '\u{fe58}' | '\u{fe63}' | '\u{ff0d}' => '-',
        '\u{2018}' | '\u{2019}' | '\u{201a}' | '\u{201b}' | '\u{2032}' | '\u{ff07}' => '\'',
        '\u{201c}' | '\u{201d}' | '\u{201e}' | '\u{201f}' | '\u{2033}' | '\u{ff02}' => '"',
        '\u{00a0}' | '\u{2000}'..='\u{200a}' | '\u{202f}' | '\u{205f}' | '\u{3000}' => ' ',
        other => other,
    }
}
