//! Keeping a workspace's checkpoints under a size cap: the newest checkpoints are kept while the
//! objects they need fit under the cap, and the loose objects only older ones needed are
//! deleted. Checkpoints share most of their objects, so a subtree already counted for a newer
//! checkpoint is not walked again.

use std::collections::HashSet;
use std::path::Path;

use gix::ObjectId;
use gix::objs::tree::EntryKind;

use super::error::CheckpointError;
use super::shadow::{entries, tree_of};

/// The default cap on one workspace's checkpoints.
pub const DEFAULT_CAP_BYTES: u64 = 1 << 30;

/// What a collection did.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Collected {
    /// The checkpoints dropped (their commit ids), oldest among them last.
    pub dropped: Vec<String>,
    /// Bytes freed on disk.
    pub freed: u64,
}

/// The bytes the repository at `path` takes on disk.
pub fn usage(path: &Path) -> u64 {
    fn walk(dir: &Path) -> u64 {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return 0;
        };
        entries
            .flatten()
            .map(|entry| match entry.file_type() {
                Ok(t) if t.is_dir() => walk(&entry.path()),
                _ => entry.metadata().map_or(0, |m| m.len()),
            })
            .sum()
    }
    walk(path)
}

fn loose_path(repo_path: &Path, oid: &ObjectId) -> std::path::PathBuf {
    let hex = oid.to_string();
    repo_path.join("objects").join(&hex[..2]).join(&hex[2..])
}

fn size_on_disk(repo_path: &Path, oid: &ObjectId) -> u64 {
    std::fs::metadata(loose_path(repo_path, oid)).map_or(0, |m| m.len())
}

/// Keeps the newest of `newest_first` (commit ids) whose objects fit in `cap` bytes (always at
/// least the newest one) and deletes the loose objects no kept checkpoint needs.
pub fn collect(
    repo: &gix::Repository,
    newest_first: &[String],
    cap: u64,
) -> Result<Collected, CheckpointError> {
    let path = repo.path().to_path_buf();
    if usage(&path) <= cap || newest_first.is_empty() {
        return Ok(Collected::default());
    }
    let mut needed: HashSet<ObjectId> = HashSet::new();
    let mut total = 0u64;
    let mut kept = 0;
    for id in newest_first {
        let Ok(commit) = ObjectId::from_hex(id.as_bytes()) else {
            continue;
        };
        let mut added = HashSet::from([commit]);
        let mut size = size_on_disk(&path, &commit);
        if let Ok(tree) = tree_of(repo, commit) {
            size += mark(repo, &path, tree, &needed, &mut added)?;
        }
        if kept > 0 && total + size > cap {
            break;
        }
        total += size;
        kept += 1;
        needed.extend(added);
    }
    let dropped: Vec<String> = newest_first[kept..].to_vec();
    let mut freed = 0;
    let objects = path.join("objects");
    for fan in std::fs::read_dir(&objects)
        .map_err(|e| CheckpointError::io(&objects, e))?
        .flatten()
    {
        let name = fan.file_name().to_string_lossy().into_owned();
        if name.len() != 2 || !fan.path().is_dir() {
            continue;
        }
        for object in std::fs::read_dir(fan.path())
            .into_iter()
            .flatten()
            .flatten()
        {
            let hex = format!("{name}{}", object.file_name().to_string_lossy());
            let Ok(oid) = ObjectId::from_hex(hex.as_bytes()) else {
                continue;
            };
            if !needed.contains(&oid) {
                freed += object.metadata().map_or(0, |m| m.len());
                std::fs::remove_file(object.path())
                    .map_err(|e| CheckpointError::io(&object.path(), e))?;
            }
        }
    }
    Ok(Collected { dropped, freed })
}

/// Adds the objects of `tree` not yet `needed` to `added`; returns their size on disk.
fn mark(
    repo: &gix::Repository,
    path: &Path,
    tree: ObjectId,
    needed: &HashSet<ObjectId>,
    added: &mut HashSet<ObjectId>,
) -> Result<u64, CheckpointError> {
    if needed.contains(&tree) || !added.insert(tree) {
        return Ok(0);
    }
    let mut size = size_on_disk(path, &tree);
    for (_, mode, oid) in entries(repo, tree)? {
        if mode.kind() == EntryKind::Tree {
            size += mark(repo, path, oid, needed, added)?;
        } else if !needed.contains(&oid) && added.insert(oid) {
            size += size_on_disk(path, &oid);
        }
    }
    Ok(size)
}
