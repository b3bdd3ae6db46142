//! What a command would delete that no checkpoint keeps ([`Coverage::unkept`]): ignored files
//! in excluded folders or over the ignored limit, and files over the size limit, grouped for a
//! person to read. The engine asks before such a command (`builtin_tools/bash.rs`).

use std::collections::{BTreeSet, HashSet};
use std::path::Path;
use std::sync::Arc;

use super::coverage::Coverage;
use super::region::Region;

/// What a command would remove that no checkpoint keeps, grouped for a person to read:
/// `node_modules/ (1,204 files)`, `data/big.db (40.0 MiB)`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Unkept {
    pub groups: Vec<String>,
    /// Whether the look stopped before the end (too many files): there may be more.
    pub partial: bool,
}

impl Unkept {
    pub fn is_empty(&self) -> bool {
        self.groups.is_empty()
    }

    /// `node_modules/ (1,204 files), big.db (40.0 MiB) and 3 more`.
    pub fn describe(&self) -> String {
        let shown: Vec<&str> = self.groups.iter().take(5).map(String::as_str).collect();
        let mut text = shown.join(", ");
        let rest = self.groups.len().saturating_sub(shown.len());
        if rest > 0 {
            text.push_str(&format!(" and {rest} more"));
        }
        if self.partial {
            text.push_str(" (and possibly more: the look stopped early)");
        }
        text
    }
}

/// Which files a removal takes, as far as what it keeps is concerned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Takes {
    /// Everything under its paths (`rm -r`, `git clean -x`).
    Everything,
    /// Only what git ignores (`git clean -X`).
    IgnoredOnly,
    /// Only what git sees (`git clean` without `-x`/`-X`).
    VisibleOnly,
}

/// How many entries a look may visit before it stops.
const LOOK_MAX_ENTRIES: usize = 50_000;

impl Coverage {
    /// What under `paths` (workspace-relative, or the whole workspace when empty) a removal
    /// that [`Takes`] `takes` would delete and no checkpoint keeps: ignored files in excluded
    /// folders or over the ignored limit, and files over the size limit.
    pub fn unkept(&self, root: &Path, paths: &[String], takes: Takes) -> Unkept {
        let mut unkept = Unkept::default();
        let mut grouped: Vec<(String, u64, u64)> = Vec::new(); // (group, files, bytes)
        let mut visited = 0usize;
        let scopes: Vec<&str> = match paths.is_empty() {
            true => vec![""],
            false => paths.iter().map(String::as_str).collect(),
        };
        for scope in scopes {
            let start = root.join(scope);
            let Ok(_) = std::fs::symlink_metadata(&start) else {
                continue;
            };
            let visible = visible_set(root, scope);
            let walker = ignore::WalkBuilder::new(&start)
                .standard_filters(false)
                .follow_links(false)
                .filter_entry(|e| e.file_name() != ".git")
                .build();
            for entry in walker.flatten() {
                visited += 1;
                if visited > LOOK_MAX_ENTRIES {
                    unkept.partial = true;
                    break;
                }
                if !entry.file_type().is_some_and(|t| t.is_file()) {
                    continue;
                }
                let Ok(relative) = entry.path().strip_prefix(root) else {
                    continue;
                };
                // Foreman's own folder is read-only to confined commands and asked about
                // otherwise, as a protected path.
                if relative.starts_with(".foreman") {
                    continue;
                }
                let size = entry.metadata().map_or(0, |m| m.len());
                let is_visible = visible.contains(&super::file_facts::git_path(relative));
                let group = match (is_visible, takes) {
                    (true, Takes::IgnoredOnly) | (false, Takes::VisibleOnly) => continue,
                    (true, _) if size > self.max_file_bytes => file_group(relative, size),
                    (true, _) => continue,
                    (false, _) => match self.excluded_folder(relative) {
                        Some(folder) => folder,
                        None => match &self.ignored {
                            Some(i) if size <= i.max_bytes => continue,
                            _ => file_group(relative, size),
                        },
                    },
                };
                match grouped.iter_mut().find(|(g, _, _)| *g == group) {
                    Some(found) => {
                        found.1 += 1;
                        found.2 += size;
                    }
                    None => grouped.push((group, 1, size)),
                }
            }
        }
        unkept.groups = grouped
            .into_iter()
            .map(|(group, files, bytes)| match group.ends_with('/') {
                true => format!("{group} ({} files, {})", thousands(files), size_text(bytes)),
                false => format!("{group} ({})", size_text(bytes)),
            })
            .collect();
        unkept
    }

    /// The outermost excluded folder on `relative`'s way down, as `node_modules/`.
    fn excluded_folder(&self, relative: &Path) -> Option<String> {
        let mut at = std::path::PathBuf::new();
        let parent = relative.parent()?;
        for component in parent.components() {
            at.push(component);
            if self.excludes(component.as_os_str()) {
                return Some(format!("{}/", at.display()));
            }
        }
        None
    }
}

/// The files at or under `scope` that git would see, as the checkpoints' scan decides it.
fn visible_set(root: &Path, scope: &str) -> HashSet<Vec<u8>> {
    let everything = Coverage::visible_only(u64::MAX);
    let (found, _) = match scope.is_empty() {
        true => super::scan::scan(root, &everything),
        false => {
            let path = scope.trim_end_matches('/').as_bytes().to_vec();
            let region = Region::from_paths(BTreeSet::from([path]));
            super::scan::scan_region(root, &everything, &Arc::new(region))
        }
    };
    found.into_iter().map(|s| s.path).collect()
}

fn file_group(relative: &Path, _size: u64) -> String {
    relative.display().to_string()
}

fn size_text(bytes: u64) -> String {
    super::scan::size_text(bytes)
}

/// `1,204`.
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checkpoints::coverage::Coverage;

    fn write(root: &Path, path: &str, bytes: usize) {
        let path = root.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, vec![b'x'; bytes]).unwrap();
    }

    #[test]
    fn what_a_removal_would_lose_is_named_by_folder_and_file() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::write(root.join(".gitignore"), "node_modules/\n.env.local\n*.db\n").unwrap();
        write(root, "src/main.rs", 10);
        write(root, ".env.local", 20);
        write(root, "node_modules/a/index.js", 100);
        write(root, "node_modules/b/index.js", 100);
        write(root, "data.db", 2 << 20);
        let coverage = Coverage::default();
        let all = coverage.unkept(root, &[], Takes::Everything);
        assert_eq!(
            all.groups,
            vec!["data.db (2.0 MiB)", "node_modules/ (2 files, 200 bytes)"]
                .into_iter()
                .map(String::from)
                .collect::<Vec<_>>(),
            "{all:?}"
        );
        assert!(all.describe().contains("node_modules/ (2 files"));
        // `git clean` without -x takes only what git sees: all of it is kept.
        assert!(coverage.unkept(root, &[], Takes::VisibleOnly).is_empty());
        // An `rm -r src` loses nothing a checkpoint does not keep.
        assert!(
            coverage
                .unkept(root, &["src".into()], Takes::Everything)
                .is_empty()
        );
        // Without ignored files kept, the ignored `.env.local` would be lost too.
        let before = Coverage::visible_only(10 << 20);
        let lost = before.unkept(root, &[], Takes::IgnoredOnly);
        assert!(
            lost.groups.iter().any(|g| g.starts_with(".env.local")),
            "{lost:?}"
        );
        assert_eq!(thousands(1_204), "1,204");
    }
}
