//! Some files of the workspace as they are on disk now, against one checkpoint: what a session
//! changed so far (the files its steps touched, from the workspace at its start to now) without
//! scanning the workspace, so the count can follow every step.
//!
//! A file is read as a checkpoint reads it: a symlink is its target's text, a folder on the path
//! that is a symlink hides the file (the checkpoints do not follow it), and a file over the
//! checkpoints' size limit is counted as changed without lines. An ignored file is looked up
//! where the checkpoint keeps it (`.foreman/ignored/`, [`super::coverage`]).

use std::path::{Component, Path, PathBuf};

use gix::ObjectId;

use super::coverage::{Coverage, tree_path};
use super::error::CheckpointError;
use super::scan::Kind;
use super::shadow::{Recorded, blob, entries};
use crate::diff::line_counts;
use crate::protocol::{ChangeKind, SessionFileChange};

/// A file's content on one side, as far as it is known.
#[derive(Debug, PartialEq, Eq)]
enum Side {
    Absent,
    Bytes(Vec<u8>),
    /// Present, but too large to read.
    Unread,
}

/// Each of `paths` (workspace-relative, `/`) that differs between `tree` and the disk under
/// `workspace`, in the order given.
pub fn against_disk(
    repo: &gix::Repository,
    tree: ObjectId,
    workspace: &Path,
    paths: &[String],
    coverage: &Coverage,
) -> Result<Vec<SessionFileChange>, CheckpointError> {
    let max_file_bytes = coverage.max_file_bytes;
    let mut out = Vec::new();
    for path in paths {
        let Some(on_disk) = disk_path(workspace, path) else {
            continue;
        };
        let found = match recorded(repo, tree, path)? {
            Some(r) => Some(r),
            None => {
                let kept = String::from_utf8_lossy(&tree_path(path.as_bytes(), true)).into_owned();
                recorded(repo, tree, &kept)?
            }
        };
        let before = match found {
            Some(r) => Side::Bytes(blob(repo, r.oid)?),
            None => Side::Absent,
        };
        let now = read_disk(workspace, &on_disk, max_file_bytes)?;
        if before == now {
            continue;
        }
        let kind = match (&before, &now) {
            (Side::Absent, _) => ChangeKind::Added,
            (_, Side::Absent) => ChangeKind::Deleted,
            _ => ChangeKind::Modified,
        };
        let (added, removed, text) = match (as_text(&before), as_text(&now)) {
            (Some(old), Some(new)) => {
                // Counts only: no hunks are built for a count, within every diff's time limit.
                let counts = line_counts(old.unwrap_or(""), new.unwrap_or(""));
                (count(counts.added), count(counts.removed), true)
            }
            _ => (0, 0, false),
        };
        out.push(SessionFileChange {
            path: path.clone(),
            kind,
            added,
            removed,
            text,
        });
    }
    Ok(out)
}

fn count(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// A side's text: `Some(None)` when absent, `None` when it is not text (or was not read).
fn as_text(side: &Side) -> Option<Option<&str>> {
    match side {
        Side::Absent => Some(None),
        Side::Bytes(bytes) => std::str::from_utf8(bytes).ok().map(Some),
        Side::Unread => None,
    }
}

/// `path` under `workspace`, when it is a plain relative path.
fn disk_path(workspace: &Path, path: &str) -> Option<PathBuf> {
    let relative = Path::new(path);
    let plain = relative
        .components()
        .all(|c| matches!(c, Component::Normal(_)));
    (plain && !path.is_empty()).then(|| workspace.join(relative))
}

/// The entry at `path` in `tree`, when it is a file or a symlink.
fn recorded(
    repo: &gix::Repository,
    tree: ObjectId,
    path: &str,
) -> Result<Option<Recorded>, CheckpointError> {
    let mut tree = tree;
    let mut names = path.split('/').peekable();
    while let Some(name) = names.next() {
        let found = entries(repo, tree)?
            .into_iter()
            .find(|(n, _, _)| n.as_slice() == name.as_bytes());
        let Some((_, mode, oid)) = found else {
            return Ok(None);
        };
        let kind = mode.kind();
        use gix::objs::tree::EntryKind;
        match (names.peek().is_some(), kind) {
            (true, EntryKind::Tree) => tree = oid,
            (false, EntryKind::Blob) => {
                return Ok(Some(Recorded {
                    oid,
                    kind: Kind::File,
                }));
            }
            (false, EntryKind::BlobExecutable) => {
                return Ok(Some(Recorded {
                    oid,
                    kind: Kind::Executable,
                }));
            }
            (false, EntryKind::Link) => {
                return Ok(Some(Recorded {
                    oid,
                    kind: Kind::Symlink,
                }));
            }
            _ => return Ok(None),
        }
    }
    Ok(None)
}

fn read_disk(workspace: &Path, path: &Path, max_file_bytes: u64) -> Result<Side, CheckpointError> {
    // A folder on the way that is a symlink: the checkpoints record the link, not what is past it.
    let mut folder = path.parent();
    while let Some(dir) = folder {
        if dir == workspace || !dir.starts_with(workspace) {
            break;
        }
        match std::fs::symlink_metadata(dir) {
            Ok(meta) if meta.file_type().is_symlink() => return Ok(Side::Absent),
            Ok(_) => {}
            Err(_) => return Ok(Side::Absent),
        }
        folder = dir.parent();
    }
    let meta = match std::fs::symlink_metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Side::Absent),
        Err(e) => return Err(CheckpointError::io(path, e)),
    };
    if meta.file_type().is_symlink() {
        let target = std::fs::read_link(path).map_err(|e| CheckpointError::io(path, e))?;
        return Ok(Side::Bytes(target.as_os_str().as_encoded_bytes().to_vec()));
    }
    if !meta.is_file() {
        return Ok(Side::Absent);
    }
    if meta.len() > max_file_bytes {
        return Ok(Side::Unread);
    }
    match std::fs::read(path) {
        Ok(bytes) => Ok(Side::Bytes(bytes)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Side::Absent),
        Err(e) => Err(CheckpointError::io(path, e)),
    }
}

#[cfg(test)]
mod tests {
    use super::super::Checkpoints;
    use crate::protocol::ChangeKind;

    #[test]
    fn only_the_files_asked_about_that_differ_are_counted_as_they_are_on_disk() {
        let dir = tempfile::tempdir().unwrap();
        let work = dir.path().join("work");
        std::fs::create_dir_all(work.join("src")).unwrap();
        std::fs::write(work.join("src/a.rs"), "one\ntwo\n").unwrap();
        std::fs::write(work.join("same.txt"), "same\n").unwrap();
        std::fs::write(work.join("gone.txt"), "x\ny\n").unwrap();
        std::fs::write(work.join("bin.dat"), [0u8, 159, 146, 150]).unwrap();
        let checkpoints = Checkpoints::open(&dir.path().join("cp"), &work).unwrap();
        let base = checkpoints.take("start").unwrap().id;

        std::fs::write(work.join("src/a.rs"), "one\n2\nthree\n").unwrap();
        std::fs::write(work.join("new.txt"), "n\n").unwrap();
        std::fs::remove_file(work.join("gone.txt")).unwrap();
        std::fs::write(work.join("bin.dat"), [1u8, 159, 146, 150]).unwrap();
        std::fs::write(work.join("untouched.txt"), "not asked about\n").unwrap();
        let paths: Vec<String> = [
            "src/a.rs",
            "same.txt",
            "new.txt",
            "gone.txt",
            "bin.dat",
            "../outside.txt",
            "never.txt",
        ]
        .map(String::from)
        .to_vec();

        let found = checkpoints.against_disk(&base, &paths).unwrap();
        let got: Vec<(&str, ChangeKind, u32, u32, bool)> = found
            .iter()
            .map(|c| (c.path.as_str(), c.kind, c.added, c.removed, c.text))
            .collect();
        assert_eq!(
            got,
            [
                ("src/a.rs", ChangeKind::Modified, 2, 1, true),
                ("new.txt", ChangeKind::Added, 1, 0, true),
                ("gone.txt", ChangeKind::Deleted, 0, 2, true),
                ("bin.dat", ChangeKind::Modified, 0, 0, false),
            ]
        );

        // Put back as it was: nothing differs.
        std::fs::write(work.join("src/a.rs"), "one\ntwo\n").unwrap();
        let found = checkpoints
            .against_disk(&base, &["src/a.rs".to_owned()])
            .unwrap();
        assert!(found.is_empty(), "{found:?}");
    }

    #[cfg(unix)]
    #[test]
    fn a_file_behind_a_symlinked_folder_is_not_read() {
        let dir = tempfile::tempdir().unwrap();
        let work = dir.path().join("work");
        let elsewhere = dir.path().join("elsewhere");
        std::fs::create_dir_all(&work).unwrap();
        std::fs::create_dir_all(&elsewhere).unwrap();
        std::fs::write(work.join("keep.txt"), "k\n").unwrap();
        let checkpoints = Checkpoints::open(&dir.path().join("cp"), &work).unwrap();
        let base = checkpoints.take("start").unwrap().id;
        std::fs::write(elsewhere.join("secret.txt"), "secret\n").unwrap();
        std::os::unix::fs::symlink(&elsewhere, work.join("link")).unwrap();

        let found = checkpoints
            .against_disk(&base, &["link/secret.txt".to_owned()])
            .unwrap();
        assert!(found.is_empty(), "{found:?}");
    }
}
