//! Opening files and directories so that the object actually opened is the one that was checked.
//!
//! The platform pieces are in `unix.rs` and `windows.rs`:
//!
//! - Unix: `O_NOFOLLOW` on every component we create or open ourselves, a re-check of reads
//!   through `/proc/self/fd` (`F_GETPATH` on macOS), and a directory returned as a descriptor that later operations
//!   are relative to.
//! - Windows (**not compiled on the machine this project is built and tested on**): files are
//!   opened with `FILE_FLAG_OPEN_REPARSE_POINT`, so a link is opened as itself and refused, and
//!   reads are re-checked with `GetFinalPathNameByHandleW`. Each directory of a walk is opened
//!   the same way and the last one stays open without `FILE_SHARE_DELETE`, so it cannot be
//!   renamed or removed while a write into it is under way.

mod error;
#[cfg(unix)]
mod unix;
#[cfg(unix)]
use unix as imp;
#[cfg(windows)]
mod windows;
#[cfg(windows)]
use windows as imp;

use std::fs::File;
use std::path::Path;

pub use error::OpenError;

/// A directory inside the workspace opened by [`open_dir_creating`]: a descriptor on Unix, a
/// held handle and its checked path on Windows.
pub use imp::DirHandle;

/// Opens the regular file or directory `resolved` (a path checked to be inside `root`) for
/// reading, refusing it if what was opened is a link, a special file, or not inside `root`.
pub(super) fn open_read_verified(root: &Path, resolved: &Path) -> Result<File, OpenError> {
    imp::open_read_verified(root, resolved)
}

/// Opens directory `dir` (a resolved path inside the workspace), creating missing directories,
/// by walking down from the root without ever following a symbolic link, so the directory
/// returned is inside the workspace even if a component is swapped for a link during the walk
/// (the walk then fails instead).
pub fn open_dir_creating(root: &Path, dir: &Path) -> Result<DirHandle, OpenError> {
    imp::open_dir_creating(root, dir)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::boundary::{RefusalReason, WorkspaceBoundary};

    #[cfg(unix)]
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

    #[cfg(unix)]
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

    #[cfg(unix)]
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
