//! What a confined command may do, whether this machine can enforce it, and why confining one
//! failed.

use std::path::PathBuf;

use foreman_protocol::{SandboxLevel, SandboxNote};

/// What a confined command may do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SandboxPolicy {
    pub level: SandboxLevel,
    /// Whether it may reach the network.
    pub network: bool,
    /// The workspace root (written at `workspace-write`).
    pub workspace: PathBuf,
    /// Its private temporary directory (always written; `TMPDIR` points there).
    pub temp: PathBuf,
    /// Paths replaced by an empty stand-in it cannot open (credentials, the app's own data,
    /// see [`super::hidden`]; the files a deny rule keeps from being read). One that holds the
    /// workspace or the temporary directory is left as it is.
    pub hidden: Vec<PathBuf>,
    /// Paths it may write besides the workspace (at `workspace-write`): a task's own git
    /// directory and branches.
    pub extra_writable: Vec<PathBuf>,
    /// Files inside the writable paths it may not change (a task's git pointers and own
    /// configuration, the other tasks' branches, the files a deny rule keeps from being
    /// changed), kept read-only like `.git/` (at `workspace-write`; one gone by the time the
    /// command starts is skipped).
    pub read_only: Vec<PathBuf>,
    /// Variables set in its environment (a task's private git object store).
    pub env: Vec<(String, String)>,
}

/// Variables taken out of a confined command's environment: they lead to the session bus (and
/// through it the keychain), the SSH and GPG agents, and the display (which can type into any
/// window, the app's own included).
pub const HIDDEN_ENV: &[&str] = &[
    "DBUS_SESSION_BUS_ADDRESS",
    "DBUS_SYSTEM_BUS_ADDRESS",
    "SSH_AUTH_SOCK",
    "SSH_AGENT_PID",
    "GPG_AGENT_INFO",
    "GNOME_KEYRING_CONTROL",
    "DISPLAY",
    "WAYLAND_DISPLAY",
    "XAUTHORITY",
];

impl SandboxPolicy {
    /// A policy that hides nothing (add to [`Self::hidden`]).
    pub fn new(level: SandboxLevel, network: bool, workspace: PathBuf, temp: PathBuf) -> Self {
        Self {
            level,
            network,
            workspace,
            temp,
            hidden: Vec::new(),
            extra_writable: Vec::new(),
            read_only: Vec::new(),
            env: Vec::new(),
        }
    }

    /// The paths a confined command may write: the workspace and the extra paths (at
    /// `workspace-write`) and the temporary directory.
    pub fn writable(&self) -> Vec<PathBuf> {
        let mut roots = vec![self.temp.clone()];
        if self.level == SandboxLevel::WorkspaceWrite {
            roots.push(self.workspace.clone());
            roots.extend(self.extra_writable.iter().cloned());
        }
        roots
    }

    /// The note on a command's card while it runs confined.
    pub fn note(&self) -> SandboxNote {
        confined_note(self.level, self.network)
    }
}

/// The note on the card of a command confined at `level`, before anything happened.
pub fn confined_note(level: SandboxLevel, network: bool) -> SandboxNote {
    SandboxNote {
        level: Some(level),
        network,
        unconfined: None,
        refused: Vec::new(),
        hidden: Vec::new(),
        denied: Vec::new(),
        signalled_outside: false,
    }
}

/// Whether commands can be confined here.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Availability {
    /// They can; what enforces it, for Settings (`Landlock ABI 7, seccomp, mount namespaces`),
    /// and what it does not cover here.
    Available {
        enforced_by: String,
        gaps: Vec<String>,
    },
    /// They cannot, and why (an old kernel, a platform without an implementation yet).
    Unavailable { reason: String },
}

impl Availability {
    pub fn is_available(&self) -> bool {
        matches!(self, Self::Available { .. })
    }

    /// What Settings and a card say.
    pub fn describe(&self) -> String {
        match self {
            Self::Available { enforced_by, gaps } if gaps.is_empty() => {
                format!("Commands run confined ({enforced_by}).")
            }
            Self::Available { enforced_by, gaps } => format!(
                "Commands run confined ({enforced_by}). Not covered: {}.",
                gaps.join("; ")
            ),
            Self::Unavailable { reason } => format!(
                "Commands cannot be confined on this machine: {reason}. Commands that would have \
                 run in the sandbox ask first."
            ),
        }
    }
}

/// Why a command could not be put in the sandbox.
#[derive(Debug, thiserror::Error)]
pub enum SandboxError {
    #[error("the sandbox is not available: {0}")]
    Unavailable(String),
    #[error("cannot set up the sandbox for {path}: {source}")]
    Path {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("cannot build the sandbox's rules: {0}")]
    Rules(String),
}
