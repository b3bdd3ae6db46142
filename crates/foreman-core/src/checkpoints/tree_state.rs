//! The checkpoint's folders as git trees, kept between checkpoints so that a change rewrites only
//! the trees of the folders on its path: each folder's entries and the tree they were last
//! written as. A folder left empty disappears from its parent, as git has no empty trees.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet, HashMap};

use gix::ObjectId;
use gix::bstr::BString;
use gix::objs::Tree;
use gix::objs::tree::{Entry, EntryKind, EntryMode};

use super::error::CheckpointError;
use super::scan::Kind;
use super::shadow::Recorded;

#[derive(Debug, Default)]
struct Folder {
    /// By name: mode and object (a file, a link, or a subfolder's tree).
    entries: BTreeMap<Vec<u8>, (EntryMode, ObjectId)>,
    /// The tree last written for `entries`.
    tree: Option<ObjectId>,
}

/// Every folder holding a recorded file, by workspace-relative path (`""` is the root).
#[derive(Debug, Default)]
pub struct TreeState {
    folders: HashMap<Vec<u8>, Folder>,
    /// Folders whose entries changed since their tree was written.
    dirty: BTreeSet<(Reverse<usize>, Vec<u8>)>,
}

impl TreeState {
    /// Records `path` as `recorded`, or as gone with `None`.
    pub fn set(&mut self, path: &[u8], recorded: Option<Recorded>) {
        let (dir, name) = split(path);
        match recorded {
            Some(recorded) => {
                self.folders
                    .entry(dir.to_vec())
                    .or_default()
                    .entries
                    .insert(name.to_vec(), (mode_of(recorded.kind), recorded.oid));
            }
            None => {
                let Some(folder) = self.folders.get_mut(dir) else {
                    return;
                };
                if folder
                    .entries
                    .get(name)
                    .is_none_or(|(mode, _)| mode.is_tree())
                {
                    return;
                }
                folder.entries.remove(name);
            }
        }
        self.mark(dir);
    }

    fn mark(&mut self, dir: &[u8]) {
        self.dirty.insert((Reverse(depth(dir)), dir.to_vec()));
    }

    /// Writes the trees of the folders that changed, deepest first; the root's tree.
    pub fn write(&mut self, repo: &gix::Repository) -> Result<ObjectId, CheckpointError> {
        while let Some((_, dir)) = self.dirty.pop_first() {
            let empty = self.folders.get(&dir).is_none_or(|f| f.entries.is_empty());
            if dir.is_empty() {
                self.write_folder(repo, &dir)?;
                continue;
            }
            let (parent, name) = split(&dir);
            let (parent, name) = (parent.to_vec(), name.to_vec());
            if empty {
                self.folders.remove(&dir);
                if let Some(folder) = self.folders.get_mut(&parent)
                    && folder.entries.get(&name).is_some_and(|(m, _)| m.is_tree())
                {
                    folder.entries.remove(&name);
                    self.mark(&parent);
                }
                continue;
            }
            let (before, after) = self.write_folder(repo, &dir)?;
            if before != Some(after) {
                self.folders
                    .entry(parent.clone())
                    .or_default()
                    .entries
                    .insert(name, (EntryKind::Tree.into(), after));
                self.mark(&parent);
            }
        }
        match self.folders.get(&Vec::new()).and_then(|f| f.tree) {
            Some(root) => Ok(root),
            None => self.write_folder(repo, &[]).map(|(_, after)| after),
        }
    }

    /// Writes one folder's tree; its tree before and after.
    fn write_folder(
        &mut self,
        repo: &gix::Repository,
        dir: &[u8],
    ) -> Result<(Option<ObjectId>, ObjectId), CheckpointError> {
        let folder = self.folders.entry(dir.to_vec()).or_default();
        let mut entries: Vec<Entry> = folder
            .entries
            .iter()
            .map(|(name, (mode, oid))| Entry {
                mode: *mode,
                filename: BString::from(name.as_slice()),
                oid: *oid,
            })
            .collect();
        entries.sort();
        let oid = repo
            .write_object(&Tree { entries })
            .map_err(CheckpointError::repo)?
            .detach();
        Ok((folder.tree.replace(oid), oid))
    }
}

pub(super) fn split(path: &[u8]) -> (&[u8], &[u8]) {
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

pub(super) fn mode_of(kind: Kind) -> EntryMode {
    match kind {
        Kind::File => EntryKind::Blob.into(),
        Kind::Executable => EntryKind::BlobExecutable.into(),
        Kind::Symlink => EntryKind::Link.into(),
    }
}
