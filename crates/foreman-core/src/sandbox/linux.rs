//! The sandbox on Linux. The parent prepares everything — the Landlock ruleset (an fd), the
//! seccomp program, the mount namespace's paths and maps — and the child, between `fork` and
//! `exec`, only makes system calls: no allocation, no locks, so a multi-threaded parent is
//! safe.

use std::collections::BTreeMap;
use std::ffi::CString;
use std::io;
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, OnceLock};

use landlock::{
    ABI, Access, AccessFs, AccessNet, CompatLevel, Compatible, Ruleset, RulesetAttr,
    RulesetCreatedAttr, path_beneath_rules,
};
use seccompiler::{
    BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
    SeccompRule, TargetArch,
};

use super::policy::{Availability, SandboxError, SandboxPolicy};
use foreman_protocol::SandboxLevel;

/// The file-system rights this sandbox knows (Landlock ABI 5: up to `ioctl` on devices).
const FS_ABI: ABI = ABI::V5;

/// Devices any command may write to.
const DEVICES: &[&str] = &["/dev/null", "/dev/zero", "/dev/full", "/dev/tty"];

/// The paths inside the workspace that stay read-only at `workspace-write`.
const KEPT_READ_ONLY: &[&str] = &[".git", ".foreman"];

/// What the child applies to itself.
struct Prepared {
    ruleset: OwnedFd,
    filter: Option<BpfProgram>,
    namespace: Option<Namespace>,
}

/// A user and mount namespace in which some paths are read-only bind mounts.
struct Namespace {
    uid_map: Vec<u8>,
    gid_map: Vec<u8>,
    /// Each path with the flags its mount already has (a remount must keep them).
    read_only: Vec<(CString, libc::c_ulong)>,
}

/// Whether `level` can be enforced here (probed once per level, by confining `sh -c 'exit 0'`).
pub fn availability(level: SandboxLevel) -> Availability {
    static READ_ONLY: OnceLock<Availability> = OnceLock::new();
    static WORKSPACE: OnceLock<Availability> = OnceLock::new();
    let cell = match level {
        SandboxLevel::Off => {
            return Availability::Unavailable {
                reason: "the sandbox is off".into(),
            };
        }
        SandboxLevel::ReadOnly => &READ_ONLY,
        SandboxLevel::WorkspaceWrite => &WORKSPACE,
    };
    cell.get_or_init(|| probe(level)).clone()
}

/// The Landlock ABI of the running kernel (0 when it has none).
fn landlock_abi() -> i64 {
    const LANDLOCK_CREATE_RULESET_VERSION: libc::c_uint = 1;
    // SAFETY: the version query takes no pointers.
    let abi = unsafe {
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            std::ptr::null::<libc::c_void>(),
            0usize,
            LANDLOCK_CREATE_RULESET_VERSION,
        )
    };
    abi.max(0)
}

fn probe(level: SandboxLevel) -> Availability {
    let abi = landlock_abi();
    if abi < 1 {
        return Availability::Unavailable {
            reason: "the kernel has no Landlock (Linux 5.13 or later with Landlock enabled is \
                     needed)"
                .into(),
        };
    }
    let run = || -> Result<(), String> {
        let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
        std::fs::create_dir(dir.path().join(".git")).map_err(|e| e.to_string())?;
        let policy = SandboxPolicy {
            level,
            network: false,
            workspace: dir.path().to_path_buf(),
            temp: dir.path().join(".tmp"),
        };
        let mut command = Command::new("/bin/sh");
        command.args(["-c", "exit 0"]);
        confine(&mut command, &policy).map_err(|e| e.to_string())?;
        let status = command.status().map_err(|e| e.to_string())?;
        match status.success() {
            true => Ok(()),
            false => Err(format!("a confined test command failed ({status})")),
        }
    };
    match run() {
        Ok(()) => Availability::Available {
            enforced_by: match level {
                SandboxLevel::WorkspaceWrite => {
                    format!("Landlock ABI {abi}, seccomp, a private mount namespace")
                }
                _ => format!("Landlock ABI {abi}, seccomp"),
            },
        },
        Err(reason) if level == SandboxLevel::WorkspaceWrite => Availability::Unavailable {
            reason: format!(
                "keeping .git/ read-only needs unprivileged user namespaces, which this system \
                 does not allow ({reason})"
            ),
        },
        Err(reason) => Availability::Unavailable { reason },
    }
}

/// Makes `command` confine itself to `policy` when it starts. Its `TMPDIR` is the policy's
/// private temporary directory.
pub fn confine(command: &mut Command, policy: &SandboxPolicy) -> Result<(), SandboxError> {
    if policy.level == SandboxLevel::Off {
        return Ok(());
    }
    std::fs::create_dir_all(&policy.temp).map_err(|source| SandboxError::Path {
        path: policy.temp.clone(),
        source,
    })?;
    let prepared = Arc::new(Prepared {
        ruleset: ruleset(policy)?,
        filter: match policy.network {
            true => None,
            false => Some(network_filter()?),
        },
        namespace: match policy.level {
            SandboxLevel::WorkspaceWrite => Some(namespace(&policy.workspace)?),
            _ => None,
        },
    });
    for var in ["TMPDIR", "TMP", "TEMP"] {
        command.env(var, &policy.temp);
    }
    // SAFETY: `apply` makes only system calls on data prepared here (async-signal-safe).
    unsafe {
        command.pre_exec(move || apply(&prepared));
    }
    Ok(())
}

fn rules_error(e: impl std::fmt::Display) -> SandboxError {
    SandboxError::Rules(e.to_string())
}

/// Read everywhere; write the workspace (at `workspace-write`), the temporary directory and a
/// few devices; no TCP unless the network is allowed.
fn ruleset(policy: &SandboxPolicy) -> Result<OwnedFd, SandboxError> {
    let mut writable: Vec<PathBuf> = vec![policy.temp.clone()];
    if policy.level == SandboxLevel::WorkspaceWrite {
        writable.push(policy.workspace.clone());
    }
    writable.extend(DEVICES.iter().map(PathBuf::from));
    let mut ruleset = Ruleset::default()
        .set_compatibility(CompatLevel::BestEffort)
        .handle_access(AccessFs::from_all(FS_ABI))
        .map_err(rules_error)?;
    if !policy.network {
        ruleset = ruleset
            .handle_access(AccessNet::BindTcp | AccessNet::ConnectTcp)
            .map_err(rules_error)?;
    }
    let created = ruleset
        .create()
        .map_err(rules_error)?
        .add_rules(path_beneath_rules(["/"], AccessFs::from_read(FS_ABI)))
        .map_err(rules_error)?
        .add_rules(path_beneath_rules(&writable, AccessFs::from_all(FS_ABI)))
        .map_err(rules_error)?;
    let fd: Option<OwnedFd> = created.into();
    fd.ok_or_else(|| SandboxError::Unavailable("the kernel does not enforce Landlock".into()))
}

/// Refuses every socket but `AF_UNIX` (and `io_uring`, which could open one behind the
/// filter's back): no connection leaves the machine, none is made to a local port.
fn network_filter() -> Result<BpfProgram, SandboxError> {
    let unix_only = SeccompRule::new(vec![
        SeccompCondition::new(
            0,
            SeccompCmpArgLen::Dword,
            SeccompCmpOp::Ne,
            libc::AF_UNIX as u64,
        )
        .map_err(rules_error)?,
    ])
    .map_err(rules_error)?;
    let mut rules: BTreeMap<i64, Vec<SeccompRule>> = BTreeMap::new();
    rules.insert(libc::SYS_socket, vec![unix_only.clone()]);
    rules.insert(libc::SYS_socketpair, vec![unix_only]);
    for call in [
        libc::SYS_io_uring_setup,
        libc::SYS_io_uring_enter,
        libc::SYS_io_uring_register,
    ] {
        rules.insert(call, Vec::new());
    }
    let arch = match std::env::consts::ARCH {
        "x86_64" => TargetArch::x86_64,
        "aarch64" => TargetArch::aarch64,
        "riscv64" => TargetArch::riscv64,
        other => {
            return Err(SandboxError::Unavailable(format!(
                "no seccomp filter for the {other} architecture"
            )));
        }
    };
    let filter = SeccompFilter::new(
        rules,
        SeccompAction::Allow,
        SeccompAction::Errno(libc::EPERM as u32),
        arch,
    )
    .map_err(rules_error)?;
    filter.try_into().map_err(rules_error)
}

/// The namespace that keeps `.git/` and `.foreman/` of `workspace` read-only.
fn namespace(workspace: &Path) -> Result<Namespace, SandboxError> {
    // SAFETY: getuid and getgid cannot fail.
    let (uid, gid) = unsafe { (libc::getuid(), libc::getgid()) };
    let mut read_only = Vec::new();
    for name in KEPT_READ_ONLY {
        let path = workspace.join(name);
        if std::fs::symlink_metadata(&path).is_err() {
            continue;
        }
        let c_path = CString::new(path.as_os_str().as_bytes()).map_err(|_| SandboxError::Path {
            path: path.clone(),
            source: io::Error::from(io::ErrorKind::InvalidInput),
        })?;
        let flags = mount_flags(&c_path).map_err(|source| SandboxError::Path {
            path: path.clone(),
            source,
        })?;
        read_only.push((c_path, flags));
    }
    Ok(Namespace {
        uid_map: format!("{uid} {uid} 1\n").into_bytes(),
        gid_map: format!("{gid} {gid} 1\n").into_bytes(),
        read_only,
    })
}

/// The flags of the mount `path` is on that a read-only remount must keep.
fn mount_flags(path: &CString) -> io::Result<libc::c_ulong> {
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

/// In the child: the namespace, then no new privileges, Landlock and the seccomp filter.
fn apply(p: &Prepared) -> io::Result<()> {
    if let Some(ns) = &p.namespace {
        enter_namespace(ns)?;
    }
    // SAFETY: plain system calls on prepared data.
    unsafe {
        if libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 {
            return Err(io::Error::last_os_error());
        }
        if libc::syscall(libc::SYS_landlock_restrict_self, p.ruleset.as_raw_fd(), 0) != 0 {
            return Err(io::Error::last_os_error());
        }
    }
    if let Some(filter) = &p.filter {
        seccompiler::apply_filter(filter).map_err(|_| io::Error::last_os_error())?;
    }
    Ok(())
}

fn enter_namespace(ns: &Namespace) -> io::Result<()> {
    // SAFETY: plain system calls; every pointer is to data owned by `ns` or a literal.
    unsafe {
        if libc::unshare(libc::CLONE_NEWUSER | libc::CLONE_NEWNS) != 0 {
            return Err(io::Error::last_os_error());
        }
        write_all(c"/proc/self/setgroups", b"deny")?;
        write_all(c"/proc/self/uid_map", &ns.uid_map)?;
        write_all(c"/proc/self/gid_map", &ns.gid_map)?;
        let none = std::ptr::null::<libc::c_char>();
        let data = std::ptr::null::<libc::c_void>();
        if libc::mount(
            none,
            c"/".as_ptr(),
            none,
            libc::MS_REC | libc::MS_PRIVATE,
            data,
        ) != 0
        {
            return Err(io::Error::last_os_error());
        }
        for (path, flags) in &ns.read_only {
            let at = path.as_ptr();
            if libc::mount(at, at, none, libc::MS_BIND | libc::MS_REC, data) != 0 {
                return Err(io::Error::last_os_error());
            }
            let remount = libc::MS_BIND | libc::MS_REMOUNT | libc::MS_RDONLY | flags;
            if libc::mount(none, at, none, remount, data) != 0 {
                return Err(io::Error::last_os_error());
            }
        }
    }
    Ok(())
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
