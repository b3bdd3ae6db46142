//! Atomic file replacement inside the workspace: write a temporary file in the same directory,
//! fsync it, rename it over the target, fsync the directory. A crash at any moment leaves either
//! the old content or the new content, never a mix. The target's directory is opened by walking
//! down from the workspace root without following links, and every file operation is relative to
//! that directory descriptor, so a link swapped in mid-way cannot redirect the write outside.

use std::ffi::OsStr;
use std::fs::File;
use std::io::Write;
use std::os::fd::OwnedFd;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

use rustix::fs::{AtFlags, FileType, Mode, OFlags};

use super::error::BuiltinError;
use crate::boundary::{RefusalReason, WorkspaceBoundary, open_dir_creating};

static TEMP_COUNTER: AtomicU64 = AtomicU64::new(0);

/// What an atomic write replaced.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AtomicWriteOutcome {
    /// Whether the file did not exist before.
    pub created: bool,
    /// Permission bits the file ended up with.
    pub mode: u32,
}

/// Atomically replaces (or creates) `resolved` — a path already checked by
/// [`WorkspaceBoundary::resolve`] — with `bytes`, creating missing parent directories and keeping
/// an existing file's permission bits.
pub fn atomic_write(
    boundary: &WorkspaceBoundary,
    resolved: &Path,
    bytes: &[u8],
) -> Result<AtomicWriteOutcome, BuiltinError> {
    let shown = boundary.display_relative(resolved);
    let (dir, name, existing_mode) = open_entry(boundary, resolved, &shown)?;
    let io = |e: rustix::io::Errno| BuiltinError::io(resolved, &shown, e.into());

    let temp_name = format!(
        ".foreman-tmp-{}-{}",
        std::process::id(),
        TEMP_COUNTER.fetch_add(1, Ordering::Relaxed)
    );
    let flags = OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    let create_mode = Mode::from_raw_mode(existing_mode.unwrap_or(0o666));
    let temp_fd = rustix::fs::openat(&dir, temp_name.as_str(), flags, create_mode).map_err(io)?;
    let mut temp = File::from(temp_fd);
    let written = (|| -> Result<u32, BuiltinError> {
        temp.write_all(bytes)
            .map_err(|e| BuiltinError::io(resolved, &shown, e))?;
        if let Some(mode) = existing_mode {
            // The umask may have narrowed the create mode; restore the original bits exactly.
            rustix::fs::fchmod(&temp, Mode::from_raw_mode(mode)).map_err(io)?;
        }
        temp.sync_all()
            .map_err(|e| BuiltinError::io(resolved, &shown, e))?;
        let mode = rustix::fs::fstat(&temp).map_err(io)?.st_mode & 0o7777;
        rustix::fs::renameat(&dir, temp_name.as_str(), &dir, name).map_err(io)?;
        Ok(mode)
    })();
    let mode = match written {
        Ok(mode) => mode,
        Err(err) => {
            let _ = rustix::fs::unlinkat(&dir, temp_name.as_str(), AtFlags::empty());
            return Err(err);
        }
    };
    rustix::fs::fsync(&dir).map_err(io)?;
    Ok(AtomicWriteOutcome {
        created: existing_mode.is_none(),
        mode,
    })
}

/// Removes the regular file `resolved` (a path already checked by
/// [`WorkspaceBoundary::resolve`]), relative to its directory opened without following links.
pub fn atomic_remove(boundary: &WorkspaceBoundary, resolved: &Path) -> Result<(), BuiltinError> {
    let shown = boundary.display_relative(resolved);
    let (dir, name, mode) = open_entry(boundary, resolved, &shown)?;
    if mode.is_none() {
        return Err(BuiltinError::NotFound { path: shown });
    }
    let io = |e: rustix::io::Errno| BuiltinError::io(resolved, &shown, e.into());
    rustix::fs::unlinkat(&dir, name, AtFlags::empty()).map_err(io)?;
    rustix::fs::fsync(&dir).map_err(io)
}

/// The directory of `resolved`, opened by walking down from the workspace root without
/// following links, the entry's name in it, and the permission bits of the regular file there
/// (`None` when there is no entry). A directory, a link or a special file there is refused.
fn open_entry<'a>(
    boundary: &WorkspaceBoundary,
    resolved: &'a Path,
    shown: &str,
) -> Result<(OwnedFd, &'a OsStr, Option<u32>), BuiltinError> {
    let (parent, name) = match (resolved.parent(), resolved.file_name()) {
        (Some(parent), Some(name)) => (parent, name),
        _ => {
            return Err(BuiltinError::IsADirectory {
                path: shown.to_owned(),
            });
        }
    };
    let dir = open_dir_creating(boundary.root(), parent)
        .map_err(|e| BuiltinError::from_open(e, shown))?;
    let mode = match rustix::fs::statat(&dir, name, AtFlags::SYMLINK_NOFOLLOW) {
        Ok(stat) => match FileType::from_raw_mode(stat.st_mode) {
            FileType::RegularFile => Some(stat.st_mode & 0o7777),
            FileType::Directory => {
                return Err(BuiltinError::IsADirectory {
                    path: shown.to_owned(),
                });
            }
            FileType::Symlink => {
                return Err(boundary
                    .refusal(
                        resolved,
                        resolved.to_path_buf(),
                        RefusalReason::ChangedDuringUse,
                    )
                    .into());
            }
            _ => {
                return Err(boundary
                    .refusal(resolved, resolved.to_path_buf(), RefusalReason::SpecialFile)
                    .into());
            }
        },
        Err(rustix::io::Errno::NOENT) => None,
        Err(err) => return Err(BuiltinError::io(resolved, shown, err.into())),
    };
    Ok((dir, name, mode))
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::PermissionsExt;

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

    #[test]
    fn keeps_existing_permissions() {
        let (_d, b) = setup();
        let p = b.resolve("script.sh").unwrap();
        std::fs::write(&p, "old").unwrap();
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
