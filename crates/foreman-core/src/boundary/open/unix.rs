//! Unix: `O_NOFOLLOW` opens, reads re-checked through `/proc/self/fd` (`F_GETPATH` on macOS),
//! directory walks with `mkdirat`/`openat`.

use std::ffi::OsStr;
use std::fs::File;
use std::os::fd::OwnedFd;
use std::path::{Component, Path, PathBuf};

use rustix::fs::{Mode, OFlags};

use super::error::{OpenError, io_err};
use crate::boundary::error::{PathNotInWorkspace, RefusalReason};

/// An open directory; operations inside it are relative to it (`openat`, `renameat`, …).
pub type DirHandle = OwnedFd;

/// Where the kernel says an open descriptor points.
#[cfg(not(target_vendor = "apple"))]
fn fd_path(fd: &OwnedFd) -> std::io::Result<PathBuf> {
    use std::os::fd::AsRawFd;
    std::fs::read_link(format!("/proc/self/fd/{}", fd.as_raw_fd()))
}

/// Where the kernel says an open descriptor points (`fcntl(F_GETPATH)`: macOS has no `/proc`).
/// Not compiled on the machine this project is built and tested on, which is Linux.
#[cfg(target_vendor = "apple")]
fn fd_path(fd: &OwnedFd) -> std::io::Result<PathBuf> {
    use std::os::unix::ffi::OsStringExt;
    let path = rustix::fs::getpath(fd)?;
    Ok(PathBuf::from(std::ffi::OsString::from_vec(
        path.into_bytes(),
    )))
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

/// Walks down from the root with `mkdirat`/`openat(O_NOFOLLOW | O_DIRECTORY)`.
pub(super) fn open_dir_creating(root: &Path, dir: &Path) -> Result<OwnedFd, OpenError> {
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
