//! The shadow repository: a bare git repository in the app's data directory, one per
//! workspace, that holds each checkpoint as a commit of the workspace's files. The user's own
//! `.git` is never read or written. Checkpoints are written by
//! [`super::snapshotter::Snapshotter`].

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use gix::ObjectId;
use gix::bstr::{BStr, ByteSlice};
use gix::objs::Commit;
use gix::objs::tree::{EntryKind, EntryMode};

use super::error::CheckpointError;
use super::scan::Kind;

pub use super::coverage::DEFAULT_MAX_FILE_BYTES;

/// A file of a checkpoint: its object and kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Recorded {
    pub oid: ObjectId,
    pub kind: Kind,
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

fn kind_of(mode: EntryMode) -> Option<Kind> {
    match mode.kind() {
        EntryKind::Blob => Some(Kind::File),
        EntryKind::BlobExecutable => Some(Kind::Executable),
        EntryKind::Link => Some(Kind::Symlink),
        EntryKind::Tree | EntryKind::Commit => None,
    }
}

pub(super) fn write_commit(
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
