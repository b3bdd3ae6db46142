//! The shadow repository: a bare git repository in the app's data directory, one per
//! workspace, that holds each checkpoint as a commit of the workspace's files. The user's own
//! `.git` is never read or written. [`Snapshotter`] writes a checkpoint reading only the files
//! whose size, times or inode changed since it last saw them, and writing tree objects only for
//! directories whose entries changed, so its cost follows the changes, not the tree.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use gix::ObjectId;
use gix::bstr::{BStr, BString, ByteSlice};
use gix::objs::tree::{Entry, EntryKind, EntryMode};
use gix::objs::{Commit, Tree};

use super::error::CheckpointError;
use super::file_facts;
use super::scan::{Kind, Scanned, Skipped, Stat, scan};
use crate::os_path;

/// The default limit on a recorded file's size.
pub const DEFAULT_MAX_FILE_BYTES: u64 = 10 << 20;

/// A file of a checkpoint: its object and kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Recorded {
    pub oid: ObjectId,
    pub kind: Kind,
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
}

/// Opens the shadow repository at `path`, creating it when it does not exist.
pub fn open_or_create(path: &Path) -> Result<gix::ThreadSafeRepository, CheckpointError> {
    let repo = match path.join("HEAD").exists() {
        true => gix::open(path).map_err(CheckpointError::repo)?,
        false => {
            std::fs::create_dir_all(path).map_err(|e| CheckpointError::io(path, e))?;
            gix::init_bare(path).map_err(CheckpointError::repo)?
        }
    };
    Ok(repo.into_sync())
}

/// What the last checkpoint knew about a file.
#[derive(Debug, Clone, Copy)]
struct Seen {
    stat: Stat,
    recorded: Recorded,
}

/// Writes checkpoints of one workspace incrementally.
#[derive(Debug, Default)]
pub struct Snapshotter {
    files: HashMap<Vec<u8>, Seen>,
    /// Each directory's entries and tree at the last checkpoint.
    trees: HashMap<Vec<u8>, (Vec<Entry>, ObjectId)>,
}

impl Snapshotter {
    /// Records the workspace at `root` as a commit on `parent`.
    pub fn take(
        &mut self,
        repo: &gix::Repository,
        root: &Path,
        parent: Option<ObjectId>,
        message: &str,
        max_file_bytes: u64,
    ) -> Result<Snapshot, CheckpointError> {
        let (scanned, mut skipped) = scan(root, max_file_bytes);
        let mut files: HashMap<Vec<u8>, Seen> = HashMap::with_capacity(scanned.len());
        let mut read = 0;
        for Scanned { path, kind, stat } in scanned {
            if let Some(seen) = self.files.get(&path)
                && seen.stat == stat
                && seen.recorded.kind == kind
            {
                files.insert(path, *seen);
                continue;
            }
            let full = root.join(os_path::from_bytes(&path));
            let bytes = match kind {
                Kind::Symlink => std::fs::read_link(&full).map(|t| file_facts::git_path(&t)),
                _ => std::fs::read(&full),
            };
            let bytes = match bytes {
                Ok(bytes) => bytes,
                Err(error) => {
                    skipped.push(Skipped {
                        path: String::from_utf8_lossy(&path).into_owned(),
                        reason: format!("could not be read: {error}"),
                    });
                    continue;
                }
            };
            let oid = repo
                .write_blob(&bytes)
                .map_err(CheckpointError::repo)?
                .detach();
            read += 1;
            files.insert(
                path,
                Seen {
                    stat,
                    recorded: Recorded { oid, kind },
                },
            );
        }
        let tree = self.write_trees(repo, &files)?;
        self.files = files;
        let commit = write_commit(repo, tree, parent, message)?;
        Ok(Snapshot {
            commit,
            tree,
            skipped,
            read,
        })
    }

    /// Writes the tree of every directory whose entries changed; returns the root tree.
    fn write_trees(
        &mut self,
        repo: &gix::Repository,
        files: &HashMap<Vec<u8>, Seen>,
    ) -> Result<ObjectId, CheckpointError> {
        let mut dirs: BTreeMap<Vec<u8>, Vec<Entry>> = BTreeMap::new();
        dirs.insert(Vec::new(), Vec::new());
        for (path, seen) in files {
            let (dir, name) = split(path);
            dirs.entry(dir.to_vec()).or_default().push(Entry {
                mode: mode_of(seen.recorded.kind),
                filename: BString::from(name),
                oid: seen.recorded.oid,
            });
            // Every ancestor exists, even one holding only directories.
            let mut parent = dir;
            while !parent.is_empty() {
                parent = split(parent).0;
                dirs.entry(parent.to_vec()).or_default();
            }
        }
        // Deepest first, so a directory's subtrees are written before it.
        let mut order: Vec<Vec<u8>> = dirs.keys().cloned().collect();
        order.sort_by_key(|d| std::cmp::Reverse(depth(d)));
        let mut trees: HashMap<Vec<u8>, (Vec<Entry>, ObjectId)> = HashMap::new();
        let mut root = None;
        for dir in order {
            let mut entries = dirs.remove(&dir).unwrap_or_default();
            entries.sort();
            let oid = match self.trees.get(&dir) {
                Some((old, oid)) if *old == entries => *oid,
                _ => repo
                    .write_object(&Tree {
                        entries: entries.clone(),
                    })
                    .map_err(CheckpointError::repo)?
                    .detach(),
            };
            if dir.is_empty() {
                root = Some(oid);
            } else {
                let (parent, name) = split(&dir);
                if let Some(siblings) = dirs.get_mut(parent) {
                    siblings.push(Entry {
                        mode: EntryKind::Tree.into(),
                        filename: BString::from(name),
                        oid,
                    });
                }
            }
            trees.insert(dir, (entries, oid));
        }
        self.trees = trees;
        root.ok_or(CheckpointError::Empty)
    }
}

fn split(path: &[u8]) -> (&[u8], &[u8]) {
    match path.iter().rposition(|&b| b == b'/') {
        Some(i) => (&path[..i], &path[i + 1..]),
        None => (&[], path),
    }
}

fn depth(dir: &[u8]) -> usize {
    match dir.is_empty() {
        true => 0,
        false => dir.iter().filter(|&&b| b == b'/').count() + 1,
    }
}

fn mode_of(kind: Kind) -> EntryMode {
    match kind {
        Kind::File => EntryKind::Blob.into(),
        Kind::Executable => EntryKind::BlobExecutable.into(),
        Kind::Symlink => EntryKind::Link.into(),
    }
}

fn kind_of(mode: EntryMode) -> Option<Kind> {
    match mode.kind() {
        EntryKind::Blob => Some(Kind::File),
        EntryKind::BlobExecutable => Some(Kind::Executable),
        EntryKind::Link => Some(Kind::Symlink),
        EntryKind::Tree | EntryKind::Commit => None,
    }
}

fn write_commit(
    repo: &gix::Repository,
    tree: ObjectId,
    parent: Option<ObjectId>,
    message: &str,
) -> Result<ObjectId, CheckpointError> {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let signature = gix::actor::Signature {
        name: "Foreman".into(),
        email: "checkpoints@foreman.invalid".into(),
        time: gix::date::Time::new(i64::try_from(now).unwrap_or(i64::MAX), 0),
    };
    let commit = Commit {
        tree,
        parents: parent.into_iter().collect(),
        author: signature.clone(),
        committer: signature,
        encoding: None,
        message: message.into(),
        extra_headers: Vec::new(),
    };
    Ok(repo
        .write_object(&commit)
        .map_err(CheckpointError::repo)?
        .detach())
}

/// The tree of `commit`.
pub fn tree_of(repo: &gix::Repository, commit: ObjectId) -> Result<ObjectId, CheckpointError> {
    let object = repo.find_object(commit).map_err(CheckpointError::repo)?;
    let commit = object.try_into_commit().map_err(CheckpointError::repo)?;
    commit
        .tree_id()
        .map(|id| id.detach())
        .map_err(CheckpointError::repo)
}

/// Every file of `tree`, by path.
pub fn files_of(
    repo: &gix::Repository,
    tree: ObjectId,
) -> Result<BTreeMap<Vec<u8>, Recorded>, CheckpointError> {
    let mut out = BTreeMap::new();
    walk(repo, tree, &[], &mut out)?;
    Ok(out)
}

fn walk(
    repo: &gix::Repository,
    tree: ObjectId,
    prefix: &[u8],
    out: &mut BTreeMap<Vec<u8>, Recorded>,
) -> Result<(), CheckpointError> {
    for (name, mode, oid) in entries(repo, tree)? {
        let mut path = prefix.to_vec();
        if !path.is_empty() {
            path.push(b'/');
        }
        path.extend_from_slice(&name);
        match kind_of(mode) {
            Some(kind) => {
                out.insert(path, Recorded { oid, kind });
            }
            None if mode.kind() == EntryKind::Tree => walk(repo, oid, &path, out)?,
            None => {}
        }
    }
    Ok(())
}

/// The entries of `tree`: name, mode, object.
pub fn entries(
    repo: &gix::Repository,
    tree: ObjectId,
) -> Result<Vec<(Vec<u8>, EntryMode, ObjectId)>, CheckpointError> {
    let object = repo.find_object(tree).map_err(CheckpointError::repo)?;
    let tree = object.try_into_tree().map_err(CheckpointError::repo)?;
    let decoded = tree.decode().map_err(CheckpointError::repo)?;
    Ok(decoded
        .entries
        .iter()
        .map(|e| (e.filename.to_vec(), e.mode, e.oid.to_owned()))
        .collect())
}

/// The bytes of a blob.
pub fn blob(repo: &gix::Repository, oid: ObjectId) -> Result<Vec<u8>, CheckpointError> {
    let object = repo.find_object(oid).map_err(CheckpointError::repo)?;
    Ok(object.data.clone())
}

/// A path of a checkpoint as the user reads it.
pub fn shown(path: &[u8]) -> String {
    BStr::new(path).to_str_lossy().into_owned()
}

/// Where the shadow repository of `workspace` lives under `root`.
pub fn repository_path(root: &Path, workspace: &Path) -> PathBuf {
    use sha2::{Digest, Sha256};
    let digest = Sha256::digest(workspace.as_os_str().as_encoded_bytes());
    let key: String = digest.iter().take(8).map(|b| format!("{b:02x}")).collect();
    let name = workspace
        .file_name()
        .map(|n| {
            n.to_string_lossy()
                .replace(|c: char| !c.is_alphanumeric(), "-")
        })
        .unwrap_or_default();
    root.join(format!("{name}-{key}.git"))
}
