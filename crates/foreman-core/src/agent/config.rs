//! What a session is started with: [`SessionConfig`], the one way both clients fill it
//! ([`SessionSetup`]), and why it may not start.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use thiserror::Error;

use crate::mcp::McpHub;
use crate::protocol::{ApprovalMode, ConfigArea, SandboxLevel};
use crate::providers::context_windows::context_window_of;
use crate::providers::{Limits, Message, PriceTable, Provider};
use crate::slash::SlashDirs;
use crate::store::{RuleAction, Store, StoreError};
use crate::tasks::Place;

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
    /// outputs are elided, then older history is summarised (see [`super::context::compaction`]).
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
    /// The external agent that does the session's work over ACP (`None`: Foreman's own loop
    /// over `provider`).
    pub agent: Option<crate::acp::AgentSpec>,
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
            agent: None,
        }
    }
}

/// The user's own rule file in the app's config folder (`AGENTS.md`, beside its settings).
pub const USER_RULES_FILE: &str = "AGENTS.md";

/// The stored session an engine continues (what [`crate::conversation::open_session`] gave).
#[derive(Debug, Clone)]
pub struct StoredSession {
    /// The folder the store keeps it (and its rules) under, as the client names it.
    pub workspace_key: String,
    pub id: String,
    /// Its history (empty for a new one).
    pub history: Vec<Message>,
    /// How many messages of the user its transcript shows
    /// ([`crate::conversation::Transcript::user_messages`]).
    pub user_messages: usize,
}

/// A session's configuration from what a client knows: the app calls it with its settings,
/// the CLI with its flags and the app's settings file, each input once, then
/// [`build`](Self::build). Anything not given keeps [`SessionConfig::new`]'s default.
///
/// Each choice a client makes is one method here and one field below, so a new one (which
/// agent runs the session, say) is added in one place for both clients.
#[derive(Debug)]
#[must_use]
pub struct SessionSetup {
    config: SessionConfig,
    stored: Option<(Store, StoredSession)>,
    /// The Claude-style folders were asked for, with the app's config folder (if known).
    folders: Option<Option<PathBuf>>,
    data_root: Option<PathBuf>,
    place: Option<Place>,
}

impl SessionConfig {
    /// A [`SessionSetup`] for `model` of `provider` in `workspace` (the folder the user opened).
    pub fn builder(
        provider: Arc<dyn Provider>,
        model: impl Into<String>,
        workspace: PathBuf,
    ) -> SessionSetup {
        SessionSetup {
            config: Self::new(provider, model, workspace),
            stored: None,
            folders: None,
            data_root: None,
            place: None,
        }
    }
}

impl SessionSetup {
    /// The session is `session`, kept in `store`: its id, history and count of messages, and
    /// the rules in force for it (the user's, the folder's, its own) when it is built.
    pub fn stored(mut self, store: Store, session: StoredSession) -> Self {
        self.stored = Some((store, session));
        self
    }

    /// The external agent that does its work (`None`: Foreman's own).
    pub fn agent(mut self, agent: Option<crate::acp::AgentSpec>) -> Self {
        if let Some(agent) = &agent {
            // What the session says it runs on.
            self.config.model.clone_from(&agent.name);
        }
        self.config.agent = agent;
        self
    }

    /// The approval mode it starts in.
    pub fn approval(mut self, mode: ApprovalMode) -> Self {
        self.config.approval_mode = mode;
        self
    }

    /// The model's answer limits, whether it calls tools through the text protocol, and its
    /// context window when the user gave one (the table of known models otherwise).
    pub fn model_limits(
        mut self,
        limits: Limits,
        text_protocol: bool,
        context_window: Option<u32>,
    ) -> Self {
        self.config.limits = limits;
        self.config.text_protocol = text_protocol;
        if let Some(window) = context_window {
            self.config.context_window = Some(usize::try_from(window).unwrap_or(usize::MAX));
        }
        self
    }

    /// The most model requests per task.
    pub fn max_iterations(mut self, max: u32) -> Self {
        self.config.max_iterations = max;
        self
    }

    /// How far commands are confined, whether they may reach the network, and the paths
    /// hidden from them (absolute).
    pub fn sandbox(mut self, level: SandboxLevel, network: bool, hidden: Vec<PathBuf>) -> Self {
        self.config.sandbox = level;
        self.config.sandbox_network = network;
        self.config.sandbox_hidden = hidden;
        self
    }

    /// Hooks run outside the sandbox (the user said so).
    pub fn hooks_outside_sandbox(mut self, unconfined: bool) -> Self {
        self.config.hooks_unconfined = unconfined;
        self
    }

    /// What checkpoints keep.
    pub fn checkpoint_coverage(mut self, coverage: crate::checkpoints::Coverage) -> Self {
        self.config.checkpoint_coverage = coverage;
        self
    }

    /// The Claude-style folders: hooks, skills and commands from the workspace's `.claude/`,
    /// the user's home and the app's config folder `config_dir`, and the user's own rule file
    /// there ([`USER_RULES_FILE`]).
    pub fn user_folders(mut self, config_dir: Option<PathBuf>) -> Self {
        self.folders = Some(config_dir);
        self
    }

    /// Where the client keeps its data: the session's artefacts go to `sessions/<id>` in
    /// `root`, the workspaces' checkpoints to `checkpoints`.
    pub fn data_in(mut self, root: impl Into<PathBuf>) -> Self {
        self.data_root = Some(root.into());
        self
    }

    /// The place the session's task works in (`None`: it is not a task): its worktree or the
    /// folder, what its confined commands may write and their environment, and the folder
    /// whose hook consents apply.
    pub fn place(mut self, place: Option<&Place>) -> Self {
        self.place = place.cloned();
        self
    }

    /// The configuration; reads the rules in force from the store.
    pub async fn build(self) -> Result<SessionConfig, StoreError> {
        let Self {
            mut config,
            stored,
            folders,
            data_root,
            place,
        } = self;
        if let Some(place) = place {
            apply_place(&mut config, place);
        }
        if let Some(config_dir) = folders {
            // A task's hooks, skills and commands are its worktree's (its branch's).
            let dirs = SlashDirs::for_user(config.workspace.clone(), config_dir.clone());
            config.hooks = Some(dirs.clone());
            config.slash = Some(dirs);
            config.user_rules = config_dir.map(|dir| dir.join(USER_RULES_FILE));
        }
        if let Some((store, session)) = stored {
            config.rules = store
                .rules_in_force(&session.workspace_key, Some(&session.id))
                .await?
                .into_iter()
                .map(|r| (r.action, r.pattern))
                .collect();
            config.session_id = Some(session.id);
            config.history = session.history;
            config.user_messages = session.user_messages;
            config.store = Some(store);
        }
        if let Some(root) = data_root {
            config.data_dir = sessions_dir(&root, config.session_id.as_deref());
            config.checkpoints_dir = Some(root.join("checkpoints"));
        }
        Ok(config)
    }
}

/// Points the session at a task's place.
fn apply_place(config: &mut SessionConfig, place: Place) {
    // The worktree's hooks were allowed (or not) in the folder the user opened.
    config.consent_folder = Some(place.folder());
    config.workspace = place.workspace;
    config.sandbox_writable = place.sandbox_writable;
    config.sandbox_read_only = place.sandbox_read_only;
    config.sandbox_env = place.sandbox_env;
    config.sandbox_branches = place.sandbox_branches;
    config.command_env = place.command_env;
    config.folder_turn = place.folder_turn;
}

/// Where the artefacts of session `id` go under the client's data folder `root`.
fn sessions_dir(root: &Path, id: Option<&str>) -> PathBuf {
    let sessions = root.join("sessions");
    match id {
        Some(id) => sessions.join(id),
        None => sessions,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::{RuleScope, TaskPlace};
    use crate::providers::{ReplayProvider, WireFormat};
    use crate::store::{TaskLife, TaskRow, rule_key};
    use crate::tasks::locks::FolderTurn;

    fn provider() -> Arc<dyn Provider> {
        Arc::new(ReplayProvider::new("/nowhere", WireFormat::Anthropic))
    }

    fn place(folder: &Path, worktree: &Path) -> Place {
        Place {
            task: TaskRow {
                id: "s1".into(),
                workspace_path: folder.display().to_string(),
                name: "fix".into(),
                place: TaskPlace::Worktree,
                path: worktree.display().to_string(),
                branch: Some("foreman/fix".into()),
                base: "main".into(),
                base_commit: None,
                state: TaskLife::Active,
                merge: None,
                merge_at: None,
                note: None,
                port: None,
                trash_ref: None,
                discarded_at: None,
                created_at: 0,
                updated_at: 0,
            },
            workspace: worktree.to_path_buf(),
            sandbox_writable: vec![PathBuf::from("/git/worktrees/fix")],
            sandbox_read_only: vec![PathBuf::from("/git/worktrees/fix/HEAD")],
            sandbox_env: vec![("GIT_OBJECT_DIRECTORY".into(), "/objects".into())],
            sandbox_branches: None,
            command_env: vec![("FOREMAN_TASK".into(), "fix".into())],
            folder_turn: Some(FolderTurn {
                data_dir: PathBuf::from("/data"),
                folder: folder.display().to_string(),
                task: "fix".into(),
            }),
        }
    }

    #[tokio::test]
    async fn the_builder_fills_a_tasks_session_from_what_the_client_knows() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("f.db")).await.unwrap();
        let (folder, worktree) = (dir.path().join("repo"), dir.path().join("wt"));
        let key = folder.display().to_string();
        for (scope, pattern) in [
            (RuleScope::User, "bash(ls*)"),
            (RuleScope::Workspace, "bash(cargo test*)"),
            (RuleScope::Session, "bash(make*)"),
        ] {
            let rule = rule_key(scope, &key, Some("s1"));
            store
                .add_rule(&rule, RuleAction::Allow, pattern, 1)
                .await
                .unwrap();
        }
        let stored = StoredSession {
            workspace_key: key.clone(),
            id: "s1".into(),
            history: Vec::new(),
            user_messages: 2,
        };
        let config_dir = dir.path().join("config");
        let place = place(&folder, &worktree);
        let config = SessionConfig::builder(provider(), "claude-sonnet-4-5", folder.clone())
            // The order of the calls does not matter.
            .place(Some(&place))
            .user_folders(Some(config_dir.clone()))
            .data_in(dir.path().join("data"))
            .stored(store.clone(), stored)
            .approval(ApprovalMode::Yolo)
            .sandbox(SandboxLevel::ReadOnly, true, vec![PathBuf::from("/secret")])
            .hooks_outside_sandbox(true)
            .model_limits(Limits::default(), true, Some(8_192))
            .max_iterations(7)
            .build()
            .await
            .unwrap();
        assert_eq!(config.workspace, worktree);
        assert_eq!(config.consent_folder.as_deref(), Some(folder.as_path()));
        assert_eq!(config.sandbox_writable, place.sandbox_writable);
        assert_eq!(config.sandbox_read_only, place.sandbox_read_only);
        assert_eq!(config.sandbox_env, place.sandbox_env);
        assert_eq!(config.command_env, place.command_env);
        assert!(config.folder_turn.is_some());
        let hooks = config.hooks.as_ref().unwrap();
        assert_eq!(hooks.workspace, worktree, "the worktree's own .claude/");
        assert_eq!(hooks.config_dir.as_deref(), Some(config_dir.as_path()));
        assert_eq!(config.slash.as_ref().unwrap().workspace, worktree);
        assert_eq!(config.user_rules, Some(config_dir.join(USER_RULES_FILE)));
        assert_eq!(config.data_dir, dir.path().join("data/sessions/s1"));
        assert_eq!(
            config.checkpoints_dir,
            Some(dir.path().join("data/checkpoints"))
        );
        assert_eq!(config.session_id.as_deref(), Some("s1"));
        assert_eq!(config.user_messages, 2);
        let rules: Vec<&str> = config.rules.iter().map(|(_, p)| p.as_str()).collect();
        assert_eq!(rules, ["bash(ls*)", "bash(cargo test*)", "bash(make*)"]);
        assert!(config.store.is_some());
        assert_eq!(config.approval_mode, ApprovalMode::Yolo);
        assert_eq!(
            (config.sandbox, config.sandbox_network),
            (SandboxLevel::ReadOnly, true)
        );
        assert_eq!(config.sandbox_hidden, [PathBuf::from("/secret")]);
        assert!(config.hooks_unconfined && config.text_protocol);
        assert_eq!(
            (config.context_window, config.max_iterations),
            (Some(8_192), 7)
        );
    }

    #[test]
    fn what_is_not_given_keeps_the_defaults() {
        let workspace = PathBuf::from("/w");
        let built = SessionConfig::builder(provider(), "m", workspace.clone());
        let config = futures::executor::block_on(built.build()).unwrap();
        let new = SessionConfig::new(provider(), "m", workspace.clone());
        assert_eq!(config.workspace, workspace);
        assert_eq!(config.data_dir, new.data_dir);
        assert_eq!(config.consent_folder, None);
        assert!(config.hooks.is_none() && config.slash.is_none() && config.store.is_none());
        assert_eq!(config.max_iterations, DEFAULT_MAX_ITERATIONS);
        assert_eq!(config.sandbox_hidden, new.sandbox_hidden);
    }
}
