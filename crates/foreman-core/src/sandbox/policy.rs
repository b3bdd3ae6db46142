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
}

impl SandboxPolicy {
    /// The note on a command's card while it runs confined.
    pub fn note(&self) -> SandboxNote {
        SandboxNote {
            level: Some(self.level),
            network: self.network,
            unconfined: None,
            refused: Vec::new(),
        }
    }
}

/// Whether commands can be confined here.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Availability {
    /// They can; what enforces it, for Settings (`Landlock ABI 7, seccomp, mount namespaces`).
    Available { enforced_by: String },
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
            Self::Available { enforced_by } => format!("Commands run confined ({enforced_by})."),
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
