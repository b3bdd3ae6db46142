//! The order of `glob`'s results: newest first, ties by path; only the first few are kept.
//!
//! A walk of a large tree finds tens of thousands of matches, many with the same modification
//! time (files unpacked from one archive), so the tie-break on the path is where a plain sort
//! spends its time: `Path`'s ordering parses components on every comparison. Here paths compare
//! as bytes with the separator mapped below every other byte, which is the same order as
//! component-wise comparison for the normalised paths a walk yields, and only the kept matches
//! are sorted (the rest are partitioned off in linear time).

use std::cmp::Ordering;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// One match: its modification time and its path.
pub type Found = (SystemTime, PathBuf);

/// Keeps the `keep` newest of `found` (ties broken by path, ascending), sorted in that order.
pub fn keep_newest(found: &mut Vec<Found>, keep: usize) {
    if keep == 0 {
        found.clear();
        return;
    }
    if found.len() > keep {
        found.select_nth_unstable_by(keep - 1, newest_first);
        found.truncate(keep);
    }
    found.sort_unstable_by(newest_first);
}

/// Newest first, then by path in component order.
fn newest_first(a: &Found, b: &Found) -> Ordering {
    b.0.cmp(&a.0).then_with(|| path_order(&a.1, &b.1))
}

/// The component-wise order of two normalised paths, compared as bytes: a separator sorts
/// before any other byte, as the end of a component does.
fn path_order(a: &Path, b: &Path) -> Ordering {
    const SEPARATOR: u8 = std::path::MAIN_SEPARATOR as u8;
    let key = |byte: &u8| if *byte == SEPARATOR { 0 } else { *byte };
    a.as_os_str()
        .as_encoded_bytes()
        .iter()
        .map(key)
        .cmp(b.as_os_str().as_encoded_bytes().iter().map(key))
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    fn at(secs: u64, path: &str) -> Found {
        (
            SystemTime::UNIX_EPOCH + Duration::from_secs(secs),
            path.into(),
        )
    }

    #[test]
    fn path_ties_follow_component_order() {
        let paths = [
            "a/x", "a-b/x", "a.b", "a/b/c", "a/b", "ab", "a", "b/a", "a/b-c/d", "a/b/c-d",
        ];
        for p in paths {
            for q in paths {
                let (p, q) = (PathBuf::from(p), PathBuf::from(q));
                assert_eq!(path_order(&p, &q), p.cmp(&q), "{p:?} vs {q:?}");
            }
        }
    }

    #[test]
    fn keeps_the_newest_sorted_like_a_full_sort() {
        let mut all: Vec<Found> = (0..200u64)
            .map(|i| at(i % 7, &format!("d{}/f{}", i % 5, i)))
            .collect();
        let mut expected = all.clone();
        expected.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
        for keep in [0, 1, 10, 199, 200, 500] {
            let mut found = all.clone();
            keep_newest(&mut found, keep);
            assert_eq!(found, expected[..keep.min(200)], "keep {keep}");
        }
        all.truncate(0);
        keep_newest(&mut all, 3);
        assert!(all.is_empty());
    }
}
