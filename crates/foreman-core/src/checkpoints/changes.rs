//! What changed between two checkpoints: a walk of both trees that skips every subtree with the
//! same object (so it costs what changed), and each changed file's diff when it is text.

use gix::ObjectId;
use gix::objs::tree::EntryKind;

use super::error::CheckpointError;
use super::scan::Kind;
use super::shadow::{Recorded, blob, entries, shown};
use crate::diff::{DiffLimits, diff_texts};
use crate::protocol::{ChangeKind, WorkspaceChange};

/// One path that differs between two trees.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    pub path: Vec<u8>,
    pub old: Option<Recorded>,
    pub new: Option<Recorded>,
}

impl Change {
    pub fn kind(&self) -> ChangeKind {
        match (&self.old, &self.new) {
            (None, _) => ChangeKind::Added,
            (_, None) => ChangeKind::Deleted,
            _ => ChangeKind::Modified,
        }
    }
}

/// The files that differ from `old` to `new`, in path order.
pub fn between(
    repo: &gix::Repository,
    old: ObjectId,
    new: ObjectId,
) -> Result<Vec<Change>, CheckpointError> {
    let mut out = Vec::new();
    compare(repo, Some(old), Some(new), &[], &mut out)?;
    Ok(out)
}

type Listed = Vec<(Vec<u8>, gix::objs::tree::EntryMode, ObjectId)>;

fn listed(repo: &gix::Repository, tree: Option<ObjectId>) -> Result<Listed, CheckpointError> {
    match tree {
        Some(tree) => entries(repo, tree),
        None => Ok(Vec::new()),
    }
}

fn compare(
    repo: &gix::Repository,
    old: Option<ObjectId>,
    new: Option<ObjectId>,
    prefix: &[u8],
    out: &mut Vec<Change>,
) -> Result<(), CheckpointError> {
    if old == new {
        return Ok(());
    }
    let (old, new) = (listed(repo, old)?, listed(repo, new)?);
    let mut names: Vec<&Vec<u8>> = old.iter().chain(new.iter()).map(|(n, _, _)| n).collect();
    names.sort();
    names.dedup();
    for name in names {
        let find = |side: &Listed| {
            side.iter()
                .find(|(n, _, _)| n == name)
                .map(|(_, m, o)| (*m, *o))
        };
        let (a, b) = (find(&old), find(&new));
        if a == b {
            continue;
        }
        let mut path = prefix.to_vec();
        if !path.is_empty() {
            path.push(b'/');
        }
        path.extend_from_slice(name);
        let tree = |side: Option<(gix::objs::tree::EntryMode, ObjectId)>| {
            side.filter(|(m, _)| m.kind() == EntryKind::Tree)
                .map(|(_, o)| o)
        };
        let file = |side: Option<(gix::objs::tree::EntryMode, ObjectId)>| {
            side.and_then(|(m, oid)| {
                let kind = match m.kind() {
                    EntryKind::Blob => Kind::File,
                    EntryKind::BlobExecutable => Kind::Executable,
                    EntryKind::Link => Kind::Symlink,
                    _ => return None,
                };
                Some(Recorded { oid, kind })
            })
        };
        if tree(a).is_some() || tree(b).is_some() {
            compare(repo, tree(a), tree(b), &path, out)?;
        }
        let (fa, fb) = (file(a), file(b));
        if fa.is_some() || fb.is_some() {
            out.push(Change {
                path,
                old: fa,
                new: fb,
            });
        }
    }
    Ok(())
}

/// The files at most shown with their diff: past it a change is listed without one.
const DIFFED_FILES: usize = 200;

/// `changes` as a card shows them: each with its diff when both sides are text.
pub fn for_user(
    repo: &gix::Repository,
    changes: &[Change],
) -> Result<Vec<WorkspaceChange>, CheckpointError> {
    changes
        .iter()
        .enumerate()
        .map(|(i, change)| {
            let path = shown(&change.path);
            let text =
                |side: &Option<Recorded>| -> Result<Option<Option<String>>, CheckpointError> {
                    match side {
                        None => Ok(Some(None)),
                        Some(r) if r.kind == Kind::Symlink => Ok(None),
                        Some(r) => Ok(String::from_utf8(blob(repo, r.oid)?).ok().map(Some)),
                    }
                };
            let diff = match i < DIFFED_FILES {
                true => match (text(&change.old)?, text(&change.new)?) {
                    (Some(old), Some(new)) => Some(diff_texts(
                        &path,
                        old.as_deref(),
                        new.as_deref(),
                        DiffLimits::default(),
                    )),
                    _ => None,
                },
                false => None,
            };
            Ok(WorkspaceChange {
                path,
                kind: change.kind(),
                diff,
            })
        })
        .collect()
}
