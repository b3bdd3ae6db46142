//! Listing what a checkpoint records: every file and symlink of the workspace that git would
//! see (`.gitignore`, `.ignore` and `.git/info/exclude` respected), without the user's `.git`
//! directories, Foreman's own `.foreman/`, and files over the size limit (listed as skipped);
//! and, when the [`Coverage`] keeps them, the files git ignores outside its excluded folders
//! and under its smaller limit, marked `ignored` (found by a second walk that reads no ignore
//! file, minus what the first found). Symlinks are recorded as links and never followed; names
//! need not be UTF-8.
//!
//! [`scan_region`] lists only the paths of a [`Region`] (what the watcher saw change), walking
//! from the root down to them with the same walker and rules, so it decides what is ignored
//! exactly as the full scan does.

use std::path::Path;
use std::sync::Arc;

use super::coverage::Coverage;
use super::file_facts;
use super::region::Region;
use crate::os_path::git_path;

pub use super::stat::Stat;

/// What a recorded path is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    File,
    Executable,
    Symlink,
}

/// One path of the workspace with what tells whether it changed since it was last read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scanned {
    /// Workspace-relative, `/`-separated bytes.
    pub path: Vec<u8>,
    pub kind: Kind,
    pub stat: Stat,
    /// Git ignores it (kept under the checkpoint's `.foreman/ignored/`).
    pub ignored: bool,
}

/// A path left out of a checkpoint, and why.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Skipped {
    pub path: String,
    pub reason: String,
}

/// Lists the workspace at `root` as `coverage` says.
pub fn scan(root: &Path, coverage: &Coverage) -> (Vec<Scanned>, Vec<Skipped>) {
    walk(root, coverage, None)
}

/// Lists what of `region` is in the workspace at `root` now: the files and links at its paths
/// and below them.
pub fn scan_region(
    root: &Path,
    coverage: &Coverage,
    region: &Arc<Region>,
) -> (Vec<Scanned>, Vec<Skipped>) {
    walk(root, coverage, Some(region.clone()))
}

fn walk(
    root: &Path,
    coverage: &Coverage,
    region: Option<Arc<Region>>,
) -> (Vec<Scanned>, Vec<Skipped>) {
    let (mut found, skipped) = walk_with(root, coverage.max_file_bytes, region.clone(), None);
    if let Some(ignored) = &coverage.ignored {
        // What the first walk found, or left out for its size, is not ignored.
        let mut seen: std::collections::HashSet<Vec<u8>> =
            found.iter().map(|s| s.path.clone()).collect();
        seen.extend(skipped.iter().map(|s| s.path.as_bytes().to_vec()));
        // Ignored files over their limit are not listed as left out: they never were, and a
        // command that would remove them asks first (`Coverage::unkept`).
        let (all, _) = walk_with(root, ignored.max_bytes, region, Some(coverage));
        found.extend(
            all.into_iter()
                .filter(|s| !seen.contains(&s.path))
                .map(|s| Scanned { ignored: true, ..s }),
        );
        found.sort_by(|a, b| a.path.cmp(&b.path));
    }
    (found, skipped)
}

/// One walk: with the ignore files (`everything: None`), or without them and outside the
/// excluded folders of `everything`.
fn walk_with(
    root: &Path,
    max_file_bytes: u64,
    region: Option<Arc<Region>>,
    everything: Option<&Coverage>,
) -> (Vec<Scanned>, Vec<Skipped>) {
    let mut found = Vec::new();
    let mut skipped = Vec::new();
    let base = root.to_path_buf();
    let excluded = everything.cloned();
    let walker = ignore::WalkBuilder::new(root)
        .standard_filters(everything.is_none())
        .hidden(false)
        .parents(false)
        .require_git(false)
        .follow_links(false)
        .git_global(false)
        .filter_entry(move |entry| {
            let name = entry.file_name();
            let is_dir = entry.file_type().is_some_and(|t| t.is_dir());
            if is_dir && (name == ".git" || (name == ".foreman" && entry.depth() == 1)) {
                return false;
            }
            if is_dir && excluded.as_ref().is_some_and(|c| c.excludes(name)) {
                return false;
            }
            let Some(region) = &region else { return true };
            match entry.path().strip_prefix(&base) {
                Ok(relative) => region.wants(&git_path(relative), is_dir),
                Err(_) => true,
            }
        })
        .build();
    for entry in walker {
        let entry = match entry {
            Ok(entry) => entry,
            Err(error) => {
                skipped.push(Skipped {
                    path: error
                        .to_string()
                        .split(':')
                        .next()
                        .unwrap_or_default()
                        .to_owned(),
                    reason: format!("could not be read: {error}"),
                });
                continue;
            }
        };
        if entry.depth() == 0 {
            continue;
        }
        let Ok(relative) = entry.path().strip_prefix(root) else {
            continue;
        };
        let Some(file_type) = entry.file_type() else {
            continue;
        };
        let kind = if file_type.is_symlink() {
            Kind::Symlink
        } else if file_type.is_file() {
            Kind::File
        } else {
            // Directories are implied by their files; sockets and devices are not recorded.
            continue;
        };
        let metadata = match std::fs::symlink_metadata(entry.path()) {
            Ok(m) => m,
            Err(error) => {
                skipped.push(Skipped {
                    path: relative.display().to_string(),
                    reason: format!("could not be read: {error}"),
                });
                continue;
            }
        };
        if kind == Kind::File && metadata.len() > max_file_bytes {
            skipped.push(Skipped {
                path: relative.display().to_string(),
                reason: format!(
                    "{} is over the {} limit",
                    size_text(metadata.len()),
                    size_text(max_file_bytes)
                ),
            });
            continue;
        }
        let kind = match kind {
            Kind::File if file_facts::is_executable(&metadata) => Kind::Executable,
            other => other,
        };
        found.push(Scanned {
            path: git_path(relative),
            kind,
            stat: file_facts::stat(&metadata),
            ignored: false,
        });
    }
    found.sort_by(|a, b| a.path.cmp(&b.path));
    (found, skipped)
}

/// `2.0 GiB`, `10 MiB`, `512 bytes`.
pub fn size_text(bytes: u64) -> String {
    const MIB: u64 = 1 << 20;
    const GIB: u64 = 1 << 30;
    match bytes {
        b if b >= GIB => format!("{:.1} GiB", b as f64 / GIB as f64),
        b if b >= MIB => format!("{:.1} MiB", b as f64 / MIB as f64),
        b => format!("{b} bytes"),
    }
}
