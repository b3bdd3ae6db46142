//! Temporary files of writes that never finished. A process killed between creating its
//! `.foreman-tmp-<pid>-<n>` ([`temp_name`](super::common)) and renaming it over the target
//! leaves the file behind, as big as what it had written, and nothing else would remove it.
//! [`remove_leftovers`] walks the workspace (links not followed, `.git` folders left out) and
//! removes the regular files with exactly that name whose process has ended: another running
//! Foreman's, this process's, and every other file stay.

use std::path::{Path, PathBuf};

use super::common::TEMP_PREFIX;
use crate::process_tree;

/// The process whose write `name` is the temporary file of, when it is one.
fn writer_of(name: &str) -> Option<u32> {
    let (pid, counter) = name.strip_prefix(TEMP_PREFIX)?.split_once('-')?;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    (digits(pid) && digits(counter))
        .then(|| pid.parse().ok())
        .flatten()
}

/// Removes the temporary files under `root` left by writes of processes that have ended; the
/// paths removed.
pub fn remove_leftovers(root: &Path) -> Vec<PathBuf> {
    let own = std::process::id();
    let walker = ignore::WalkBuilder::new(root)
        .standard_filters(false)
        .follow_links(false)
        .filter_entry(|entry| {
            let is_dir = entry.file_type().is_some_and(|t| t.is_dir());
            !(is_dir && entry.file_name() == ".git")
        })
        .build();
    let mut removed = Vec::new();
    for entry in walker.flatten() {
        if !entry.file_type().is_some_and(|t| t.is_file()) {
            continue;
        }
        let Some(pid) = entry.file_name().to_str().and_then(writer_of) else {
            continue;
        };
        if pid == own || process_tree::is_running(pid) {
            continue;
        }
        match std::fs::remove_file(entry.path()) {
            Ok(()) => removed.push(entry.into_path()),
            Err(error) => {
                tracing::warn!(%error, path = %entry.path().display(), "a stale temporary file stays");
            }
        }
    }
    removed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_temporary_name_with_a_process_and_a_counter_is_ours() {
        assert_eq!(writer_of(".foreman-tmp-123-4"), Some(123));
        for other in [
            ".foreman-tmp-123",
            ".foreman-tmp-123-",
            ".foreman-tmp--4",
            ".foreman-tmp-12a-4",
            ".foreman-tmp-123-4.bak",
            "foreman-tmp-123-4",
            ".foreman-tmp-99999999999999999999-1",
        ] {
            assert_eq!(writer_of(other), None, "{other}");
        }
    }
}
