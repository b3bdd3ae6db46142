//! How the hub confines the programs it starts ([`crate::sandbox`]).
//!
//! - A stdio server runs with its own setting from `mcp.json` (`"sandbox"`, `"sandboxNetwork"`),
//!   off unless the file says otherwise: a server is a program the user chose to install, and
//!   many need more than a sandbox allows (a cache in the home folder, a socket, the network).
//! - The discovery command runs at the level of the sessions' `bash` tool ([`HubSandbox`]:
//!   Settings › Sandbox, or `foreman-cli exec --sandbox`, `--allow-network`, `--hide`), in every
//!   approval mode: it runs when the hub starts, for every session of the workspace, and no
//!   call is approved for it. Each discovered tool's call command is a call of a session and
//!   runs in that session's sandbox exactly as a `bash` command would (unconfined in `yolo`,
//!   run again outside when the user agrees after the sandbox refused something).
//!
//! Each confined program gets the hidden paths of the sessions, the hub's workspace (or the
//! current directory) as its workspace, and a private temporary directory of its own under the
//! hub's. When a level is set and this machine cannot enforce it, the program is not started
//! and its status says why ([`ConfineError`]): it is never run unconfined in its place.

use std::path::{Path, PathBuf};

use foreman_protocol::mcp::ServerSandbox;

use crate::sandbox::{Availability, SandboxLevel, SandboxPolicy, availability, hidden};

/// The sandbox settings of the sessions that use the hub: the discovery command runs at this
/// level, and every confined program of the hub gets these hidden paths.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HubSandbox {
    pub level: SandboxLevel,
    /// Whether the discovery command may reach the network.
    pub network: bool,
    /// Paths hidden from confined programs, absolute (see [`hidden::resolve`]).
    pub hidden: Vec<PathBuf>,
}

impl Default for HubSandbox {
    /// A session's defaults: `workspace-write`, no network, the default hidden paths.
    fn default() -> Self {
        Self {
            level: SandboxLevel::WorkspaceWrite,
            network: false,
            hidden: hidden::resolve(&hidden::defaults(), &[]),
        }
    }
}

/// What a confined program of the hub is, for the words that say how to let it out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Confined {
    /// A stdio server, with its own setting in `mcp.json`.
    Server,
    /// The discovery command, at the sessions' level.
    Discovery,
}

impl Confined {
    /// How the user runs it unconfined instead.
    pub fn remedy(self) -> &'static str {
        match self {
            Self::Server => "set its sandbox to off in mcp.json or on the MCP screen",
            Self::Discovery => {
                "set the sandbox to off in Settings (`--sandbox off` for foreman-cli); the \
                 discovery command runs at the bash tool's level"
            }
        }
    }
}

/// Why a program of the hub was not started in its sandbox.
#[derive(Debug, thiserror::Error)]
pub enum ConfineError {
    #[error(
        "not started: it runs in the sandbox ({level}), which this machine cannot enforce \
         ({reason}); to run it with your full rights, {remedy}"
    )]
    Unavailable {
        level: &'static str,
        reason: String,
        remedy: &'static str,
    },
    #[error("not started: no private temporary directory for its sandbox: {0}")]
    Temp(String),
}

/// The hub's side of confining: the sessions' settings, the workspace, and the temporary
/// directory the confined programs' own ones are made in (removed with the hub).
#[derive(Debug)]
pub struct Confinement {
    settings: HubSandbox,
    /// Where the programs run (`None`: the current directory).
    cwd: Option<PathBuf>,
    /// What a confined program may write at `workspace-write`.
    workspace: PathBuf,
    temp: Result<tempfile::TempDir, String>,
}

impl Confinement {
    pub fn new(settings: HubSandbox, cwd: Option<&Path>) -> Self {
        let temp = tempfile::Builder::new()
            .prefix("foreman-mcp-")
            .tempdir()
            .map_err(|e| e.to_string());
        // Without a workspace, its own temporary directory is all a program may write.
        let workspace = cwd
            .map(Path::to_path_buf)
            .or_else(|| std::env::current_dir().ok())
            .or_else(|| temp.as_ref().ok().map(|t| t.path().to_path_buf()))
            .unwrap_or_else(std::env::temp_dir);
        Self {
            settings,
            cwd: cwd.map(Path::to_path_buf),
            workspace,
            temp,
        }
    }

    /// Where the hub's programs run (`None`: the current directory).
    pub fn cwd(&self) -> Option<&Path> {
        self.cwd.as_deref()
    }

    /// The discovery command's sandbox: the sessions' level and network.
    pub fn discovery(&self) -> ServerSandbox {
        ServerSandbox {
            level: self.settings.level,
            network: self.settings.network,
        }
    }

    /// The policy a program runs in with `setting` (`None`: unconfined, as the setting is
    /// off). `own` names its private temporary directory, unique in the hub.
    pub fn policy(
        &self,
        setting: ServerSandbox,
        own: &str,
        what: Confined,
    ) -> Result<Option<SandboxPolicy>, ConfineError> {
        if !setting.confines() {
            return Ok(None);
        }
        if let Availability::Unavailable { reason } = availability(setting.level) {
            return Err(ConfineError::Unavailable {
                level: setting.level.as_str(),
                reason,
                remedy: what.remedy(),
            });
        }
        let root = self
            .temp
            .as_ref()
            .map_err(|e| ConfineError::Temp(e.clone()))?;
        let mut policy = SandboxPolicy::new(
            setting.level,
            setting.network,
            self.workspace.clone(),
            root.path().join(own),
        );
        policy.hidden = self.settings.hidden.clone();
        Ok(Some(policy))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn off_is_unconfined_and_a_level_gets_the_sessions_hidden_paths_and_its_own_temp() {
        let ws = tempfile::tempdir().unwrap();
        let settings = HubSandbox {
            level: SandboxLevel::ReadOnly,
            network: true,
            hidden: vec![PathBuf::from("/secret")],
        };
        let hub = Confinement::new(settings, Some(ws.path()));
        assert_eq!(
            hub.discovery(),
            ServerSandbox {
                level: SandboxLevel::ReadOnly,
                network: true
            }
        );
        assert_eq!(
            hub.policy(ServerSandbox::OFF, "0-s", Confined::Server)
                .unwrap(),
            None
        );
        let setting = ServerSandbox {
            level: SandboxLevel::WorkspaceWrite,
            network: false,
        };
        match hub.policy(setting, "1-s", Confined::Server) {
            Ok(Some(policy)) => {
                assert_eq!(policy.level, SandboxLevel::WorkspaceWrite);
                assert!(!policy.network);
                assert_eq!(policy.workspace, ws.path());
                assert_eq!(policy.hidden, vec![PathBuf::from("/secret")]);
                assert!(policy.temp.ends_with("1-s"));
                assert!(!policy.temp.starts_with(ws.path()));
            }
            // A machine without the sandbox says why, and what to do.
            Err(ConfineError::Unavailable { remedy, .. }) => {
                assert!(!availability(setting.level).is_available());
                assert_eq!(remedy, Confined::Server.remedy());
            }
            other => panic!("{other:?}"),
        }
    }
}
