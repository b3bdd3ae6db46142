//! What a session is started with: [`SessionConfig`], and why it may not start.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use thiserror::Error;

use crate::mcp::McpHub;
use crate::protocol::{ApprovalMode, ConfigArea, SandboxLevel};
use crate::providers::context_windows::context_window_of;
use crate::providers::{Limits, Message, PriceTable, Provider};
use crate::slash::SlashDirs;
use crate::store::{RuleAction, Store};

/// Everything a session needs.
#[derive(Debug, Clone)]
pub struct SessionConfig {
    pub provider: Arc<dyn Provider>,
    pub model: String,
    /// The workspace root.
    pub workspace: PathBuf,
    /// Where session artefacts (full command output) go.
    pub data_dir: PathBuf,
    pub approval_mode: ApprovalMode,
    /// Most model requests per task.
    pub max_iterations: u32,
    pub limits: Limits,
    /// Rules like `bash(cargo test*)` with what they do (allow, ask, deny); the stored workspace
    /// rules go here too.
    pub rules: Vec<(RuleAction, String)>,
    /// The id to use (a resumed session keeps its id); a new one is made when `None`.
    pub session_id: Option<String>,
    /// History to continue from (resume).
    pub history: Vec<Message>,
    /// How many messages of the user the resumed session has, as its transcript shows them
    /// ([`crate::conversation::Transcript::user_messages`]); numbers the ones this engine takes.
    pub user_messages: usize,
    /// Tool calling through the text protocol, for models without native tools.
    pub text_protocol: bool,
    /// External tools (MCP servers, discovery): the tools the hub offers when the session
    /// starts join the built-ins.
    pub mcp: Option<McpHub>,
    /// How long a call of a tool may run, by tool name (the tool's own limit otherwise).
    pub tool_timeouts: HashMap<String, Duration>,
    /// Consecutive failures of one tool that pause the task.
    pub pause_after_failures: u32,
    /// Watch the workspace (debounced by this much): report `FilesChanged` and re-send a
    /// waiting approval when its file changes. `None` turns watching off.
    pub watch_debounce: Option<Duration>,
    /// How often a pending approval re-checks its file on disk when the workspace is not
    /// watched (watching off or failed to start) or its file is one the watcher ignores.
    pub preview_poll: Duration,
    /// The model's context window in tokens; past `context_window - context_reserve` old tool
    /// outputs are elided, then older history is summarised (see [`super::compaction`]).
    /// `None` when neither the settings nor the table of known models give it: compaction then
    /// assumes [`DEFAULT_CONTEXT_WINDOW`](crate::providers::context_windows::DEFAULT_CONTEXT_WINDOW),
    /// and the usage reports a window of 0 (unknown), so no front end shows a share of a window
    /// it made up.
    pub context_window: Option<usize>,
    /// Tokens kept free for the answer (at most a quarter of a small window).
    pub context_reserve: usize,
    /// Prices for the session's cost estimate (a model not in it has an unknown cost).
    pub prices: PriceTable,
    /// Where the session is persisted (see [`crate::conversation::open_session`] for the id and history).
    pub store: Option<Store>,
    /// How deep sub-agents nest: 0 offers no `new_task`, 1 (the default) lets the session's
    /// agent start sub-agents that cannot start their own.
    pub max_task_depth: u32,
    /// Most model requests of one sub-agent.
    pub sub_agent_max_iterations: u32,
    /// How far commands are confined (in every mode but yolo).
    pub sandbox: SandboxLevel,
    /// Whether a confined command may reach the network.
    pub sandbox_network: bool,
    /// Paths hidden from confined commands, absolute (see [`crate::sandbox::hidden`]): by
    /// default the credential locations; clients add their own data directories.
    pub sandbox_hidden: Vec<PathBuf>,
    /// Paths a confined command may write besides the workspace: a task's own git directory
    /// and branches (see [`crate::tasks::Place`]).
    pub sandbox_writable: Vec<PathBuf>,
    /// Files in those paths a confined command may not change (a task's git pointers).
    pub sandbox_read_only: Vec<PathBuf>,
    /// A confined command's extra environment (a task's private git object store).
    pub sandbox_env: Vec<(String, String)>,
    /// For a task in a worktree: the other tasks' branches, kept from each confined command.
    pub sandbox_branches: Option<crate::tasks::OtherBranches>,
    /// Every command's extra environment (a task's `FOREMAN_PORT`).
    pub command_env: Vec<(String, String)>,
    /// For a task in the folder itself: the folder each of its tasks takes (waiting while
    /// another task works there).
    pub folder_turn: Option<crate::tasks::locks::FolderTurn>,
    /// Where the workspaces' checkpoint repositories live (`None`: no checkpoints).
    pub checkpoints_dir: Option<PathBuf>,
    /// The most one workspace's checkpoints may take on disk; the oldest go first.
    pub checkpoints_cap: u64,
    /// What checkpoints keep: files up to a size (larger ones are left out and listed), and
    /// the small files git ignores outside build and dependency folders.
    pub checkpoint_coverage: crate::checkpoints::Coverage,
    /// The most of one file a user message attaches (`@path`); the rest is cut with a note.
    pub attach_max_file_bytes: usize,
    /// The user's own rule file (`AGENTS.md` in the app's config directory), for every
    /// workspace: it goes into the system prompt before the workspace's own when it exists.
    pub user_rules: Option<PathBuf>,
    /// Where the session's hooks come from ([`crate::hooks`]): the workspace's settings files
    /// and the user's. `None` runs no hooks.
    pub hooks: Option<crate::hooks::HookDirs>,
    /// Hooks run outside the sandbox (the user said so); otherwise at the `bash` tool's level.
    pub hooks_unconfined: bool,
    /// The folder whose consents to hooks apply: a task's worktree shares its folder's; the
    /// workspace when `None`.
    pub consent_folder: Option<PathBuf>,
    /// Where skills and commands are found (the workspace's `.claude/`, the user's home and
    /// Foreman's config folder): the system prompt lists the skills, the `skill` tool loads
    /// them, and a message starting with `/name` runs a command. `None`: none of them.
    pub slash: Option<SlashDirs>,
    /// What the client found wrong in configuration it read for the session itself (an MCP
    /// file when no hub started); the session tells the user with its own
    /// ([`EventMsg::ConfigWarning`](crate::protocol::EventMsg::ConfigWarning)).
    pub config_warnings: Vec<(ConfigArea, String)>,
}

/// The default cap on model requests of one sub-agent.
pub const DEFAULT_SUB_AGENT_ITERATIONS: u32 = 20;

/// The default cap on model requests per task.
pub const DEFAULT_MAX_ITERATIONS: u32 = 25;

impl SessionConfig {
    /// A configuration with defaults: ask mode, 25 iterations, built-in tools, list prices, and
    /// the model's context window when it is a well-known model.
    pub fn new(provider: Arc<dyn Provider>, model: impl Into<String>, workspace: PathBuf) -> Self {
        let data_dir = workspace.join(".foreman").join("data");
        let model = model.into();
        let context_window = context_window_of(&model);
        Self {
            provider,
            model,
            workspace,
            data_dir,
            approval_mode: ApprovalMode::Ask,
            max_iterations: DEFAULT_MAX_ITERATIONS,
            limits: Limits::default(),
            rules: Vec::new(),
            session_id: None,
            history: Vec::new(),
            user_messages: 0,
            text_protocol: false,
            mcp: None,
            tool_timeouts: HashMap::new(),
            pause_after_failures: 3,
            watch_debounce: Some(Duration::from_millis(150)),
            preview_poll: Duration::from_millis(250),
            store: None,
            context_window,
            context_reserve: 16_384,
            prices: PriceTable::with_defaults(),
            max_task_depth: 1,
            sub_agent_max_iterations: DEFAULT_SUB_AGENT_ITERATIONS,
            sandbox: SandboxLevel::WorkspaceWrite,
            sandbox_network: false,
            sandbox_hidden: crate::sandbox::hidden::resolve(
                &crate::sandbox::hidden::defaults(),
                &[],
            ),
            sandbox_writable: Vec::new(),
            sandbox_read_only: Vec::new(),
            sandbox_branches: None,
            sandbox_env: Vec::new(),
            command_env: Vec::new(),
            folder_turn: None,
            checkpoints_dir: None,
            checkpoints_cap: crate::checkpoints::retention::DEFAULT_CAP_BYTES,
            attach_max_file_bytes: crate::protocol::attachment::DEFAULT_MAX_ATTACHED_FILE_BYTES,
            checkpoint_coverage: crate::checkpoints::Coverage::default(),
            user_rules: None,
            hooks: None,
            hooks_unconfined: false,
            consent_folder: None,
            slash: None,
            config_warnings: Vec::new(),
        }
    }
}

/// Why a session could not start.
#[derive(Debug, Error)]
pub enum SessionError {
    #[error("cannot open the workspace {path}: {source}")]
    Workspace {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("invalid rule `{rule}`: {source}")]
    InvalidRule {
        rule: String,
        source: crate::approval::RuleParseError,
    },
}
