//! The sandbox a command runs in, as settings and cards show it.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// How far a command is confined.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "kebab-case")]
pub enum SandboxLevel {
    /// Nothing is written but a private temporary directory.
    ReadOnly,
    /// The workspace and a private temporary directory are written; `.git/` and `.foreman/`
    /// in it stay read-only.
    #[default]
    WorkspaceWrite,
    /// Commands run with the user's full rights.
    Off,
}

impl SandboxLevel {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::ReadOnly => "read-only",
            Self::WorkspaceWrite => "workspace-write",
            Self::Off => "off",
        }
    }
}

impl std::str::FromStr for SandboxLevel {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        match text {
            "read-only" => Ok(Self::ReadOnly),
            "workspace-write" => Ok(Self::WorkspaceWrite),
            "off" => Ok(Self::Off),
            other => Err(format!(
                "unknown sandbox level `{other}`: use read-only, workspace-write or off"
            )),
        }
    }
}

/// How a command ran, for its card.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct SandboxNote {
    /// `None`: it ran outside the sandbox (the user chose so, or the sandbox is off).
    pub level: Option<SandboxLevel>,
    /// Whether it could reach the network.
    pub network: bool,
    /// Why it ran outside a sandbox that should have confined it (unavailable here).
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unconfined: Option<String>,
    /// Lines of its output that show the sandbox refused something.
    #[serde(default)]
    pub refused: Vec<String>,
    /// Hidden paths (as Settings lists them, `~/.ssh`) the command named, printed, or may need
    /// (`gh` needs `~/.config/gh`): in the sandbox each is an empty stand-in it cannot open.
    #[serde(default)]
    pub hidden: Vec<String>,
    /// Paths a deny rule keeps from commands (`read(secret.txt)`: hidden; `edit(…)`:
    /// read-only) that the command named or printed, relative to the workspace.
    #[serde(default)]
    pub denied: Vec<String>,
    /// It tried to signal a process outside its sandbox (`kill $PPID`), and was refused.
    #[serde(default)]
    pub signalled_outside: bool,
}

/// A path hidden from confined commands (Settings › Sandbox): credentials, the app's own data.
/// `~/` stands for the home directory.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct HiddenPath {
    pub path: String,
    /// Off: commands in the sandbox can read it.
    pub enabled: bool,
}
