//! Opening files and directories so that the object actually opened is the one that was checked:
//! `O_NOFOLLOW` on every component we create or open ourselves, and a re-check through
//! `/proc/self/fd` for reads.

use std::ffi::OsStr;
use std::fs::File;
use std::os::fd::{AsRawFd, OwnedFd};
use std::path::{Component, Path, PathBuf};

use rustix::fs::{Mode, OFlags};
use thiserror::Error;

use super::error::{PathNotInWorkspace, RefusalReason};

/// Failure to open a checked path.
#[derive(Debug, Error)]
pub enum OpenError {
    /// The opened object is not inside the workspace (it was swapped for a link, etc.).
    #[error(transparent)]
    Refused(#[from] PathNotInWorkspace),
    /// An ordinary I/O error (not found, permission denied, …).
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

fn io_err(path: &Path, err: impl Into<std::io::Error>) -> OpenError {
    OpenError::Io {
        path: path.to_path_buf(),
        source: err.into(),
    }
}

/// Where the kernel says an open descriptor points.
fn fd_path(fd: &OwnedFd) -> std::io::Result<PathBuf> {
    std::fs::read_link(format!("/proc/self/fd/{}", fd.as_raw_fd()))
}

pub(super) fn open_read_verified(root: &Path, resolved: &Path) -> Result<File, OpenError> {
    let flags = OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::CLOEXEC | OFlags::NONBLOCK;
    let fd = match rustix::fs::open(resolved, flags, Mode::empty()) {
        Ok(fd) => fd,
        Err(rustix::io::Errno::LOOP) => {
            return Err(PathNotInWorkspace::refusal(
                root,
                resolved,
                resolved.to_path_buf(),
                RefusalReason::ChangedDuringUse,
            )
            .into());
        }
        Err(err) => return Err(io_err(resolved, err)),
    };
    let actual = fd_path(&fd).map_err(|e| io_err(resolved, e))?;
    if !actual.starts_with(root) {
        return Err(PathNotInWorkspace::refusal(
            root,
            resolved,
            actual,
            RefusalReason::ChangedDuringUse,
        )
        .into());
    }
    let stat = rustix::fs::fstat(&fd).map_err(|e| io_err(resolved, e))?;
    let kind = rustix::fs::FileType::from_raw_mode(stat.st_mode);
    if !matches!(
        kind,
        rustix::fs::FileType::RegularFile | rustix::fs::FileType::Directory
    ) {
        return Err(PathNotInWorkspace::refusal(
            root,
            resolved,
            actual,
            RefusalReason::SpecialFile,
        )
        .into());
    }
    // Reads are blocking from here on.
    let file = File::from(fd);
    let raw_flags = rustix::fs::fcntl_getfl(&file).map_err(|e| io_err(resolved, e))?;
    rustix::fs::fcntl_setfl(&file, raw_flags - OFlags::NONBLOCK)
        .map_err(|e| io_err(resolved, e))?;
    Ok(file)
}

/// Opens directory `dir` (a resolved path inside the workspace), creating missing directories,
/// by walking down from the root with `mkdirat`/`openat(O_NOFOLLOW | O_DIRECTORY)`: no symbolic
/// link is ever followed, so the descriptor returned is guaranteed to be inside the workspace even
/// if a component is swapped for a link during the walk (the walk then fails instead).
pub fn open_dir_creating(root: &Path, dir: &Path) -> Result<OwnedFd, OpenError> {
    let relative = dir.strip_prefix(root).map_err(|_| {
        PathNotInWorkspace::refusal(root, dir, dir.to_path_buf(), RefusalReason::Outside)
    })?;
    let dir_flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    let mut current =
        rustix::fs::open(root, dir_flags, Mode::empty()).map_err(|e| io_err(root, e))?;
    for component in relative.components() {
        let name: &OsStr = match component {
            Component::Normal(name) => name,
            Component::CurDir => continue,
            _ => {
                return Err(PathNotInWorkspace::refusal(
                    root,
                    dir,
                    dir.to_path_buf(),
                    RefusalReason::Outside,
                )
                .into());
            }
        };
        match rustix::fs::mkdirat(&current, name, Mode::from_raw_mode(0o777)) {
            Ok(()) | Err(rustix::io::Errno::EXIST) => {}
            Err(err) => return Err(io_err(dir, err)),
        }
        current = match rustix::fs::openat(&current, name, dir_flags, Mode::empty()) {
            Ok(fd) => fd,
            Err(rustix::io::Errno::LOOP | rustix::io::Errno::NOTDIR) => {
                return Err(PathNotInWorkspace::refusal(
                    root,
                    dir,
                    dir.to_path_buf(),
                    RefusalReason::ChangedDuringUse,
                )
                .into());
            }
            Err(err) => return Err(io_err(dir, err)),
        };
    }
    Ok(current)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::boundary::WorkspaceBoundary;

    #[test]
    fn read_refuses_link_swapped_after_check() {
        let ws = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("secret"), "secret").unwrap();
        let b = WorkspaceBoundary::new(ws.path()).unwrap();
        std::fs::write(b.root().join("f.txt"), "ok").unwrap();
        let checked = b.resolve("f.txt").unwrap();
        // Swap the checked file for a link pointing outside.
        std::fs::remove_file(&checked).unwrap();
        std::os::unix::fs::symlink(outside.path().join("secret"), &checked).unwrap();
        let err = b.open_read(&checked).unwrap_err();
        assert!(
            matches!(err, OpenError::Refused(ref r) if r.reason == RefusalReason::ChangedDuringUse),
            "{err:?}"
        );
    }

    #[test]
    fn read_refuses_parent_swapped_after_check() {
        let ws = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("f.txt"), "secret").unwrap();
        let b = WorkspaceBoundary::new(ws.path()).unwrap();
        std::fs::create_dir(b.root().join("sub")).unwrap();
        std::fs::write(b.root().join("sub/f.txt"), "ok").unwrap();
        let checked = b.resolve("sub/f.txt").unwrap();
        std::fs::remove_dir_all(b.root().join("sub")).unwrap();
        std::os::unix::fs::symlink(outside.path(), b.root().join("sub")).unwrap();
        let err = b.open_read(&checked).unwrap_err();
        assert!(matches!(err, OpenError::Refused(_)), "{err:?}");
    }

    #[test]
    fn dir_walk_refuses_symlinked_component() {
        let ws = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let b = WorkspaceBoundary::new(ws.path()).unwrap();
        let checked = b.resolve("sub/deeper").unwrap();
        std::os::unix::fs::symlink(outside.path(), b.root().join("sub")).unwrap();
        let err = open_dir_creating(b.root(), &checked).unwrap_err();
        assert!(matches!(err, OpenError::Refused(_)), "{err:?}");
        assert!(!outside.path().join("deeper").exists());
    }

    #[test]
    fn dir_walk_creates_missing_dirs() {
        let ws = tempfile::tempdir().unwrap();
        let b = WorkspaceBoundary::new(ws.path()).unwrap();
        let checked = b.resolve("a/b/c").unwrap();
        open_dir_creating(b.root(), &checked).unwrap();
        assert!(b.root().join("a/b/c").is_dir());
    }
}
