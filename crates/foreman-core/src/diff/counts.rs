//! Counting the lines added and removed between two versions of a file, within a time limit.
//!
//! Myers' diff costs the product of the file's length and the number of changed lines, so
//! rewriting every line of a 2 MiB file costs minutes without a limit. Past its deadline
//! `similar` stops searching and counts what is left as replaced: the counts are then an upper
//! bound ([`LineCounts::approximate`]), and the time stays bounded whatever the sizes.

use std::time::{Duration, Instant};

use similar::{Algorithm, DiffTag, TextDiff};

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
pub fn line_counts_within(old: &str, new: &str, limit: Duration) -> LineCounts {
    let started = Instant::now();
    let diff = TextDiff::configure()
        .algorithm(Algorithm::Myers)
        .deadline(started + limit)
        .diff_lines(old, new);
    let approximate = started.elapsed() >= limit;
    let mut counts = LineCounts {
        approximate,
        ..LineCounts::default()
    };
    for op in diff.ops() {
        let (tag, old_range, new_range) = op.as_tag_tuple();
        match tag {
            DiffTag::Insert => counts.added += new_range.len(),
            DiffTag::Delete => counts.removed += old_range.len(),
            DiffTag::Replace => {
                counts.added += new_range.len();
                counts.removed += old_range.len();
            }
            DiffTag::Equal => {}
        }
    }
    counts
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
    fn a_rewrite_of_every_line_cut_short_is_still_counted_whole() {
        // 20,000 lines, each changed: Myers without a limit searches 40,000 edit paths.
        let old: String = (0..20_000).map(|i| format!("old line {i}\n")).collect();
        let new: String = (0..20_000).map(|i| format!("new line {i}\n")).collect();
        let counts = line_counts_within(&old, &new, Duration::from_millis(20));
        // Cut short, and still right: what is left when the search stops counts as replaced.
        assert!(counts.approximate);
        assert_eq!(pair(counts), (20_000, 20_000));
    }
}
