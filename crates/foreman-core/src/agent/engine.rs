//! [`Engine`]: the session's state, owned by its one task, split into the parts the loop's files
//! work on. A file reaches a part through the engine (`self.gate.policy`), so what each step
//! touches is visible where it is written:
//!
//! - [`Frame`]: what is the agent's own — history, system prompt, tools offered,
//!   caps, depth. A sub-agent swaps in a fresh one.
//! - [`Llm`]: the model, its limits and what its requests cost.
//! - [`Tooling`]: the tools, the user's own file writes, stats and undo.
//! - [`Gate`]: the approval policy and when to pause.
//! - [`Waiting`]: the user's messages that wait for a task.
//! - [`Control`]: whether a task runs, its cancel token, what a retry would run.
//! - [`Persist`]: the store.

use std::collections::{HashMap, VecDeque};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::mpsc::UnboundedReceiver;
use tokio_util::sync::CancellationToken;

use crate::agent::calls::call_state::CallRegistry;
use crate::agent::calls::sandboxing::Sandboxing;
use crate::agent::config::{SessionConfig, SessionError};
use crate::agent::config_warnings::state::ConfigWarnings;
use crate::agent::context::prompt;
use crate::agent::context::window as context_window;
use crate::agent::events::EventSink;
use crate::agent::frame::Frame;
use crate::agent::inbox::state::Inbox;
use crate::agent::llm::spend::Spend;
use crate::agent::persist::state::Persist;
use crate::agent::slash::state::SlashTask;
use crate::agent::task::retry::PendingRetry;
use crate::agent::task::user_input::UserInput;
use crate::agent::undo::state::Undo;
use crate::approval::{Policy, Rule};
use crate::boundary::WorkspaceBoundary;
use crate::builtin_tools::{BuiltinSession, WorkspaceFiles, builtin_names, builtin_tools};
use crate::checkpoints::Checkpoints;
use crate::project_rules::NestedRules;
use crate::protocol::{ConfigArea, EventMsg, Op};
use crate::providers::context_windows::DEFAULT_CONTEXT_WINDOW;
use crate::providers::{Limits, Provider, TextProtocolProvider, ToolDefinition};
use crate::slash::{Slash, SlashDirs};
use crate::store::RuleAction;
use crate::tools::{StatsBook, ToolSet};

/// The model the agent talks to.
#[derive(Debug)]
pub(crate) struct Llm {
    pub(crate) provider: Arc<dyn Provider>,
    /// The configured provider without the text protocol (for requests without tools).
    pub(crate) plain_provider: Arc<dyn Provider>,
    pub(crate) model: String,
    pub(crate) limits: Limits,
    /// Tokens the history may take before it is compacted.
    pub(crate) context_budget: usize,
    /// Tokens of the context window kept free for the answer (for a new model's budget).
    pub(crate) context_reserve: usize,
    pub(crate) spend: Spend,
}

/// The tools and what they leave behind.
#[derive(Debug)]
pub(crate) struct Tooling {
    pub(crate) tools: ToolSet,
    /// What the user does to files outside the calls (their version of a change, undo).
    pub(crate) files: WorkspaceFiles,
    /// How each tool's calls went.
    pub(crate) stats: StatsBook,
    /// What the file changes made so far replaced, for `undo_change`.
    pub(crate) undo: Undo,
    pub(crate) max_task_depth: u32,
    pub(crate) sub_agent_iterations: u32,
    /// The workspace's checkpoints, when the session keeps them.
    pub(crate) checkpoints: Option<Arc<Checkpoints>>,
    /// The checkpoint before the last message, while it is taken.
    pub(crate) pending_checkpoint: Option<crate::agent::checkpoints::state::PendingCheckpoint>,
    /// The most they may take on disk.
    pub(crate) checkpoints_cap: u64,
    /// The most of one file a user message attaches.
    pub(crate) attach_max_file_bytes: usize,
    /// The hooks that run in the pipeline (`None`: the session runs none).
    pub(crate) hooks: Option<crate::hooks::Hooks>,
    /// Where the commands a `/name` message runs are found (`None`: no commands).
    pub(crate) slash: Option<SlashDirs>,
    /// What the session's steps touched, for its count of changes.
    pub(crate) session_paths: crate::agent::changes::state::SessionPaths,
    /// What is wrong with the configuration the session reads, and what the user was told.
    pub(crate) config_warnings: ConfigWarnings,
    /// Removing what writes of ended processes left in the workspace, begun at the start.
    pub(crate) leftovers: Option<tokio::task::JoinHandle<Vec<PathBuf>>>,
}

/// What decides whether a call runs without asking, and when a task pauses.
#[derive(Debug)]
pub(crate) struct Gate {
    pub(crate) policy: Policy,
    /// Calls that changed something without asking since the user's last message.
    pub(crate) auto_approved: u32,
    /// Consecutive failures of one tool that pause the task.
    pub(crate) pause_after: u32,
    /// How often a waiting approval re-checks its file when the watcher does not report it.
    pub(crate) poll: Duration,
    /// How commands are confined.
    pub(crate) sandbox: Sandboxing,
}

/// The user's messages around a task.
#[derive(Debug, Default)]
pub(crate) struct Waiting {
    /// Sent while a task runs, for its next turn.
    pub(crate) queued: VecDeque<UserInput>,
    /// Queued when the user stopped the task: given back after it ends.
    pub(crate) returning: Vec<UserInput>,
    /// The user's messages in the session so far (the number of the next one taken).
    pub(crate) user_messages: usize,
    /// The session is new: its first message gets the session-context note before it.
    pub(crate) context_due: bool,
    /// What hooks gave as context (`SessionStart`, `UserPromptSubmit`), for the model with the
    /// next message it takes.
    pub(crate) hook_context: Vec<String>,
    /// The `UserPromptSubmit` runs of the message being taken, kept once it is.
    pub(crate) hook_runs: Vec<crate::protocol::HookRun>,
    /// The session-context note, asked for when the session started.
    pub(crate) context_note: Option<tokio::task::JoinHandle<String>>,
}

/// Whether a task runs, and how it ends.
#[derive(Debug, Default)]
pub(crate) struct Control {
    /// The end of the last task, while [`Op::Retry`] may run again from it.
    pub(crate) retry: Option<PendingRetry>,
    pub(crate) cancel: CancellationToken,
    pub(crate) running: bool,
    pub(crate) shutdown: bool,
    /// While a sub-agent runs, how many messages the session's own history holds (the frame's
    /// history is then the child's); `None` otherwise.
    pub(crate) session_messages: Option<usize>,
    /// For a task in the folder itself: the folder each of its tasks takes.
    pub(crate) folder_turn: Option<crate::tasks::locks::FolderTurn>,
    /// What the running task's `/command` changed (its model, its tools).
    pub(crate) slash: SlashTask,
}

/// The session's state, owned by its task.
#[derive(Debug)]
pub(crate) struct Engine {
    pub(crate) id: String,
    pub(crate) workspace: PathBuf,
    pub(crate) events: EventSink,
    pub(crate) inbox: Inbox,
    pub(crate) calls: CallRegistry,
    pub(crate) frame: Frame,
    pub(crate) llm: Llm,
    pub(crate) tooling: Tooling,
    pub(crate) gate: Gate,
    pub(crate) waiting: Waiting,
    pub(crate) control: Control,
    pub(crate) persist: Persist,
}

impl Engine {
    pub(crate) fn new(
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
        let checkpoints = config.checkpoints_dir.as_ref().and_then(|dir| {
            Checkpoints::open(dir, boundary.root())
                .map_err(|error| tracing::warn!(%error, "checkpoints are off"))
                .ok()
                .map(|c| Arc::new(c.with_coverage(config.checkpoint_coverage.clone())))
        });
        // Skills are read once: the prompt that lists them stays the same bytes.
        let slash = config.slash.as_ref().map(Slash::load).unwrap_or_default();
        let home = config.slash.as_ref().and_then(|d| d.home.as_deref());
        let mut builtin = BuiltinSession::new(boundary, config.data_dir.clone())
            .with_skills(slash.skills.clone(), home);
        builtin.env = config.command_env.clone();
        builtin.coverage = Arc::new(config.checkpoint_coverage.clone());
        let external = config
            .mcp
            .as_ref()
            .map(|hub| hub.tools(&builtin_names()))
            .unwrap_or_default();
        let tools = ToolSet::new(builtin_tools(&builtin, config.max_task_depth > 0), external)
            .with_timeouts(config.tool_timeouts.clone());
        let definitions = tools.definitions();
        let plain_provider = Arc::clone(&config.provider);
        let provider: Arc<dyn Provider> = if config.text_protocol {
            Arc::new(TextProtocolProvider::new(
                config.provider,
                catalogue(&definitions),
            ))
        } else {
            config.provider
        };
        let id = config.session_id.unwrap_or_else(new_session_id);
        let sandbox = Sandboxing::new(
            config.sandbox,
            config.sandbox_network,
            config.sandbox_hidden,
            config.data_dir.join("sandbox-tmp"),
        )
        .with_task_place(
            config.sandbox_writable,
            config.sandbox_read_only,
            config.sandbox_env,
            config.sandbox_branches,
        );
        let hooks = config.hooks.map(|dirs| {
            let key = config
                .consent_folder
                .as_ref()
                .unwrap_or(&config.workspace)
                .display()
                .to_string();
            let mut hooks = crate::hooks::Hooks::new(
                dirs,
                config.store.clone(),
                key,
                id.clone(),
                config.data_dir.join("transcript.jsonl"),
            )
            .with_env(config.command_env.clone());
            hooks.unconfined = config.hooks_unconfined;
            hooks
        });
        let mut given = config.config_warnings;
        if let Some(hub) = &config.mcp {
            given.extend(
                hub.config_problems()
                    .iter()
                    .map(|problem| (ConfigArea::Mcp, problem.clone())),
            );
        }
        let config_warnings = ConfigWarnings::new(given, config.user_rules.clone());
        let titled = !config.history.is_empty();
        // A resumed session has its context note already.
        let context_due = config.history.is_empty();
        Ok(Self {
            persist: Persist::new(config.store, id.clone(), titled),
            id,
            events,
            inbox: Inbox::new(ops),
            calls: CallRegistry::default(),
            frame: Frame {
                history: config.history,
                system: prompt::system_prompt(
                    &config.workspace,
                    &prompt::default_shell(),
                    config.user_rules.as_deref(),
                    &slash.skills,
                ),
                definitions,
                max_iterations: config.max_iterations.max(1),
                failures: HashMap::new(),
                depth: 0,
                nested_rules: NestedRules::default(),
            },
            llm: Llm {
                provider,
                plain_provider,
                model: config.model,
                limits: config.limits,
                context_budget: context_window::budget(
                    config.context_window.unwrap_or(DEFAULT_CONTEXT_WINDOW),
                    config.context_reserve,
                ),
                context_reserve: config.context_reserve,
                spend: Spend::new(
                    config.prices,
                    config
                        .context_window
                        .map_or(0, |w| u64::try_from(w).unwrap_or(u64::MAX)),
                ),
            },
            tooling: Tooling {
                tools,
                files: WorkspaceFiles::new(builtin),
                stats: StatsBook::default(),
                undo: Undo::default(),
                max_task_depth: config.max_task_depth,
                sub_agent_iterations: config.sub_agent_max_iterations.max(1),
                checkpoints,
                pending_checkpoint: None,
                checkpoints_cap: config.checkpoints_cap,
                attach_max_file_bytes: config.attach_max_file_bytes,
                hooks,
                slash: config.slash,
                session_paths: Default::default(),
                config_warnings,
                leftovers: None,
            },
            gate: Gate {
                policy: Policy {
                    mode: config.approval_mode,
                    rules: parse_rules(&config.rules)?,
                    sandboxed_commands: sandbox.confines(),
                    ..Policy::default()
                },
                auto_approved: 0,
                pause_after: config.pause_after_failures.max(1),
                poll: config.preview_poll,
                sandbox,
            },
            waiting: Waiting {
                user_messages: config.user_messages,
                context_due,
                ..Waiting::default()
            },
            control: Control {
                folder_turn: config.folder_turn,
                ..Control::default()
            },
            workspace: config.workspace,
        })
    }

    /// Runs the session until it shuts down, watching the workspace (debounced by `watch`)
    /// when it is `Some`.
    pub(crate) async fn run(mut self, watch: Option<Duration>) {
        // Beside the start: the watcher walks the whole tree, and git answers for the session's
        // context note while the person writes the first message.
        if let Some(debounce) = watch {
            let checkpoints = self.tooling.checkpoints.clone();
            self.inbox
                .begin_watching(&self.workspace, debounce, move |journal| {
                    if let Some(checkpoints) = checkpoints {
                        checkpoints.attach(journal);
                    }
                });
        }
        // Beside it too: the temporary files of writes that a killed process never finished.
        let root = self.workspace.clone();
        self.tooling.leftovers = Some(tokio::task::spawn_blocking(move || {
            crate::builtin_tools::atomic_write::remove_leftovers(&root)
        }));
        if self.waiting.context_due {
            self.waiting.context_note = Some(tokio::spawn(
                crate::agent::context::notes::session_context_note(self.workspace.clone()),
            ));
        }
        let restored = self.restore_spend().await;
        self.events.emit(EventMsg::SessionStarted {
            session_id: self.id.clone(),
            model: self.llm.model.clone(),
            workspace: self.workspace.display().to_string(),
            mode: self.gate.policy.mode,
            usage: self.llm.spend.summary(&self.llm.model),
        });
        if let Err(e) = restored {
            self.store_failed(&e);
        }
        self.report_config_warnings();
        let source = if self.waiting.context_due {
            "startup"
        } else {
            "resume"
        };
        if let Some(context) = self.session_start_hooks(source).await {
            let note = crate::conversation::notes::hook_note("SessionStart", &context);
            self.waiting.hook_context.push(note);
        }
        if !self.waiting.context_due {
            // A resumed session: what it changed, as the files are now.
            self.report_session_changes().await;
        }
        while !self.control.shutdown {
            if let Some(input) = self.waiting.queued.pop_front() {
                self.run_task(input).await;
                continue;
            }
            match self.next_op().await {
                Op::UserMessage { text, attach } => {
                    if let Some(input) = self.user_input(text, attach).await {
                        self.run_task(input).await;
                    }
                }
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
        self.settle_checkpoint().await;
        self.session_end_hooks().await;
        // Finished before the session says it is done, so nothing of it outlives the session.
        if let Some(job) = self.tooling.leftovers.take()
            && let Ok(removed) = job.await
            && !removed.is_empty()
        {
            tracing::info!(?removed, "removed the temporary files of unfinished writes");
        }
        self.events.emit(EventMsg::ShutdownComplete);
    }
}

impl Engine {
    /// Tells the user what is wrong with the session's configuration now and was not told yet
    /// (the session's own, not a sub-agent's).
    pub(crate) fn report_config_warnings(&mut self) {
        if self.frame.depth != 0 {
            return;
        }
        let found = self.tooling.config_warnings.look(
            self.tooling.hooks.as_ref().map(|h| &h.dirs),
            self.tooling.slash.as_ref(),
            &self.workspace,
        );
        self.tell_config_warnings(found);
    }

    /// Sends each of `found` not told yet.
    pub(crate) fn tell_config_warnings(&mut self, found: Vec<(ConfigArea, String)>) {
        for (area, message) in self.tooling.config_warnings.untold(found) {
            self.events
                .emit_session(EventMsg::ConfigWarning { area, message });
        }
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
