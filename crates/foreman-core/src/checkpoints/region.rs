//! The part of the workspace a checkpoint looks at again: the paths the watcher's journal says
//! changed, each with everything below it (a folder created, renamed or deleted stands for its
//! whole subtree).
//!
//! [`plan`] turns the journal's raw paths into a [`Region`], or into the reason a full scan is
//! needed instead: a changed `.gitignore`, `.ignore` or `.git/info/exclude` changes what is
//! recorded anywhere below it, and a `.git` that appears or goes moves a repository's boundary,
//! which changes which ignore files apply. Paths the scan never records (inside a `.git` folder,
//! Foreman's own `.foreman/`) are dropped.

use std::collections::BTreeSet;

/// What a checkpoint must look at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Plan {
    Region(Region),
    FullScan(String),
}

/// Workspace-relative paths (`/`-separated bytes), each standing for itself and what is below it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Region {
    /// Without those inside another.
    paths: BTreeSet<Vec<u8>>,
    /// Every path the watcher named.
    named: BTreeSet<Vec<u8>>,
}

/// Sorts the journal's `paths` into a region, or says why everything must be scanned.
pub fn plan(paths: BTreeSet<Vec<u8>>) -> Plan {
    let mut region = BTreeSet::new();
    for path in paths {
        let parts: Vec<&[u8]> = path.split(|&b| b == b'/').collect();
        let Some(last) = parts.last().copied() else {
            continue;
        };
        if path.is_empty() {
            continue;
        }
        if last == b".gitignore" || last == b".ignore" {
            return Plan::FullScan(format!("{} changed", shown(&path)));
        }
        if let Some(git) = parts.iter().position(|p| *p == b".git") {
            let inside = &parts[git + 1..];
            if inside.is_empty() {
                return Plan::FullScan(format!("{} appeared or went", shown(&path)));
            }
            if inside == [&b"info"[..], &b"exclude"[..]] {
                return Plan::FullScan(format!("{} changed", shown(&path)));
            }
            continue;
        }
        if parts.len() > 1 && parts[0] == b".foreman" {
            continue;
        }
        region.insert(path);
    }
    Plan::Region(Region::from_paths(region))
}

fn shown(path: &[u8]) -> String {
    String::from_utf8_lossy(path).into_owned()
}

impl Region {
    /// A region of `paths`, without those already inside another of them.
    pub fn from_paths(paths: BTreeSet<Vec<u8>>) -> Self {
        let mut kept: BTreeSet<Vec<u8>> = BTreeSet::new();
        for path in &paths {
            let covered = ancestors(path).any(|a| kept.contains(a));
            if !covered {
                kept.insert(path.clone());
            }
        }
        Self {
            paths: kept,
            named: paths,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.paths.is_empty()
    }

    /// The region's paths, in order.
    pub fn paths(&self) -> impl Iterator<Item = &[u8]> {
        self.paths.iter().map(Vec::as_slice)
    }

    /// Whether `path` is in the region: one of its paths or below one.
    pub fn covers(&self, path: &[u8]) -> bool {
        self.paths.contains(path) || ancestors(path).any(|a| self.paths.contains(a))
    }

    /// Whether `path` is exactly one of the region's paths (the watcher saw it change).
    pub fn names(&self, path: &[u8]) -> bool {
        self.named.contains(path)
    }

    /// Whether a walk must visit `path`: it is covered, or (a folder) it holds a covered path.
    pub fn wants(&self, path: &[u8], is_dir: bool) -> bool {
        if self.covers(path) {
            return true;
        }
        if !is_dir {
            return false;
        }
        let mut prefix = path.to_vec();
        prefix.push(b'/');
        self.paths
            .range(prefix.clone()..)
            .next()
            .is_some_and(|p| p.starts_with(&prefix))
    }
}

/// The folders above `path`, nearest first (`a/b` and `a` for `a/b/c`).
fn ancestors(path: &[u8]) -> impl Iterator<Item = &[u8]> {
    let mut end = path.len();
    std::iter::from_fn(move || {
        let slash = path[..end].iter().rposition(|&b| b == b'/')?;
        end = slash;
        Some(&path[..slash])
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(paths: &[&str]) -> BTreeSet<Vec<u8>> {
        paths.iter().map(|p| p.as_bytes().to_vec()).collect()
    }

    #[test]
    fn ignore_files_and_repository_boundaries_ask_for_a_full_scan() {
        for path in ["a/.gitignore", ".ignore", ".git/info/exclude", "sub/.git"] {
            assert!(
                matches!(plan(set(&["x.rs", path])), Plan::FullScan(why) if why.contains(path)),
                "{path}"
            );
        }
    }

    #[test]
    fn what_the_scan_never_records_is_dropped() {
        let Plan::Region(region) =
            plan(set(&[".git/index", "sub/.git/HEAD", ".foreman/x", "a.rs"]))
        else {
            panic!("a region was expected");
        };
        assert_eq!(region.paths().collect::<Vec<_>>(), vec![&b"a.rs"[..]]);
    }

    #[test]
    fn a_folder_covers_what_is_below_it_and_the_walk_visits_its_ancestors() {
        let region = Region::from_paths(set(&["src/new", "src/new/a.rs", "docs/x.md"]));
        assert_eq!(region.paths().count(), 2);
        assert!(region.covers(b"src/new/deep/b.rs"));
        assert!(!region.covers(b"src/newer.rs"));
        assert!(region.wants(b"src", true));
        assert!(!region.wants(b"src", false));
        assert!(!region.wants(b"lib", true));
        assert!(region.wants(b"docs", true));
        assert!(!region.wants(b"docs/y.md", false));
        assert!(region.names(b"docs/x.md"));
        assert!(region.names(b"src/new/a.rs"));
        assert!(!region.names(b"src/new/b.rs"));
    }
}
