//! What changed between two checkpoints: a walk of both trees that skips every subtree with the
//! same object (so it costs what changed), and each changed file's diff when it is text. The
//! ignored files (`.foreman/ignored/`, see [`super::coverage`]) are compared at their workspace
//! paths, and only when both checkpoints keep them: a checkpoint from before they were kept
//! says nothing about them, so nothing of them is shown or restored against it.

use gix::ObjectId;
use gix::objs::tree::EntryKind;

use super::coverage::{IGNORED_DIR, MARKER, OWN_DIR};
use super::error::CheckpointError;
use super::scan::Kind;
use super::shadow::{Recorded, blob, entries, shown};
use crate::diff::{DiffLimits, diff_texts};
use crate::protocol::{ChangeKind, PREVIEW_LINES_SENT, WorkspaceChange};

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
    if let (Some(old), Some(new)) = (ignored_tree(repo, old)?, ignored_tree(repo, new)?) {
        compare(repo, old, new, &[], &mut out)?;
        out = merged(out);
    }
    Ok(out)
}

/// The tree of a checkpoint's ignored files when it keeps them (`Some(None)`: it keeps them and
/// there are none).
fn ignored_tree(
    repo: &gix::Repository,
    tree: ObjectId,
) -> Result<Option<Option<ObjectId>>, CheckpointError> {
    let Some(own) = subtree(repo, tree, OWN_DIR)? else {
        return Ok(None);
    };
    let listed = entries(repo, own)?;
    if !listed.iter().any(|(name, _, _)| name == MARKER) {
        return Ok(None);
    }
    Ok(Some(
        listed
            .into_iter()
            .find(|(name, mode, _)| name == IGNORED_DIR && mode.kind() == EntryKind::Tree)
            .map(|(_, _, oid)| oid),
    ))
}

fn subtree(
    repo: &gix::Repository,
    tree: ObjectId,
    name: &[u8],
) -> Result<Option<ObjectId>, CheckpointError> {
    Ok(entries(repo, tree)?
        .into_iter()
        .find(|(n, mode, _)| n == name && mode.kind() == EntryKind::Tree)
        .map(|(_, _, oid)| oid))
}

/// One change per path: a file that git ignored on one side and saw on the other is one
/// change (or none, when its content is the same).
fn merged(mut changes: Vec<Change>) -> Vec<Change> {
    changes.sort_by(|a, b| a.path.cmp(&b.path));
    let mut out: Vec<Change> = Vec::with_capacity(changes.len());
    for change in changes {
        match out.last_mut() {
            Some(last) if last.path == change.path => {
                last.old = last.old.or(change.old);
                last.new = last.new.or(change.new);
            }
            _ => out.push(change),
        }
    }
    out.retain(|c| c.old != c.new);
    out
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
        // Foreman's own entries at the root (the ignored files) are compared by `between`.
        if prefix.is_empty() && name.as_slice() == OWN_DIR {
            continue;
        }
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
                    // Cut as previews are, so a command that writes a 5 MB file does not send
                    // a 9 MB event: the card says how many lines were left out.
                    (Some(old), Some(new)) => Some(
                        diff_texts(&path, old.as_deref(), new.as_deref(), DiffLimits::default())
                            .first_lines(PREVIEW_LINES_SENT),
                    ),
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
