//! Writing a checkpoint at the cost of what changed.
//!
//! [`Snapshotter`] keeps what the last checkpoint knew: each file's stat and object, what was
//! left out, and the folders' trees ([`super::tree_state`]). A checkpoint then looks at either
//! - a [`Region`]: the paths the watcher's journal saw change, each with what is below it. Only
//!   those are listed (walking down to them with the full scan's rules), files the watcher named
//!   are read again whatever their stat says, and only the trees on their paths are written; or
//! - the whole workspace (the first checkpoint, or when the journal cannot be trusted; the reason
//!   is logged). Files whose stat did not change are not read again, unless their times were too
//!   close to the last read to prove it (git's "racy" files).
//!
//! Both give the same tree for the same workspace: the full scan is the reference the property
//! test compares the region's result with.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use gix::ObjectId;

use super::coverage::{self, Coverage};
use super::error::CheckpointError;
use super::index_file::{self, Seen};
use super::region::Region;
use super::scan::{Kind, Scanned, Skipped, scan, scan_region};
use super::shadow::{Recorded, write_commit};
use super::tree_state::TreeState;
use crate::os_path;

/// A file whose times are within this of when it was read may change again without its stat
/// showing it: the kernel's file clock moves in ticks of a few milliseconds.
const RACY_NS: i128 = 20_000_000;

/// The same on a file system that keeps whole seconds (FAT keeps two).
const RACY_COARSE_NS: i128 = 2_000_000_000;

/// What a checkpoint looks at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Look {
    /// The whole workspace, and why.
    Everything(String),
    /// Only these paths and what is below them.
    Region(Region),
}

/// A checkpoint written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snapshot {
    pub commit: ObjectId,
    pub tree: ObjectId,
    /// Paths left out (too large, unreadable).
    pub skipped: Vec<Skipped>,
    /// How many files had to be read (those new or changed since the last checkpoint).
    pub read: usize,
    /// Why the whole workspace was scanned, when it was.
    pub full_scan: Option<String>,
}

/// Writes checkpoints of one workspace incrementally.
#[derive(Debug, Default)]
pub struct Snapshotter {
    files: BTreeMap<Vec<u8>, Seen>,
    skipped: BTreeMap<Vec<u8>, Skipped>,
    tree: TreeState,
    /// Whether a full scan made `files` and `tree` true for the workspace in this process.
    scanned: bool,
}

impl Snapshotter {
    /// Starts from what an earlier run knew about the files (see [`index_file`]).
    pub fn with_files(files: BTreeMap<Vec<u8>, Seen>) -> Self {
        Self {
            files,
            ..Self::default()
        }
    }

    /// What it knows about the files now.
    pub fn files(&self) -> &BTreeMap<Vec<u8>, Seen> {
        &self.files
    }

    /// Records the workspace at `root` as a commit on `parent`, looking at what `look` says.
    pub fn take(
        &mut self,
        repo: &gix::Repository,
        root: &Path,
        parent: Option<ObjectId>,
        message: &str,
        coverage: &Coverage,
        look: Look,
    ) -> Result<Snapshot, CheckpointError> {
        let look = match look {
            Look::Region(_) if !self.scanned => {
                Look::Everything("the first checkpoint since Foreman started".into())
            }
            look => look,
        };
        let started = now_ns();
        let looked = self.look(repo, root, coverage, look, started);
        let looked = looked.and_then(|looked| {
            self.mark(repo, coverage.ignored.is_some())?;
            Ok(looked)
        });
        let tree = looked.and_then(|looked| Ok((looked, self.tree.write(repo)?)));
        let ((read, full_scan), tree) = match tree {
            Ok(done) => done,
            Err(error) => {
                // What is known may be half-updated: the next checkpoint starts over.
                self.tree = TreeState::default();
                self.scanned = false;
                return Err(error);
            }
        };
        let commit = write_commit(repo, tree, parent, message)?;
        Ok(Snapshot {
            commit,
            tree,
            skipped: self.skipped.values().cloned().collect(),
            read,
            full_scan,
        })
    }

    /// Lists and reads what `look` says; the files read and why everything was scanned.
    fn look(
        &mut self,
        repo: &gix::Repository,
        root: &Path,
        coverage: &Coverage,
        look: Look,
        started: i128,
    ) -> Result<(usize, Option<String>), CheckpointError> {
        Ok(match look {
            Look::Everything(why) => {
                tracing::info!(workspace = %root.display(), reason = %why, "checkpoint: scanning the whole workspace");
                let (found, skipped) = scan(root, coverage);
                let old = std::mem::take(&mut self.files);
                self.skipped = keyed(root, skipped);
                let read = self.replace(repo, root, None, old, found, started)?;
                self.scanned = true;
                (read, Some(why))
            }
            Look::Region(region) if region.is_empty() => (0, None),
            Look::Region(region) => {
                let region = Arc::new(region);
                let (found, skipped) = scan_region(root, coverage, &region);
                let old = self.take_region(&region);
                self.skipped.extend(keyed(root, skipped));
                (
                    self.replace(repo, root, Some(&region), old, found, started)?,
                    None,
                )
            }
        })
    }

    /// Takes out what is known under `region` (files and skipped paths).
    fn take_region(&mut self, region: &Region) -> BTreeMap<Vec<u8>, Seen> {
        let mut old = BTreeMap::new();
        for path in region.paths() {
            for (key, seen) in drain_under(&mut self.files, path) {
                old.insert(key, seen);
            }
            drain_under(&mut self.skipped, path);
        }
        old
    }

    /// Records `found` in place of `old` (what was known of the same paths); how many files
    /// were read.
    fn replace(
        &mut self,
        repo: &gix::Repository,
        root: &Path,
        region: Option<&Region>,
        old: BTreeMap<Vec<u8>, Seen>,
        found: Vec<Scanned>,
        started: i128,
    ) -> Result<usize, CheckpointError> {
        // A tree never written (a new process) needs every file, changed or not.
        let fresh_tree = !self.scanned;
        let mut read = 0;
        for Scanned {
            path,
            kind,
            stat,
            ignored,
        } in found
        {
            let before = old.get(&path);
            let named = region.is_some_and(|r| r.names(&path));
            let reusable = before.filter(|seen| {
                !named && !seen.racy && seen.stat == stat && seen.recorded.kind == kind
            });
            let recorded = match reusable {
                Some(seen) => seen.recorded,
                None => match record(repo, root, &path, kind)? {
                    Some(recorded) => {
                        read += 1;
                        recorded
                    }
                    None => {
                        let shown = String::from_utf8_lossy(&path).into_owned();
                        self.skipped.insert(
                            path,
                            Skipped {
                                path: shown,
                                reason: "could not be read".into(),
                            },
                        );
                        continue;
                    }
                },
            };
            let moved = before.is_some_and(|s| s.ignored != ignored);
            if moved && let Some(before) = before {
                self.tree
                    .set(&coverage::tree_path(&path, before.ignored), None);
            }
            if fresh_tree || moved || before.map(|s| s.recorded) != Some(recorded) {
                self.tree
                    .set(&coverage::tree_path(&path, ignored), Some(recorded));
            }
            let coarse = stat.mtime_ns % 1_000_000_000 == 0;
            let window = if coarse { RACY_COARSE_NS } else { RACY_NS };
            let racy = stat.mtime_ns.max(stat.ctime_ns) + window > started;
            self.files.insert(
                path,
                Seen {
                    stat,
                    recorded,
                    racy,
                    ignored,
                },
            );
        }
        for (path, seen) in &old {
            if !self.files.contains_key(path) {
                self.tree
                    .set(&coverage::tree_path(path, seen.ignored), None);
            }
        }
        Ok(read)
    }

    /// Puts the marker of a checkpoint that keeps ignored files in its tree, or takes it out.
    fn mark(&mut self, repo: &gix::Repository, keeps_ignored: bool) -> Result<(), CheckpointError> {
        let marker = match keeps_ignored {
            true => {
                let oid = repo
                    .write_blob(b"")
                    .map_err(CheckpointError::repo)?
                    .detach();
                Some(Recorded {
                    oid,
                    kind: Kind::File,
                })
            }
            false => None,
        };
        self.tree.set(&coverage::marker_path(), marker);
        Ok(())
    }
}

/// Reads the file or link at `path` and writes it as a blob; `None` when it cannot be read.
fn record(
    repo: &gix::Repository,
    root: &Path,
    path: &[u8],
    kind: Kind,
) -> Result<Option<Recorded>, CheckpointError> {
    let full = root.join(os_path::from_bytes(path));
    let bytes = match kind {
        Kind::Symlink => std::fs::read_link(&full).map(|t| os_path::git_path(&t)),
        _ => std::fs::read(&full),
    };
    let Ok(bytes) = bytes else {
        return Ok(None);
    };
    let oid = repo
        .write_blob(&bytes)
        .map_err(CheckpointError::repo)?
        .detach();
    Ok(Some(Recorded { oid, kind }))
}

/// Removes and returns the entries of `map` at `path` and below it.
fn drain_under<V>(map: &mut BTreeMap<Vec<u8>, V>, path: &[u8]) -> Vec<(Vec<u8>, V)> {
    let mut out = Vec::new();
    if let Some(value) = map.remove(path) {
        out.push((path.to_vec(), value));
    }
    let mut low = path.to_vec();
    low.push(b'/');
    let mut high = path.to_vec();
    high.push(b'/' + 1);
    let keys: Vec<Vec<u8>> = map.range(low..high).map(|(k, _)| k.clone()).collect();
    for key in keys {
        if let Some(value) = map.remove(&key) {
            out.push((key, value));
        }
    }
    out
}

/// The skipped paths by their workspace-relative bytes (a walker's error may name the path in
/// full).
fn keyed(root: &Path, skipped: Vec<Skipped>) -> BTreeMap<Vec<u8>, Skipped> {
    let prefix = format!("{}/", root.display());
    skipped
        .into_iter()
        .map(|s| {
            let key = s
                .path
                .strip_prefix(&prefix)
                .unwrap_or(&s.path)
                .as_bytes()
                .to_vec();
            (key, s)
        })
        .collect()
}

fn now_ns() -> i128 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i128::try_from(d.as_nanos()).unwrap_or(i128::MAX))
}

/// Saves what `snapshotter` knows beside the repository at `repo` (a cache; failures are logged).
pub fn save_index(repo: &Path, snapshotter: &Snapshotter) {
    if let Err(error) = index_file::save(&index_file::path_in(repo), snapshotter.files()) {
        tracing::warn!(%error, "the checkpoints' file index could not be saved");
    }
}
