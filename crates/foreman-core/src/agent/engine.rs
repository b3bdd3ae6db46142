//! [`Engine`]: the session's state, owned by its one task, split into the parts the loop's files
//! work on. A file reaches a part through the engine (`self.oversight.policy`), so what each step
//! touches is visible where it is written. Each part lives in a file that does not import the
//! engine — [`Tools`] here, every other one in its concern's `state.rs`:
//!
//! - [`Frame`] (`frame.rs`): what is the agent's own — history, system prompt, tools offered,
//!   caps, depth. A sub-agent swaps in a fresh one.
//! - [`Llm`] (`llm/`): the model, its limits and what its requests cost.
//! - [`Tools`]: the tools, their stats, the user's own file writes, hooks and commands.
//! - [`Changes`] (`changes/`): what the session changed in the workspace, undo, checkpoints.
//! - [`Oversight`] (`calls/`): the approval policy, the sandbox, and when to pause.
//! - [`Incoming`] and [`TaskState`] (`task/`): the user's messages on their way to the model;
//!   whether a task runs, its cancel token, what a retry would run.
//! - [`ContextNotes`] (`context/`): the notes that go to the model with the next message.
//! - [`Persist`], [`Inbox`], [`CallRegistry`]: the store, what the engine waits on, every
//!   call's state.
//! - [`SessionAgent`] (`acp/`): who does the work, Foreman's own loop or an external agent.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::mpsc::UnboundedReceiver;

use crate::agent::acp::state::{External, SessionAgent};
use crate::agent::calls::call_state::CallRegistry;
use crate::agent::calls::sandboxing::Sandboxing;
use crate::agent::calls::state::Oversight;
use crate::agent::changes::state::Changes;
use crate::agent::config::{SessionConfig, SessionError};
use crate::agent::config_warnings::state::ConfigWarnings;
use crate::agent::context::prompt;
use crate::agent::context::state::ContextNotes;
use crate::agent::context::window as context_window;
use crate::agent::events::EventSink;
use crate::agent::frame::Frame;
use crate::agent::inbox::state::Inbox;
use crate::agent::llm::spend::Spend;
use crate::agent::llm::state::Llm;
use crate::agent::persist::state::Persist;
use crate::agent::task::state::{Incoming, TaskState};
use crate::approval::{Policy, Rule};
use crate::boundary::WorkspaceBoundary;
use crate::builtin_tools::{BuiltinSession, WorkspaceFiles, builtin_names, builtin_tools};
use crate::checkpoints::Checkpoints;
use crate::project_rules::NestedRules;
use crate::protocol::{ConfigArea, EventMsg, Op};
use crate::providers::context_windows::DEFAULT_CONTEXT_WINDOW;
use crate::providers::{Provider, TextProtocolProvider, ToolDefinition};
use crate::slash::{Slash, SlashDirs};
use crate::store::RuleAction;
use crate::tools::{StatsBook, ToolSet};

/// The tools, how their calls went, and what extends them (hooks, commands).
#[derive(Debug)]
pub(crate) struct Tools {
    pub(crate) set: ToolSet,
    /// What the user does to files outside the calls (their version of a change, undo), and
    /// what a message attaches.
    pub(crate) files: WorkspaceFiles,
    /// How each tool's calls went.
    pub(crate) stats: StatsBook,
    pub(crate) max_task_depth: u32,
    pub(crate) sub_agent_iterations: u32,
    /// The hooks that run in the pipeline (`None`: the session runs none).
    pub(crate) hooks: Option<crate::hooks::Hooks>,
    /// Where the commands a `/name` message runs are found (`None`: no commands).
    pub(crate) slash: Option<SlashDirs>,
    /// What is wrong with the configuration the session reads, and what the user was told.
    pub(crate) config_warnings: ConfigWarnings,
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
    pub(crate) tools: Tools,
    pub(crate) changes: Changes,
    pub(crate) oversight: Oversight,
    pub(crate) incoming: Incoming,
    pub(crate) context: ContextNotes,
    pub(crate) task: TaskState,
    pub(crate) persist: Persist,
    /// Who does the work: Foreman's loop or an external agent.
    pub(crate) agent: SessionAgent,
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
        let note_due = config.history.is_empty();
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
            tools: Tools {
                set: tools,
                files: WorkspaceFiles::new(builtin),
                stats: StatsBook::default(),
                max_task_depth: config.max_task_depth,
                sub_agent_iterations: config.sub_agent_max_iterations.max(1),
                hooks,
                slash: config.slash,
                config_warnings,
            },
            changes: Changes {
                checkpoints,
                checkpoints_cap: config.checkpoints_cap,
                ..Changes::default()
            },
            oversight: Oversight {
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
                approved_changes: Vec::new(),
            },
            incoming: Incoming {
                user_messages: config.user_messages,
                attach_max_file_bytes: config.attach_max_file_bytes,
                ..Incoming::default()
            },
            context: ContextNotes {
                note_due,
                ..ContextNotes::default()
            },
            task: TaskState {
                folder_turn: config.folder_turn,
                ..TaskState::default()
            },
            agent: match config.agent {
                Some(spec) => SessionAgent::External(Box::new(External::new(spec))),
                None => SessionAgent::Foreman,
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
            let checkpoints = self.changes.checkpoints.clone();
            self.inbox
                .begin_watching(&self.workspace, debounce, move |journal| {
                    if let Some(checkpoints) = checkpoints {
                        checkpoints.attach(journal);
                    }
                });
        }
        // Beside it too: the temporary files of writes that a killed process never finished.
        let root = self.workspace.clone();
        self.changes.leftovers = Some(tokio::task::spawn_blocking(move || {
            crate::builtin_tools::atomic_write::remove_leftovers(&root)
        }));
        self.ask_session_note();
        let restored = self.restore_spend().await;
        self.events.emit(EventMsg::SessionStarted {
            session_id: self.id.clone(),
            model: self.llm.model.clone(),
            workspace: self.workspace.display().to_string(),
            mode: self.oversight.policy.mode,
            usage: self.llm.spend.summary(&self.llm.model),
        });
        if let Err(e) = restored {
            self.store_failed(&e);
        }
        self.report_config_warnings();
        let source = if self.context.note_due {
            "startup"
        } else {
            "resume"
        };
        if let Some(context) = self.session_start_hooks(source).await {
            let note = crate::conversation::notes::hook_note("SessionStart", &context);
            self.context.from_hooks.push(note);
        }
        if !self.context.note_due {
            // A resumed session: what it changed, as the files are now.
            self.report_session_changes().await;
        } else if self.agent.is_external() {
            // A new session's agent starts now, so its settings and commands are there to
            // choose from before the first message (a resumed one starts with its next). One
            // that cannot start is tried again by the first message, which says why.
            if let Err(error) = self.start_agent().await {
                tracing::info!(%error, "the session's agent did not start before its first message");
            }
        }
        while !self.task.shutdown {
            if let Some(input) = self.incoming.queued.pop_front() {
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
        if let Some(job) = self.changes.leftovers.take()
            && let Ok(removed) = job.await
            && !removed.is_empty()
        {
            tracing::info!(?removed, "removed the temporary files of unfinished writes");
        }
        self.events.emit(EventMsg::ShutdownComplete);
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
    format!("s{:x}{:08x}", crate::store::now_ms(), fastrand::u32(..))
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
