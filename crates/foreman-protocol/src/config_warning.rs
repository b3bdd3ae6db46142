//! [`ConfigArea`]: which part of a session's configuration a warning is about
//! ([`EventMsg::ConfigWarning`](crate::EventMsg::ConfigWarning)).

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Which part of the configuration a session reads a warning is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ConfigArea {
    /// The settings files that hold hooks (`.claude/settings.json`, `.foreman/settings.json`,
    /// the user's own).
    Hooks,
    /// Skills and custom commands (`.claude/skills/`, `.claude/commands/`).
    Slash,
    /// The MCP servers' files (`.foreman/mcp.json`, the user's `mcp.json`).
    Mcp,
    /// The rule files: `AGENTS.md` and its fallbacks, the user's own.
    Rules,
}
