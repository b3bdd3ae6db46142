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

/// A setting an external agent offers for its session (ACP's session config options, or its
/// modes when it offers no options): its model, its own mode, its reasoning level, …, shown
/// beside the composer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct AgentSetting {
    /// The agent's id of it (`model`, `mode`).
    pub id: String,
    /// What the agent calls it (`Model`).
    pub name: String,
    #[serde(default)]
    pub description: Option<String>,
    pub kind: AgentSettingKind,
    /// The value chosen now.
    pub current: String,
    pub choices: Vec<AgentChoice>,
}

/// What an agent's setting is about, as the agent says (so the window can place it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum AgentSettingKind {
    /// The agent's own mode: how it asks before it acts (Foreman's approval mode still holds).
    Mode,
    Model,
    /// How hard it thinks (reasoning effort).
    ThoughtLevel,
    Other,
}

/// One value of an agent's setting.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct AgentChoice {
    pub value: String,
    pub name: String,
    #[serde(default)]
    pub description: Option<String>,
}
