//! A running agent session: [`Session::spawn`] gives an [`Op`] sender and an [`Event`] receiver.
//!
//! One Tokio task owns all session state (history, calls, policy) and is the only writer, so
//! there are no locks: while a task runs it waits on the model stream, on tool futures and on the
//! op channel at once (`tokio::select!`), which is how `cancel`, approvals and snapshots are
//! answered at any moment.
//!
//! - [`turn`]: one model request, streamed, with tool-call cards and argument patches.
//! - [`scheduler`]: the calls of a turn — validation, approval, execution, results in order.
//! - [`approvals`]: waiting for the person, with previews pinned by hash.
//! - [`inbox`]: the ops and the workspace watcher's changes, which the engine waits on.
//! - [`task`]: the loop of turns and why it ends.
//! - [`compaction`]: keeping the conversation inside the context window (elide, then summarise).

pub mod approvals;
pub mod args_stream;
pub mod branch;
pub mod call_state;
pub mod compaction;
pub mod context_window;
pub mod events;
pub mod history;
pub mod inbox;
pub mod model_notes;
pub mod net_change;
pub mod preview;
pub mod prompt;
pub mod retry;
pub mod scheduler;
pub mod spend;
pub mod subtask;
pub mod task;
pub mod transcript;
pub mod turn;
pub mod undo;
pub mod undo_hunks;

use std::collections::{HashMap, VecDeque};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use thiserror::Error;
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender, unbounded_channel};
use tokio_util::sync::CancellationToken;

use self::call_state::CallRegistry;
use self::events::EventSink;
use self::inbox::Inbox;
use self::spend::Spend;
use crate::approval::{Policy, Rule};
use crate::boundary::WorkspaceBoundary;
use crate::builtin_tools::{BuiltinSession, WorkspaceFiles, builtin_names, builtin_tools};
use crate::mcp::McpHub;
use crate::protocol::{ApprovalMode, Event, EventMsg, Op};
use crate::providers::context_windows::{DEFAULT_CONTEXT_WINDOW, context_window_of};
use crate::providers::{
    Limits, Message, PriceTable, Provider, TextProtocolProvider, ToolDefinition,
};
use crate::store::RuleAction;
use crate::store::Store;
use crate::tools::{StatsBook, ToolSet};

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
    /// How many messages of the person the resumed session has, as its transcript shows them
    /// ([`transcript::Transcript::person_messages`]); numbers the ones this engine takes.
    pub person_messages: usize,
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
    /// outputs are elided, then older history is summarised (see [`compaction`]).
    pub context_window: usize,
    /// Tokens kept free for the answer (at most a quarter of a small window).
    pub context_reserve: usize,
    /// Prices for the session's cost estimate (a model not in it has an unknown cost).
    pub prices: PriceTable,
    /// Where the session is persisted (see [`history::open_session`] for the id and history).
    pub store: Option<Store>,
    /// How deep sub-agents nest: 0 offers no `new_task`, 1 (the default) lets the session's
    /// agent start sub-agents that cannot start their own.
    pub max_task_depth: u32,
    /// Most model requests of one sub-agent.
    pub sub_agent_max_iterations: u32,
}

/// The default cap on model requests per task.
pub const DEFAULT_MAX_ITERATIONS: u32 = 25;

impl SessionConfig {
    /// A configuration with defaults: ask mode, 25 iterations, built-in tools, list prices, and
    /// the model's context window when it is a well-known model.
    pub fn new(provider: Arc<dyn Provider>, model: impl Into<String>, workspace: PathBuf) -> Self {
        let data_dir = workspace.join(".foreman").join("data");
        let model = model.into();
        let context_window = context_window_of(&model).unwrap_or(DEFAULT_CONTEXT_WINDOW);
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
            person_messages: 0,
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
            sub_agent_max_iterations: subtask::DEFAULT_SUB_AGENT_ITERATIONS,
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

/// A handle type for [`Session::spawn`].
#[derive(Debug)]
pub struct Session;

impl Session {
    /// Starts a session on the current Tokio runtime. Send [`Op`]s; receive [`Event`]s until
    /// [`EventMsg::ShutdownComplete`]. Dropping the sender shuts the session down.
    pub fn spawn(
        config: SessionConfig,
    ) -> Result<(UnboundedSender<Op>, UnboundedReceiver<Event>), SessionError> {
        let (op_tx, op_rx) = unbounded_channel();
        let (event_tx, event_rx) = unbounded_channel();
        let engine = Engine::new(config, op_rx, EventSink::new(event_tx))?;
        tokio::spawn(engine.run());
        Ok((op_tx, event_rx))
    }
}

fn parse_rules(rules: &[(RuleAction, String)]) -> Result<Vec<Rule>, SessionError> {
    rules
        .iter()
        .map(|(action, rule)| {
            Rule::parse(*action, rule).map_err(|source| SessionError::InvalidRule {
                rule: rule.clone(),
                source,
            })
        })
        .collect()
}

fn new_session_id() -> String {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis())
        .unwrap_or_default();
    format!("s{now:x}{:08x}", fastrand::u32(..))
}

/// The catalogue of tools for the text protocol.
fn catalogue(definitions: &[ToolDefinition]) -> String {
    definitions
        .iter()
        .map(|d| {
            format!(
                "## {}\n{}\nParameters (JSON Schema): {}\n",
                d.name, d.description, d.input_schema
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The session's state, owned by its task.
#[derive(Debug)]
pub(crate) struct Engine {
    pub(crate) id: String,
    pub(crate) provider: Arc<dyn Provider>,
    /// The configured provider without the text protocol (for requests without tools).
    pub(crate) plain_provider: Arc<dyn Provider>,
    pub(crate) model: String,
    pub(crate) limits: Limits,
    pub(crate) system: String,
    pub(crate) tools: ToolSet,
    /// What the person does to files outside the calls (their version of a change, undo).
    pub(crate) files: WorkspaceFiles,
    /// How each tool's calls went.
    pub(crate) stats: StatsBook,
    pub(crate) definitions: Vec<ToolDefinition>,
    pub(crate) policy: Policy,
    /// Calls that changed something without asking since the person's last message.
    pub(crate) auto_approved: u32,
    pub(crate) max_iterations: u32,
    /// 0 for the session's own agent, 1 inside a sub-agent, and so on.
    pub(crate) depth: u32,
    pub(crate) max_task_depth: u32,
    pub(crate) sub_agent_iterations: u32,
    pub(crate) context_budget: usize,
    pub(crate) pause_after: u32,
    pub(crate) poll: Duration,
    pub(crate) workspace: PathBuf,
    pub(crate) events: EventSink,
    pub(crate) inbox: Inbox,
    /// Watch the workspace, debounced by this much (see [`SessionConfig::watch_debounce`]).
    pub(crate) watch_debounce: Option<Duration>,
    pub(crate) history: Vec<Message>,
    /// While a sub-agent runs, how many messages the session's own history holds (`history` is
    /// then the child's); `None` otherwise.
    pub(crate) session_messages: Option<usize>,
    pub(crate) calls: CallRegistry,
    /// What the file changes made so far replaced, for `undo_change`.
    pub(crate) undo: undo::Undo,
    pub(crate) spend: Spend,
    pub(crate) failures: HashMap<String, u32>,
    /// The person's messages sent while a task runs, for its next turn.
    pub(crate) queued: VecDeque<String>,
    /// Messages that were queued when the person stopped the task: given back after it ends.
    pub(crate) returning: Vec<String>,
    /// The person's messages in the session so far (the number of the next one taken).
    pub(crate) person_messages: usize,
    /// The end of the last task, while [`Op::Retry`] may run again from it.
    pub(crate) retry: Option<retry::PendingRetry>,
    pub(crate) cancel: CancellationToken,
    pub(crate) running: bool,
    pub(crate) shutdown: bool,
    pub(crate) store: Option<Store>,
    pub(crate) titled: bool,
}

impl Engine {
    fn new(
        config: SessionConfig,
        ops: UnboundedReceiver<Op>,
        events: EventSink,
    ) -> Result<Self, SessionError> {
        let boundary = WorkspaceBoundary::new(&config.workspace).map_err(|source| {
            SessionError::Workspace {
                path: config.workspace.clone(),
                source,
            }
        })?;
        let builtin = BuiltinSession::new(boundary, config.data_dir.clone());
        let external = config
            .mcp
            .as_ref()
            .map(|hub| hub.tools(&builtin_names()))
            .unwrap_or_default();
        let tools = ToolSet::new(builtin_tools(&builtin, config.max_task_depth > 0), external)
            .with_timeouts(config.tool_timeouts.clone());
        let definitions = tools.definitions();
        let files = WorkspaceFiles::new(builtin);
        let plain_provider = Arc::clone(&config.provider);
        let provider: Arc<dyn Provider> = if config.text_protocol {
            Arc::new(TextProtocolProvider::new(
                config.provider,
                catalogue(&definitions),
            ))
        } else {
            config.provider
        };
        Ok(Self {
            id: config.session_id.unwrap_or_else(new_session_id),
            provider,
            plain_provider,
            model: config.model,
            limits: config.limits,
            system: prompt::system_prompt(&config.workspace, &prompt::default_shell()),
            tools,
            files,
            stats: StatsBook::default(),
            definitions,
            policy: Policy {
                mode: config.approval_mode,
                rules: parse_rules(&config.rules)?,
                ..Policy::default()
            },
            auto_approved: 0,
            max_iterations: config.max_iterations.max(1),
            depth: 0,
            max_task_depth: config.max_task_depth,
            sub_agent_iterations: config.sub_agent_max_iterations.max(1),
            context_budget: context_window::budget(config.context_window, config.context_reserve),
            pause_after: config.pause_after_failures.max(1),
            poll: config.preview_poll,
            workspace: config.workspace,
            events,
            inbox: Inbox::new(ops),
            watch_debounce: config.watch_debounce,
            calls: CallRegistry::default(),
            spend: Spend::new(
                config.prices,
                u64::try_from(config.context_window).unwrap_or(u64::MAX),
            ),
            failures: HashMap::new(),
            queued: VecDeque::new(),
            returning: Vec::new(),
            person_messages: config.person_messages,
            retry: None,
            cancel: CancellationToken::new(),
            running: false,
            shutdown: false,
            titled: !config.history.is_empty(),
            store: config.store,
            history: config.history,
            session_messages: None,
            undo: undo::Undo::default(),
        })
    }

    async fn run(mut self) {
        // Before `SessionStarted`, so every change after it is seen.
        let watch_error = match self.watch_debounce {
            Some(debounce) => {
                let workspace = self.workspace.clone();
                self.inbox.start_watching(&workspace, debounce).await.err()
            }
            None => None,
        };
        let restored = self.restore_spend().await;
        self.events.emit(EventMsg::SessionStarted {
            session_id: self.id.clone(),
            model: self.model.clone(),
            workspace: self.workspace.display().to_string(),
            mode: self.policy.mode,
            usage: self.spend.summary(&self.model),
        });
        if let Err(e) = restored {
            self.store_failed(&e);
        }
        if let Some(e) = watch_error {
            self.report_watch_error(&e);
        }
        while !self.shutdown {
            if let Some(text) = self.queued.pop_front() {
                self.run_task(text).await;
                continue;
            }
            match self.next_op().await {
                Op::UserMessage { text } => self.run_task(text).await,
                Op::Retry => self.retry_task().await,
                op => {
                    self.handle_side_op(op).await;
                    // What an op changed is stored at once when no task runs; the model is told
                    // of an undone change in the history (its next request has it).
                    self.flush_calls().await;
                    self.record_undo_note().await;
                }
            }
        }
        self.events.emit(EventMsg::ShutdownComplete);
    }

    /// Answers an op that does not belong to what the engine is waiting for right now.
    pub(crate) async fn handle_side_op(&mut self, op: Op) {
        match op {
            Op::UserMessage { text } => self.queued.push_back(text),
            Op::Approve { call_id, .. }
            | Op::Reject { call_id, .. }
            | Op::EditAndApprove { call_id, .. }
            | Op::ApproveHunks { call_id, .. } => self.events.emit(EventMsg::ApprovalRefused {
                call_id,
                reason: "no approval is pending for this call".into(),
            }),
            Op::Cancel => self.stop(),
            Op::WithdrawMessage { index, text } => self.withdraw_message(index, &text),
            Op::Retry => self.events.emit_session(EventMsg::Error {
                message: "The agent is still working: there is nothing to retry.".into(),
            }),
            Op::Continue => self.events.emit(EventMsg::Error {
                message: "nothing is paused".into(),
            }),
            Op::SetApprovalMode { mode } => {
                self.policy.mode = mode;
                self.events
                    .emit_session(EventMsg::ApprovalModeChanged { mode });
            }
            Op::UndoChange { call_id } => self.undo_change(&call_id).await,
            Op::UndoHunks { call_id, hunks } => self.undo_hunks(&call_id, hunks).await,
            Op::Snapshot => self.events.emit_session(EventMsg::Snapshot {
                session_id: self.id.clone(),
                mode: self.policy.mode,
                running: self.running,
                messages: u32::try_from(self.session_messages.unwrap_or(self.history.len()))
                    .unwrap_or(u32::MAX),
                calls: self.calls.snapshot_for_event(),
                usage: self.spend.summary(&self.model),
                // Those a Stop gives back when its task ends wait too, until then.
                queued: self.returning.iter().chain(&self.queued).cloned().collect(),
                retry: self.retry.as_ref().map(|r| r.reason.clone()),
            }),
            Op::LoadPreview { call_id } => {
                let preview = self.calls.get(&call_id).and_then(|c| c.preview.clone());
                match preview {
                    Some(preview) => self.events.emit(EventMsg::ToolCallUpdated {
                        call_id,
                        state: None,
                        args: Vec::new(),
                        preview: Some(preview),
                        status: None,
                        images: None,
                        title: None,
                    }),
                    None => self.events.emit(EventMsg::Error {
                        message: format!("{call_id}: this call has no preview to load"),
                    }),
                }
            }
            Op::Shutdown => {
                self.shutdown = true;
                self.stop();
            }
        }
    }
}
