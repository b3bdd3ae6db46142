//! Counting the lines added and removed between two versions of a file, within a time limit.
//!
//! Myers' diff costs the product of the file's length and the number of changed lines, so
//! rewriting every line of a 2 MiB file cost minutes without a limit. The search runs only on the
//! lines both versions have, and past its deadline `similar` stops searching and counts what is
//! left as replaced: the counts are then an upper bound ([`LineCounts::approximate`]), and the
//! time stays bounded whatever the sizes.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use similar::{Algorithm, DiffTag, DiffableStr, capture_diff_slices_deadline};

use super::compute::DiffLimits;

/// Lines added and removed going from one text to another.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LineCounts {
    pub added: usize,
    pub removed: usize,
    /// The deadline cut the search short: some unchanged lines may be counted as replaced.
    pub approximate: bool,
}

/// Lines added and removed going from `old` to `new`, searching for at most `limit` (a
/// preview's [`DiffLimits::deadline`] for a count that is kept, less for one redrawn live).
///
/// A line that occurs on one side only is added or removed whatever the rest is, so the search
/// runs on the lines both sides have (the longest common subsequence is the same): rewriting
/// every line of a file then costs one pass over its lines, not Myers' product of its length and
/// the lines changed. The counts are those of `similar`'s line diff of the two texts.
pub fn line_counts_within(old: &str, new: &str, limit: Duration) -> LineCounts {
    let started = Instant::now();
    let old_lines = old.tokenize_lines();
    let new_lines = new.tokenize_lines();
    let mut ids: HashMap<&str, (u32, bool, bool)> = HashMap::new();
    for line in &old_lines {
        let next = u32::try_from(ids.len()).unwrap_or(u32::MAX);
        ids.entry(line).or_insert((next, false, false)).1 = true;
    }
    for line in &new_lines {
        let next = u32::try_from(ids.len()).unwrap_or(u32::MAX);
        ids.entry(line).or_insert((next, false, false)).2 = true;
    }
    let shared = |lines: &[&str]| -> Vec<u32> {
        lines
            .iter()
            .filter_map(|line| ids.get(line).filter(|(_, o, n)| *o && *n).map(|e| e.0))
            .collect()
    };
    let (old_shared, new_shared) = (shared(&old_lines), shared(&new_lines));
    let ops = capture_diff_slices_deadline(
        Algorithm::Myers,
        &old_shared,
        &new_shared,
        Some(started + limit),
    );
    let common: usize = ops
        .iter()
        .map(|op| match op.as_tag_tuple() {
            (DiffTag::Equal, range, _) => range.len(),
            _ => 0,
        })
        .sum();
    LineCounts {
        added: new_lines.len() - common,
        removed: old_lines.len() - common,
        approximate: started.elapsed() >= limit,
    }
}

/// [`line_counts_within`] the time limit of every other diff ([`DiffLimits::default`]).
pub fn line_counts(old: &str, new: &str) -> LineCounts {
    line_counts_within(old, new, DiffLimits::default().deadline)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pair(c: LineCounts) -> (usize, usize) {
        (c.added, c.removed)
    }

    #[test]
    fn counts_changes() {
        assert_eq!(pair(line_counts("", "a\nb\n")), (2, 0));
        assert_eq!(pair(line_counts("a\nb\nc\n", "a\nB\nc\nd\n")), (2, 1));
        assert_eq!(pair(line_counts("same\n", "same\n")), (0, 0));
        assert!(!line_counts("a\n", "b\n").approximate);
    }

    #[test]
    fn a_rewrite_of_every_line_is_counted_without_a_search() {
        let old: String = (0..20_000).map(|i| format!("old line {i}\n")).collect();
        let new: String = (0..20_000).map(|i| format!("new line {i}\n")).collect();
        let counts = line_counts_within(&old, &new, Duration::from_secs(3600));
        assert_eq!(pair(counts), (20_000, 20_000));
    }

    #[test]
    fn the_counts_are_those_of_the_whole_diff() {
        // Lines on both sides, moved about, with some on one side only (and a last line
        // without its newline, and CRLF), against `similar`'s own line diff of the texts.
        let old: String = (0..400)
            .map(|i| format!("l{}\r\n", (i * 7) % 50))
            .chain(["end".to_owned()])
            .collect();
        let new: String = (0..300)
            .map(|i| format!("l{}\r\n", (i * 11) % 60))
            .chain(["end\n".to_owned()])
            .collect();
        let diff = similar::TextDiff::from_lines(old.as_str(), new.as_str());
        let mut expected = (0, 0);
        for change in diff.iter_all_changes() {
            match change.tag() {
                similar::ChangeTag::Insert => expected.0 += 1,
                similar::ChangeTag::Delete => expected.1 += 1,
                similar::ChangeTag::Equal => {}
            }
        }
        let counts = line_counts(&old, &new);
        assert!(!counts.approximate);
        assert_eq!(pair(counts), expected);
    }

    #[test]
    fn a_search_cut_short_counts_what_is_left_as_replaced() {
        // Every line on both sides, in another order: the search has to run, and gets no time.
        let old: String = (0..20_000).map(|i| format!("line {i}\n")).collect();
        let new: String = (0..20_000)
            .map(|i| format!("line {}\n", (i * 7_919) % 20_000))
            .collect();
        let counts = line_counts_within(&old, &new, Duration::ZERO);
        assert!(counts.approximate);
        assert!(
            counts.added <= 20_000 && counts.added == counts.removed,
            "{counts:?}"
        );
    }
}
