//! The instruction files the agent follows in a workspace (`AGENTS.md` and its fallbacks, and
//! the user's own file), as Settings lists them.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Which kind of instruction file it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum RuleFileKind {
    /// `AGENTS.md`, read first in every directory.
    AgentsMd,
    /// `CLAUDE.md`, read where a directory has no `AGENTS.md`.
    ClaudeMd,
    /// `GEMINI.md`, read where a directory has neither of the above.
    GeminiMd,
    /// `.clinerules`: a file, or a folder whose `*.md` files are read in name order.
    Clinerules,
    /// The user's own file in the app's config directory, for every workspace.
    User,
}

/// One instruction file in force for a workspace.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct RuleFile {
    /// Workspace-relative with `/` (`AGENTS.md`, `src/api/CLAUDE.md`, `.clinerules/`); the full
    /// path for the user's file.
    pub path: String,
    pub kind: RuleFileKind,
    /// Its size in bytes (of every `*.md` file, for a `.clinerules` folder).
    #[ts(type = "number")]
    pub bytes: u64,
    /// Over the limit the model is given: only its start is read.
    pub truncated: bool,
    /// In the system prompt from the session's start (the user's file and the root's); a nested
    /// file is given when a tool first touches its directory.
    pub in_system_prompt: bool,
}

/// What Settings shows of a workspace's instruction files.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct RuleFilesView {
    /// The files in force, the user's first, then the root's, then nested ones by path.
    pub files: Vec<RuleFile>,
    /// Where the user's own file is read from (it may not exist).
    pub user_file: String,
}
