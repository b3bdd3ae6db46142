//! Hooks, skills and commands as a front end sees them: the hooks in force and where each comes
//! from ([`HookInfo`]), what one run of a hook decided ([`HookRun`], shown on the card it
//! belongs to), and the `/` menu's entries ([`SlashEntry`]). The formats are Claude Code's, so
//! an existing `.claude/` set-up works unchanged.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// When a hook runs, by Claude Code's names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, TS)]
pub enum HookEvent {
    /// Before a tool call, after its arguments are complete: it may allow, deny or ask.
    PreToolUse,
    /// After a tool call succeeded: it may tell the model something, or block.
    PostToolUse,
    /// When the user sends a message: it may add context or block the message.
    UserPromptSubmit,
    /// When the agent is about to end its task: it may make it go on.
    Stop,
    /// When a sub-agent is about to end: it may make it go on.
    SubagentStop,
    /// When a session starts or resumes: what it prints is added as context.
    SessionStart,
    /// When a session ends.
    SessionEnd,
    /// Before the conversation is summarised to fit the context window.
    PreCompact,
    /// When the agent needs the user (an approval, or waiting for input).
    Notification,
    /// When a call would ask the user: it may answer for them.
    PermissionRequest,
}

impl HookEvent {
    pub const ALL: [HookEvent; 10] = [
        HookEvent::PreToolUse,
        HookEvent::PostToolUse,
        HookEvent::UserPromptSubmit,
        HookEvent::Stop,
        HookEvent::SubagentStop,
        HookEvent::SessionStart,
        HookEvent::SessionEnd,
        HookEvent::PreCompact,
        HookEvent::Notification,
        HookEvent::PermissionRequest,
    ];

    /// Its name in settings files and in a hook's input (`PreToolUse`).
    pub fn name(self) -> &'static str {
        match self {
            HookEvent::PreToolUse => "PreToolUse",
            HookEvent::PostToolUse => "PostToolUse",
            HookEvent::UserPromptSubmit => "UserPromptSubmit",
            HookEvent::Stop => "Stop",
            HookEvent::SubagentStop => "SubagentStop",
            HookEvent::SessionStart => "SessionStart",
            HookEvent::SessionEnd => "SessionEnd",
            HookEvent::PreCompact => "PreCompact",
            HookEvent::Notification => "Notification",
            HookEvent::PermissionRequest => "PermissionRequest",
        }
    }

    /// The event named `name` (as in a settings file).
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|e| e.name() == name)
    }
}

/// Whether a hook may run: hooks of the user's own files always may; hooks found in the
/// workspace's files only once the user has approved that exact set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum HookConsent {
    /// From the user's own settings: runs.
    NotNeeded,
    /// From the workspace, approved as it is now: runs.
    Given,
    /// From the workspace, not approved (or changed since): does not run.
    Waiting,
}

/// One hook in force.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct HookInfo {
    pub event: HookEvent,
    /// The tool names or regex it matches (`Bash`, `Edit|Write`); `None` for every tool (and
    /// for events without tools).
    pub matcher: Option<String>,
    /// The shell command it runs.
    pub command: String,
    /// Seconds before it is stopped.
    pub timeout_secs: u32,
    /// The file it comes from, as the user would write it (`.claude/settings.json`,
    /// `~/.claude/settings.json`).
    pub source: String,
    pub consent: HookConsent,
}

/// The hooks that apply to a workspace, what is wrong with their files, and the hash a consent
/// pins.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
pub struct HooksView {
    pub hooks: Vec<HookInfo>,
    /// Files that could not be read or parsed, each with why; their hooks do not run.
    pub warnings: Vec<String>,
    /// The hash of the workspace's hooks as they are now, when some wait for consent: the
    /// consent names it, so a set that changed after it was shown is not approved by it.
    pub consent_hash: Option<String>,
}

/// What one run of a hook decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum HookVerdict {
    /// Exit 0 and nothing decided: the call or the agent goes on.
    Continued,
    /// It allowed the call without asking (deny rules and the sandbox still hold).
    Allowed,
    /// It refused the call, the message or the end (exit 2, or `deny`/`block`).
    Blocked,
    /// It asked the user to decide.
    Asked,
    /// It added context for the model.
    AddedContext,
    /// It stopped the agent (`"continue": false`).
    Stopped,
    /// It failed (another exit code, or it could not start); the session goes on.
    Failed,
    /// It ran past its timeout and was stopped; the session goes on.
    TimedOut,
}

/// One run of a hook, for the card (or the conversation) it belongs to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct HookRun {
    pub event: HookEvent,
    pub command: String,
    pub source: String,
    #[ts(type = "number")]
    pub elapsed_ms: u64,
    pub verdict: HookVerdict,
    /// What it said: its reason, or the start of its error output.
    pub message: Option<String>,
    /// What it left running that was ended when it returned (`1 process it left running was
    /// ended: sleep`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub ended: Option<String>,
}

/// What a `/` entry is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum SlashKind {
    /// Foreman's own (`/compact`, `/clear`, `/model`).
    BuiltIn,
    /// A Markdown prompt from a `commands/` folder.
    Command,
    /// A skill from a `skills/` folder.
    Skill,
    /// The session's external agent's own command (sent to it as typed).
    Agent,
}

/// One entry of the composer's `/` menu.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct SlashEntry {
    /// Typed after `/` (`review`, `frontend:lint`).
    pub name: String,
    pub kind: SlashKind,
    pub description: String,
    /// What arguments it takes (`[pr-number]`).
    pub argument_hint: Option<String>,
    /// The file it comes from, as the user would write it; `None` for built-ins.
    pub source: Option<String>,
}

/// The `/` menu for a workspace, and what could not be loaded (each with its file and why).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
pub struct SlashCatalog {
    pub entries: Vec<SlashEntry>,
    pub warnings: Vec<String>,
}
