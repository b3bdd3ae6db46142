//! The agent loop: [`Session::spawn`] gives an [`Op`] sender and an [`Event`] receiver.
//!
//! One Tokio task owns all session state ([`engine::Engine`], split into parts) and is the only
//! writer, so there are no locks: while a task runs it waits on the model stream, on tool
//! futures and on the op channel at once (`tokio::select!`), which is how `cancel`, approvals
//! and snapshots are answered at any moment.
//!
//! One folder per concern. Its `state.rs` holds its part of the engine and never imports the
//! engine; its other files add the `Engine` methods that work on it. `engine.rs` holds the
//! engine, the part every concern reads (`Tools`) and the start; `frame.rs` is what is the
//! agent's own (a sub-agent swaps in a fresh one); `events.rs` numbers the events; `config.rs`
//! is what a session starts with.
//!
//! - [`calls`]: a call's journey, its stages in order in its `mod.rs` (part: `Oversight`).
//! - [`task`]: the loop of turns and why it ends, one streamed turn, the retry, sub-agents, the
//!   folder a task takes (`TaskState`, `Incoming`).
//! - [`context`]: the system prompt, the session-context note, fitting the history into the
//!   context window (`ContextNotes`).
//! - [`inbox`]: what the engine waits on, and the ops it answers between tasks (`Inbox`).
//! - [`llm`]: the model, what it cost, another model chosen (`Llm`, `Spend`).
//! - [`undo`], `checkpoints`, `changes`: taking a change back, whole-workspace checkpoints and
//!   the rewind, the session's count of what it changed (`Undo`, `PendingCheckpoint`,
//!   `Changes`).
//! - `persist`: what the store keeps, and its errors told (`Persist`).
//! - `acp`: an external agent does the session's work instead of Foreman's loop, through the
//!   same parts (`SessionAgent`, `External`; its own table in `acp/mod.rs`).
//! - `slash`: a message's `/command` or skill (`SlashTask`); `config_warnings`: what is wrong
//!   with the configuration, told once (`ConfigWarnings`); `hooks`: running hooks, and the
//!   session's hook points.
//!
//! | file                           | its `impl Engine` methods |
//! |--------------------------------|---|
//! | `engine.rs`                    | `new`, `run` |
//! | `task/run.rs`                  | `run_task`, `run_task_from`, `retry_task`, `run_loop`, |
//! |                                | `stop`, `withdraw_message`, `flush_calls` |
//! | `task/turn.rs`                 | `stream_turn`, `report_usage` |
//! | `task/subtask.rs`              | `run_sub_agent`, `offers`, `not_offered_text` |
//! | `task/folder_turn.rs`          | `take_folder` |
//! | `calls/batches.rs`             | `run_calls`, `not_run`, `cancel_unrun` |
//! | `calls/gate.rs`                | `gate` |
//! | `calls/ask.rs`                 | `ask` |
//! | `calls/approvals.rs`           | `await_approval`, `reload_rules` |
//! | `calls/users_version.rs`       | `write_users_version` |
//! | `calls/run.rs`                 | `run_jobs` |
//! | `calls/settle.rs`              | `settle`, `count_failure` |
//! | `calls/escalation.rs`          | `escalate`, `show_after_run` |
//! | `calls/hook_points.rs`         | `pre_tool_hooks`, `permission_hooks`, `notification_hooks`, |
//! |                                | `post_tool_hooks`, `hook_subject` |
//! | `hooks/run.rs`                 | `run_hooks` |
//! | `hooks/session_points.rs`      | `prompt_hooks`, `save_prompt_hook_runs`, `stop_hooks`, |
//! |                                | `session_start_hooks`, `session_end_hooks`, |
//! |                                | `pre_compact_hooks`, `consent_hooks` |
//! | `context/compaction.rs`        | `fit_context`, `compact_on_request` |
//! | `context/notes.rs`             | `ask_session_note`, `record_session_note`, |
//! |                                | `record_hook_notes` |
//! | `inbox/ops.rs`                 | `next_op`, `take_op`, `handle_side_op`, |
//! |                                | `report_watch_error` |
//! | `llm/model_change.rs`          | `set_model` |
//! | `undo/change.rs`               | `undo_change`, `keep_checkpoint`, `bytes_before`, |
//! |                                | `refuse_undo`, `record_undo_note` |
//! | `undo/hunks.rs`                | `undo_hunks`, `checkpoint_of` |
//! | `persist/saves.rs`             | `record`, `save_notice`, `save_call`, `save_todos`, |
//! |                                | `save_usage`, `restore_spend`, `store_failed` |
//! | `checkpoints/checkpointing.rs` | `checkpoint`, `checkpoint_before_message`, |
//! |                                | `settle_checkpoint`, `keep_checkpoints_under_cap`, |
//! |                                | `show_changes`, `rewind`, `undo_rewind` |
//! | `changes/count.rs`             | `report_session_changes` |
//! | `slash/input.rs`               | `user_input`, `take_slash`, `end_slash_task` |
//! | `config_warnings/report.rs`    | `report_config_warnings`, `tell_config_warnings` |
//!
//! What a stored conversation is (history, transcript, branches) is [`crate::conversation`].

mod acp;
pub mod calls;
mod changes;
mod checkpoints;
mod config;
mod config_warnings;
pub mod context;
mod engine;
pub mod events;
mod frame;
mod hooks;
pub mod inbox;
pub mod llm;
pub(crate) mod persist;
mod slash;
pub mod task;
pub mod undo;

// Paths the tests use, kept where they were.
pub use self::context::{prompt, window as context_window};
pub use self::undo::state as undo_state;

use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender, unbounded_channel};

pub use self::config::{
    DEFAULT_MAX_ITERATIONS, DEFAULT_SUB_AGENT_ITERATIONS, SessionConfig, SessionError,
    SessionSetup, StoredSession, USER_RULES_FILE,
};
use self::engine::Engine;
use self::events::EventSink;
use crate::protocol::{Event, Op};

/// A handle type for [`Session::spawn`].
#[derive(Debug)]
pub struct Session;

impl Session {
    /// Starts a session on the current Tokio runtime. Send [`Op`]s; receive [`Event`]s until
    /// [`EventMsg::ShutdownComplete`](crate::protocol::EventMsg::ShutdownComplete). Dropping the
    /// sender shuts the session down.
    pub fn spawn(
        config: SessionConfig,
    ) -> Result<(UnboundedSender<Op>, UnboundedReceiver<Event>), SessionError> {
        let (op_tx, op_rx) = unbounded_channel();
        let (event_tx, event_rx) = unbounded_channel();
        let watch = config.watch_debounce;
        let engine = Engine::new(config, op_rx, EventSink::new(event_tx))?;
        tokio::spawn(engine.run(watch));
        Ok((op_tx, event_rx))
    }
}
