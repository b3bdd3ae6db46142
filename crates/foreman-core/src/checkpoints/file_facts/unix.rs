//! Unix: the mode, times and inode come from `stat`.

use std::ffi::OsStr;
use std::fs::{Metadata, Permissions};
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::Path;

use crate::checkpoints::stat::Stat;

pub(super) fn is_executable(metadata: &Metadata) -> bool {
    metadata.mode() & 0o111 != 0
}

pub(super) fn stat(metadata: &Metadata) -> Stat {
    Stat {
        size: metadata.len(),
        mtime_ns: i128::from(metadata.mtime()) * 1_000_000_000 + i128::from(metadata.mtime_nsec()),
        ctime_ns: i128::from(metadata.ctime()) * 1_000_000_000 + i128::from(metadata.ctime_nsec()),
        ino: metadata.ino(),
    }
}

pub(super) fn set_executable(path: &Path, executable: bool) -> std::io::Result<()> {
    let mode = if executable { 0o755 } else { 0o644 };
    std::fs::set_permissions(path, Permissions::from_mode(mode))
}

pub(super) fn symlink(target: &OsStr, link: &Path) -> std::io::Result<()> {
    std::os::unix::fs::symlink(target, link)
}
