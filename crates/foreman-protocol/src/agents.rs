//! The external agents a person can choose for a session or a task (ACP agents), as the New
//! task dialog, Settings › Agents and `foreman-cli agents list` show them.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// An agent that can do a session's work besides Foreman's own.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct AgentInfo {
    /// What it is called (`claude`, or the name in `agents.json`).
    pub name: String,
    /// The program started (`claude-agent-acp`).
    pub command: String,
    /// A preset Foreman knows, or the person's own (`agents.json`).
    pub preset: bool,
    /// Where its program was found; `None`: not installed.
    #[serde(default)]
    pub path: Option<String>,
    /// How to install it, for a preset that is missing.
    #[serde(default)]
    pub install: Option<String>,
    /// It runs with the person's full rights, outside Foreman's sandbox.
    pub unsandboxed: bool,
}
