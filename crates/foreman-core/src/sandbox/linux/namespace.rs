//! The private user and mount namespace a confined command starts in. Prepared in the parent
//! ([`Namespace::prepare`]), entered by the child between `fork` and `exec` with system calls
//! only ([`Namespace::enter`]):
//!
//! - `.git/` and `.foreman/` of the workspace are read-only bind mounts (at `workspace-write`;
//!   Landlock cannot take back a right granted on a parent directory), and so is each of the
//!   policy's `read_only` paths (a task's git pointers, the other tasks' branches, the paths
//!   a deny rule keeps from being changed);
//! - each hidden file (also one a deny rule keeps from being read), and each pathname unix
//!   socket another program bound outside the writable roots, is covered by `/dev/null`
//!   mounted read-only and `nodev`, so opening it fails with `EACCES` and connecting to it
//!   with `ECONNREFUSED`; it cannot be removed or renamed over either (`EBUSY`);
//! - each hidden directory, and `/run/user/UID` (the session bus, the keyring's control socket,
//!   the Wayland display), is covered by an empty read-only tmpfs of mode 000;
//! - `/dev/pts` is a new `devpts` instance, its `ptmx` bound over `/dev/ptmx`: the command can
//!   open terminals of its own (Gemini CLI runs its commands in one) and cannot reach the
//!   person's. Where that mount fails, `/dev/pts` is covered like a hidden directory.
//!
//! A hidden path that holds the workspace or a writable root stays as it is: hiding it would
//! hide the command's own work. The mounts are locked to the command: it runs without
//! capabilities, and Landlock refuses it any change to the mount table.

use std::ffi::CString;
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use super::sockets::bound_sockets;
use crate::sandbox::policy::{SandboxError, SandboxPolicy};
use foreman_protocol::SandboxLevel;

/// The paths inside the workspace that stay read-only at `workspace-write`.
const KEPT_READ_ONLY: &[&str] = &[".git", ".foreman"];

/// A prepared namespace.
pub(super) struct Namespace {
    uid_map: Vec<u8>,
    gid_map: Vec<u8>,
    /// Each path with the flags its mount already has (a remount must keep them).
    read_only: Vec<(CString, libc::c_ulong)>,
    /// Files and sockets covered by `/dev/null`.
    covered_files: Vec<CString>,
    /// The flags of `/dev/null`'s own mount.
    null_flags: libc::c_ulong,
    /// Directories covered by an empty tmpfs.
    covered_dirs: Vec<CString>,
}

fn c_path(path: &Path) -> Result<CString, SandboxError> {
    CString::new(path.as_os_str().as_bytes()).map_err(|_| SandboxError::Path {
        path: path.to_path_buf(),
        source: io::Error::from(io::ErrorKind::InvalidInput),
    })
}

impl Namespace {
    /// Everything the child will mount for `policy`.
    pub(super) fn prepare(policy: &SandboxPolicy) -> Result<Self, SandboxError> {
        // SAFETY: getuid and getgid cannot fail.
        let (uid, gid) = unsafe { (libc::getuid(), libc::getgid()) };
        let mut read_only = Vec::new();
        if policy.level == SandboxLevel::WorkspaceWrite {
            let protected = KEPT_READ_ONLY
                .iter()
                .map(|name| policy.workspace.join(name));
            for path in protected.chain(policy.read_only.iter().cloned()) {
                if std::fs::symlink_metadata(&path).is_err() {
                    continue;
                }
                let c = c_path(&path)?;
                let flags = mount_flags(&c).map_err(|source| SandboxError::Path {
                    path: path.clone(),
                    source,
                })?;
                read_only.push((c, flags));
            }
        }
        // What must stay visible: the writable roots and the workspace.
        let mut kept: Vec<PathBuf> = policy
            .writable()
            .iter()
            .chain([&policy.workspace])
            .filter_map(|p| std::fs::canonicalize(p).ok())
            .collect();
        kept.dedup();
        let mut dirs: Vec<PathBuf> = Vec::new();
        let mut files: Vec<PathBuf> = Vec::new();
        let runtime = PathBuf::from(format!("/run/user/{uid}"));
        for path in policy.hidden.iter().chain([&runtime]) {
            let Ok(real) = std::fs::canonicalize(path) else {
                continue; // not there: nothing to hide
            };
            if kept.iter().any(|k| k.starts_with(&real)) {
                // It holds the workspace (a task's worktree in the app's data folder): what is
                // beside the workspace is hidden instead.
                for beside in super::super::hidden::around(&real, &kept) {
                    match beside.is_dir() {
                        true if !dirs.contains(&beside) => dirs.push(beside),
                        false if !files.contains(&beside) => files.push(beside),
                        _ => {}
                    }
                }
                continue;
            }
            match real.is_dir() {
                true if !dirs.contains(&real) => dirs.push(real),
                false if !files.contains(&real) => files.push(real),
                _ => {}
            }
        }
        files.extend(bound_sockets(&kept));
        // A file in a covered directory is hidden with it (and could not be mounted on).
        files.retain(|f| !dirs.iter().any(|d| f.starts_with(d)));
        let inner: Vec<PathBuf> = dirs
            .iter()
            .filter(|d| dirs.iter().any(|o| o != *d && d.starts_with(o)))
            .cloned()
            .collect();
        dirs.retain(|d| !inner.contains(d));
        files.dedup();
        Ok(Self {
            uid_map: format!("{uid} {uid} 1\n").into_bytes(),
            gid_map: format!("{gid} {gid} 1\n").into_bytes(),
            read_only,
            covered_files: files.iter().map(|p| c_path(p)).collect::<Result<_, _>>()?,
            null_flags: mount_flags(c"/dev/null").map_err(|source| SandboxError::Path {
                path: PathBuf::from("/dev/null"),
                source,
            })?,
            covered_dirs: dirs.iter().map(|p| c_path(p)).collect::<Result<_, _>>()?,
        })
    }

    /// In the child: a new user and mount namespace, then the mounts. True when the command
    /// has terminals of its own (its `devpts`).
    pub(super) fn enter(&self) -> io::Result<bool> {
        let none = std::ptr::null::<libc::c_char>();
        let data = std::ptr::null::<libc::c_void>();
        let covered = libc::MS_RDONLY | libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC;
        let terminals;
        // SAFETY: plain system calls; every pointer is to data owned by `self` or a literal.
        unsafe {
            if libc::unshare(libc::CLONE_NEWUSER | libc::CLONE_NEWNS) != 0 {
                return Err(io::Error::last_os_error());
            }
            write_all(c"/proc/self/setgroups", b"deny")?;
            write_all(c"/proc/self/uid_map", &self.uid_map)?;
            write_all(c"/proc/self/gid_map", &self.gid_map)?;
            let root = c"/".as_ptr();
            if libc::mount(none, root, none, libc::MS_REC | libc::MS_PRIVATE, data) != 0 {
                return Err(io::Error::last_os_error());
            }
            for (path, flags) in &self.read_only {
                let at = path.as_ptr();
                if libc::mount(at, at, none, libc::MS_BIND | libc::MS_REC, data) != 0 {
                    // Gone since it was listed (another task's branch deleted meanwhile).
                    let error = io::Error::last_os_error();
                    match error.raw_os_error() == Some(libc::ENOENT) {
                        true => continue,
                        false => return Err(error),
                    }
                }
                let remount = libc::MS_BIND | libc::MS_REMOUNT | libc::MS_RDONLY | flags;
                if libc::mount(none, at, none, remount, data) != 0 {
                    return Err(io::Error::last_os_error());
                }
            }
            let null = c"/dev/null".as_ptr();
            for path in &self.covered_files {
                let at = path.as_ptr();
                if libc::mount(null, at, none, libc::MS_BIND, data) != 0 {
                    // Gone since it was listed (a socket closed), or out of reach anyway.
                    let error = io::Error::last_os_error();
                    match vanished(&error) {
                        true => continue,
                        false => return Err(error),
                    }
                }
                let remount = libc::MS_BIND | libc::MS_REMOUNT | covered | self.null_flags;
                if libc::mount(none, at, none, remount, data) != 0 {
                    return Err(io::Error::last_os_error());
                }
            }
            let tmpfs = c"tmpfs".as_ptr();
            let options = c"mode=000,size=4k".as_ptr().cast::<libc::c_void>();
            let (devpts, pts) = (c"devpts".as_ptr(), c"/dev/pts".as_ptr());
            let own = c"newinstance,ptmxmode=0666,mode=0620"
                .as_ptr()
                .cast::<libc::c_void>();
            let pts_flags = libc::MS_NOSUID | libc::MS_NOEXEC;
            let (ptmx, new) = (c"/dev/ptmx".as_ptr(), c"/dev/pts/ptmx".as_ptr());
            terminals = libc::mount(devpts, pts, devpts, pts_flags, own) == 0
                && libc::mount(new, ptmx, none, libc::MS_BIND, data) == 0;
            if !terminals && libc::mount(tmpfs, pts, tmpfs, covered, options) != 0 {
                let error = io::Error::last_os_error();
                if !vanished(&error) {
                    return Err(error);
                }
            }
            for path in &self.covered_dirs {
                if libc::mount(tmpfs, path.as_ptr(), tmpfs, covered, options) != 0 {
                    let error = io::Error::last_os_error();
                    match vanished(&error) {
                        true => continue,
                        false => return Err(error),
                    }
                }
            }
        }
        Ok(terminals)
    }
}

/// A mount target that disappeared, or that this user could never reach.
fn vanished(error: &io::Error) -> bool {
    matches!(error.raw_os_error(), Some(libc::ENOENT | libc::EACCES))
}

/// The flags of the mount `path` is on that a read-only remount must keep.
fn mount_flags(path: &std::ffi::CStr) -> io::Result<libc::c_ulong> {
    // SAFETY: statvfs writes into the zeroed struct we pass.
    let mut stat: libc::statvfs = unsafe { std::mem::zeroed() };
    // SAFETY: `path` is a valid C string; `stat` is a valid out-pointer.
    if unsafe { libc::statvfs(path.as_ptr(), &mut stat) } != 0 {
        return Err(io::Error::last_os_error());
    }
    let kept = [
        (libc::ST_NOSUID, libc::MS_NOSUID),
        (libc::ST_NODEV, libc::MS_NODEV),
        (libc::ST_NOEXEC, libc::MS_NOEXEC),
        (libc::ST_NOATIME, libc::MS_NOATIME),
        (libc::ST_NODIRATIME, libc::MS_NODIRATIME),
        (libc::ST_RELATIME, libc::MS_RELATIME),
    ];
    Ok(kept
        .iter()
        .filter(|(st, _)| stat.f_flag & st != 0)
        .fold(0, |flags, (_, ms)| flags | ms))
}

/// Writes `bytes` to the file at `path` (in the child: open, write, close).
///
/// # Safety
/// Only system calls; `path` must be a valid C string.
unsafe fn write_all(path: &std::ffi::CStr, bytes: &[u8]) -> io::Result<()> {
    // SAFETY: the caller passes a valid path; `bytes` is a valid buffer.
    unsafe {
        let fd = libc::open(path.as_ptr(), libc::O_WRONLY | libc::O_CLOEXEC);
        if fd < 0 {
            return Err(io::Error::last_os_error());
        }
        let written = libc::write(fd, bytes.as_ptr().cast(), bytes.len());
        libc::close(fd);
        if written != bytes.len() as isize {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}
