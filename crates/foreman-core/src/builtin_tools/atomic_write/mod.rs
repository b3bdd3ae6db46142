//! Atomic file replacement inside the workspace: write a temporary file in the same directory,
//! make it durable, and rename it over the target. A crash at any moment leaves either the old
//! content or the new content, never a mix. The target's directory is opened by walking down
//! from the workspace root without following links ([`open_dir_creating`]), so a link swapped in
//! mid-way cannot redirect the write outside.
//!
//! The platform pieces are in `unix.rs` (every operation relative to the directory descriptor,
//! permission bits kept exactly, the directory fsynced) and `windows.rs` (**not compiled on the
//! machine this project is built and tested on**: operations by path inside the held
//! directory, the read-only attribute kept, no directory fsync, which Windows does not have).
//!
//! A write killed half-way leaves its temporary file; [`remove_leftovers`] removes those of
//! processes that have ended (the session does at its start).
//!
//! [`open_dir_creating`]: crate::boundary::open_dir_creating

mod common;
mod leftovers;
#[cfg(unix)]
mod unix;
#[cfg(unix)]
use unix as imp;
#[cfg(windows)]
mod windows;
#[cfg(windows)]
use windows as imp;

use std::path::Path;

use super::error::BuiltinError;
use crate::boundary::WorkspaceBoundary;

pub use common::AtomicWriteOutcome;
pub use leftovers::remove_leftovers;

/// Atomically replaces (or creates) `resolved` — a path already checked by
/// [`WorkspaceBoundary::resolve`] — with `bytes`, creating missing parent directories and keeping
/// an existing file's permission bits.
pub fn atomic_write(
    boundary: &WorkspaceBoundary,
    resolved: &Path,
    bytes: &[u8],
) -> Result<AtomicWriteOutcome, BuiltinError> {
    imp::atomic_write(boundary, resolved, bytes)
}

/// Removes the regular file `resolved` (a path already checked by
/// [`WorkspaceBoundary::resolve`]), relative to its directory opened without following links.
pub fn atomic_remove(boundary: &WorkspaceBoundary, resolved: &Path) -> Result<(), BuiltinError> {
    imp::atomic_remove(boundary, resolved)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setup() -> (tempfile::TempDir, WorkspaceBoundary) {
        let dir = tempfile::tempdir().unwrap();
        let b = WorkspaceBoundary::new(dir.path()).unwrap();
        (dir, b)
    }

    #[test]
    fn creates_parents_and_file() {
        let (_d, b) = setup();
        let p = b.resolve("x/y/z.txt").unwrap();
        let out = atomic_write(&b, &p, b"hello").unwrap();
        assert!(out.created);
        assert_eq!(std::fs::read(&p).unwrap(), b"hello");
        let leftovers: Vec<_> = std::fs::read_dir(p.parent().unwrap()).unwrap().collect();
        assert_eq!(leftovers.len(), 1, "no temp file left behind");
    }

    #[cfg(unix)]
    #[test]
    fn keeps_existing_permissions() {
        let (_d, b) = setup();
        let p = b.resolve("script.sh").unwrap();
        std::fs::write(&p, "old").unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o751)).unwrap();
        let out = atomic_write(&b, &p, b"new").unwrap();
        assert!(!out.created);
        assert_eq!(out.mode, 0o751);
        assert_eq!(
            std::fs::metadata(&p).unwrap().permissions().mode() & 0o7777,
            0o751
        );
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "new");
    }

    #[cfg(unix)]
    #[test]
    fn refuses_final_component_swapped_for_symlink() {
        let (_d, b) = setup();
        let outside = tempfile::tempdir().unwrap();
        let target = outside.path().join("victim");
        std::fs::write(&target, "untouched").unwrap();
        let p = b.resolve("f.txt").unwrap();
        std::os::unix::fs::symlink(&target, &p).unwrap();
        let err = atomic_write(&b, &p, b"evil").unwrap_err();
        assert_eq!(err.code(), "PATH_NOT_IN_WORKSPACE");
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "untouched");
    }

    #[cfg(unix)]
    #[test]
    fn refuses_parent_swapped_for_symlink() {
        let (_d, b) = setup();
        let outside = tempfile::tempdir().unwrap();
        let p = b.resolve("sub/f.txt").unwrap();
        std::os::unix::fs::symlink(outside.path(), b.root().join("sub")).unwrap();
        let err = atomic_write(&b, &p, b"evil").unwrap_err();
        assert_eq!(err.code(), "PATH_NOT_IN_WORKSPACE");
        assert!(!outside.path().join("f.txt").exists());
    }

    #[test]
    fn refuses_directory_target() {
        let (_d, b) = setup();
        std::fs::create_dir(b.root().join("d")).unwrap();
        let p = b.resolve("d").unwrap();
        assert_eq!(
            atomic_write(&b, &p, b"x").unwrap_err().code(),
            "IS_A_DIRECTORY"
        );
    }
}
