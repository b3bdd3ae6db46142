//! The agent loop: [`Session::spawn`] gives an [`Op`] sender and an [`Event`] receiver.
//!
//! One Tokio task owns all session state ([`engine::Engine`], split into parts) and is the only
//! writer, so there are no locks: while a task runs it waits on the model stream, on tool
//! futures and on the op channel at once (`tokio::select!`), which is how `cancel`, approvals
//! and snapshots are answered at any moment.
//!
//! - [`task`]: the loop of turns and why it ends; [`retry`] runs it again.
//! - [`turn`]: one model request, streamed, with tool-call cards and argument patches
//!   ([`args_stream`], [`preview`]).
//! - [`scheduler`]: the calls of a turn through the tool runtime, in order; [`call_state`] is
//!   each call's state machine.
//! - [`approvals`]: waiting for the user, with previews pinned by hash.
//! - `hook_points`: where the hooks of [`crate::hooks`] run in the pipeline and the task.
//! - `config_warnings`: what is wrong with the configuration the session reads, told once.
//! - [`subtask`]: sub-agents, each with its own `frame`.
//! - `session_context`: the note with the date and the git state before a new session's first
//!   message; [`prompt`] is the byte-stable system prompt.
//! - [`compaction`]: keeping the conversation inside the context window ([`context_window`]).
//! - [`inbox`] and [`ops`]: what the engine waits on and how it answers ops between tasks;
//!   `slash_input` runs a message's `/command` or skill (`slash_task` keeps what it changed).
//! - [`persist`] and `saves`, [`undo`] with [`undo_hunks`] and [`undo_state`], [`spend`]: what a
//!   session keeps.
//!
//! What a stored conversation is (history, transcript, branches) is [`crate::conversation`].

pub mod approvals;
pub mod args_stream;
pub mod call_state;
mod checkpointing;
pub mod compaction;
mod config;
mod config_warnings;
pub mod context_window;
mod engine;
pub mod escalation;
pub mod events;
mod folder_turn;
mod frame;
mod hook_points;
pub mod inbox;
mod jobs;
mod model_change;
mod ops;
mod pending_checkpoint;
pub(crate) mod persist;
pub mod preview;
pub mod prompt;
pub mod repetition;
pub mod retry;
mod sandboxing;
mod saves;
pub mod scheduler;
mod session_changes;
mod session_context;
mod session_paths;
mod slash_input;
mod slash_task;
pub mod spend;
pub mod subtask;
pub mod task;
pub mod turn;
pub mod undo;
pub mod undo_hunks;
pub mod undo_state;
mod user_input;

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
