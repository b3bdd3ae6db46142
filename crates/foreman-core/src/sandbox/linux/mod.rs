//! The sandbox on Linux. The parent prepares everything — the Landlock ruleset (an fd), the
//! seccomp program, the mount namespace's paths and maps (`namespace.rs`) — and the child,
//! between `fork` and `exec`, only makes system calls: no allocation, no locks, so a
//! multi-threaded parent is safe.
//!
//! Landlock (ABI 6 and later) also scopes the command: it cannot signal a process outside its
//! sandbox (the app, the user's other programs) nor connect to an abstract unix socket one of
//! them bound. Pathname sockets are covered in the mount namespace.

mod namespace;
mod sockets;

use std::collections::BTreeMap;
use std::io;
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::Command;
use std::sync::{Arc, OnceLock};

use landlock::{
    ABI, Access, AccessFs, AccessNet, CompatLevel, Compatible, Ruleset, RulesetAttr,
    RulesetCreatedAttr, Scope, path_beneath_rules,
};
use seccompiler::{
    BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
    SeccompRule, TargetArch,
};

use self::namespace::Namespace;
use super::policy::{Availability, HIDDEN_ENV, SandboxError, SandboxPolicy};
use foreman_protocol::SandboxLevel;

/// The file-system rights this sandbox knows (Landlock ABI 5: up to `ioctl` on devices).
const FS_ABI: ABI = ABI::V5;

/// Devices any command may write to (and its own terminals: [`allow_own_terminals`]).
const DEVICES: &[&str] = &["/dev/null", "/dev/zero", "/dev/full", "/dev/tty"];

/// The first Landlock ABI that scopes signals and abstract unix sockets.
const SCOPES_ABI: i64 = 6;

/// What the child applies to itself.
struct Prepared {
    ruleset: OwnedFd,
    filter: Option<BpfProgram>,
    namespace: Namespace,
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
        let policy = SandboxPolicy::new(
            level,
            false,
            dir.path().to_path_buf(),
            dir.path().join(".tmp"),
        );
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
        Ok(()) => {
            let mut gaps = vec![
                "unix sockets other programs bind after the command starts".to_owned(),
                "reading files that are not hidden".to_owned(),
            ];
            if abi < SCOPES_ABI {
                gaps.insert(
                    0,
                    format!(
                        "signals to other processes and abstract unix sockets (this kernel has \
                         Landlock ABI {abi}; Linux 6.12 or later scopes them)"
                    ),
                );
            }
            Availability::Available {
                enforced_by: format!("Landlock ABI {abi}, seccomp, a private mount namespace"),
                gaps,
            }
        }
        Err(reason) => Availability::Unavailable {
            reason: format!(
                "hiding credentials and other programs' sockets needs unprivileged user \
                 namespaces, which this system does not allow ({reason})"
            ),
        },
    }
}

/// Makes `command` confine itself to `policy` when it starts. Its `TMPDIR` is the policy's
/// private temporary directory; the variables that lead to the session bus, the agents and the
/// display are taken out of its environment.
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
        namespace: Namespace::prepare(policy)?,
    });
    for var in ["TMPDIR", "TMP", "TEMP"] {
        command.env(var, &policy.temp);
    }
    for var in HIDDEN_ENV {
        command.env_remove(var);
    }
    for (name, value) in &policy.env {
        command.env(name, value);
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
/// few devices; no TCP unless the network is allowed; no signal or abstract socket out.
fn ruleset(policy: &SandboxPolicy) -> Result<OwnedFd, SandboxError> {
    let mut writable: Vec<PathBuf> = policy.writable();
    writable.extend(DEVICES.iter().map(PathBuf::from));
    let mut ruleset = Ruleset::default()
        .set_compatibility(CompatLevel::BestEffort)
        .handle_access(AccessFs::from_all(FS_ABI))
        .map_err(rules_error)?
        .scope(Scope::from_all(ABI::V6))
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

/// In the child: the namespace, then no new privileges, Landlock and the seccomp filter.
fn apply(p: &Prepared) -> io::Result<()> {
    if p.namespace.enter()? {
        allow_own_terminals(&p.ruleset)?;
    }
    drop_capabilities()?;
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

/// In the child, once its own `devpts` is mounted: lets it open `/dev/ptmx` and its terminals.
/// The rules name the new instance's files, which exist only now (Landlock does not look at
/// the host's `/dev/pts` that the mount covers, nor at a mount point).
fn allow_own_terminals(ruleset: &OwnedFd) -> io::Result<()> {
    #[repr(C, packed)]
    struct PathBeneath {
        allowed_access: u64,
        parent_fd: i32,
    }
    const RULE_PATH_BENEATH: libc::c_int = 1;
    const WRITE_FILE: u64 = 1 << 1;
    const READ_FILE: u64 = 1 << 2;
    const IOCTL_DEV: u64 = 1 << 15;
    for path in [c"/dev/pts", c"/dev/ptmx"] {
        // SAFETY: plain system calls; `path` is a literal, `rule` lives across the calls.
        unsafe {
            let fd = libc::open(path.as_ptr(), libc::O_PATH | libc::O_CLOEXEC);
            if fd < 0 {
                return Err(io::Error::last_os_error());
            }
            let mut added = -1;
            // Without `ioctl` rights where the kernel's Landlock does not know them (before ABI 5).
            for access in [READ_FILE | WRITE_FILE | IOCTL_DEV, READ_FILE | WRITE_FILE] {
                let rule = PathBeneath {
                    allowed_access: access,
                    parent_fd: fd,
                };
                added = libc::syscall(
                    libc::SYS_landlock_add_rule,
                    ruleset.as_raw_fd(),
                    RULE_PATH_BENEATH,
                    &rule as *const PathBeneath,
                    0,
                );
                if added == 0 {
                    break;
                }
            }
            let error = io::Error::last_os_error();
            libc::close(fd);
            if added != 0 {
                return Err(error);
            }
        }
    }
    Ok(())
}

/// Gives up every capability the new user namespace granted, for good: with `SECBIT_NOROOT`
/// locked, not even a command run as root (as on a CI machine) regains them at `exec`, so it
/// cannot open a stand-in of mode 000.
fn drop_capabilities() -> io::Result<()> {
    #[repr(C)]
    struct Header {
        version: u32,
        pid: i32,
    }
    #[repr(C)]
    struct Data {
        effective: u32,
        permitted: u32,
        inheritable: u32,
    }
    const VERSION_3: u32 = 0x2008_0522;
    const NOROOT: libc::c_ulong = 1 << 0;
    const NOROOT_LOCKED: libc::c_ulong = 1 << 1;
    let header = Header {
        version: VERSION_3,
        pid: 0,
    };
    let none = [
        Data {
            effective: 0,
            permitted: 0,
            inheritable: 0,
        },
        Data {
            effective: 0,
            permitted: 0,
            inheritable: 0,
        },
    ];
    // SAFETY: plain system calls; the pointers are to the locals above, laid out as the kernel
    // expects (`_LINUX_CAPABILITY_VERSION_3` takes two data structs).
    unsafe {
        if libc::prctl(libc::PR_SET_SECUREBITS, NOROOT | NOROOT_LOCKED, 0, 0, 0) != 0 {
            return Err(io::Error::last_os_error());
        }
        if libc::prctl(
            libc::PR_CAP_AMBIENT,
            libc::PR_CAP_AMBIENT_CLEAR_ALL as libc::c_ulong,
            0,
            0,
            0,
        ) != 0
        {
            return Err(io::Error::last_os_error());
        }
        if libc::syscall(libc::SYS_capset, &header, none.as_ptr()) != 0 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}
