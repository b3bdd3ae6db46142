//! [`SessionAgent`]: what does a session's work — Foreman's own loop of model turns, or an
//! external agent over ACP ([`External`], its part of the engine). Both go through the same
//! engine: the same events, cards, approvals, checkpoints and counts of changes; only the task's
//! loop differs (`task/run.rs` asks this which to run).

use std::collections::HashMap;

use tokio::sync::mpsc::UnboundedReceiver;

use crate::acp::wire::{AgentCapabilities, SessionModes, ToolCallContent};
use crate::acp::{AcpConnection, AgentSpec, FromAgent};
use crate::protocol::SlashEntry;
use crate::providers::Attachment;

/// Who answers the person's messages.
#[derive(Debug, Default)]
pub(crate) enum SessionAgent {
    /// Foreman's own loop over the session's provider.
    #[default]
    Foreman,
    /// An external agent, over ACP.
    External(Box<External>),
}

/// An external agent's part of the engine.
#[derive(Debug)]
pub(crate) struct External {
    pub(crate) spec: AgentSpec,
    /// The running agent (`None`: not started yet, or it ended; the next message starts it).
    pub(crate) live: Option<Live>,
    /// The agent's own id of the session, kept so that a restarted agent loads it.
    pub(crate) acp_session: Option<String>,
    pub(crate) capabilities: AgentCapabilities,
    pub(crate) modes: Option<SessionModes>,
    /// Its settings as it last listed them (ACP config options, unread).
    pub(crate) config_options: Vec<serde_json::Value>,
    /// Its own `/` commands.
    pub(crate) commands: Vec<SlashEntry>,
    /// What it sent between turns that its next turn reads first.
    pub(crate) early: std::collections::VecDeque<FromAgent>,
    /// What the person chose of its settings, oldest first: chosen again when the agent is
    /// started again.
    pub(crate) chosen: Vec<(String, String)>,
    /// The agent's tool call ids → the cards' call ids.
    pub(crate) calls: HashMap<String, AgentCall>,
    /// The terminals the agent made, by id.
    pub(crate) terminals: HashMap<String, Terminal>,
    /// Numbers the ids Foreman makes (calls it runs for the agent, terminals).
    pub(crate) next_id: u64,
    /// The person's last message, as the agent is sent it (kept for a retry).
    pub(crate) prompt: Option<(String, Vec<Attachment>)>,
    /// A note the person gave with a rejection, sent as their next message.
    pub(crate) rejection_notes: Vec<String>,
    /// One of the agent's calls was rejected in the turn that runs.
    pub(crate) rejected_in_turn: bool,
}

/// A started agent and what it sends.
#[derive(Debug)]
pub(crate) struct Live {
    pub(crate) connection: AcpConnection,
    /// Taken while a prompt runs (the loop reads it), put back after.
    pub(crate) incoming: Option<UnboundedReceiver<FromAgent>>,
}

/// One of the agent's tool calls, as its card knows it.
#[derive(Debug, Clone, Default)]
pub(crate) struct AgentCall {
    pub(crate) card: String,
    /// The checkpoint taken when the agent reported it (what it changed is measured from).
    pub(crate) before: Option<String>,
    /// That checkpoint was taken, or is not needed (a read).
    pub(crate) measured: bool,
    /// Its arguments as last shown.
    pub(crate) raw_input: serde_json::Value,
    /// What it said it does (its diffs), as last reported: an agent such as Codex sends the
    /// diff with the call and asks for permission without it.
    pub(crate) content: Vec<ToolCallContent>,
    pub(crate) ended: bool,
}

/// A terminal the agent asked for: its command ran as a call of Foreman's command tool.
#[derive(Debug, Clone)]
pub(crate) struct Terminal {
    pub(crate) output: String,
    pub(crate) truncated: bool,
    pub(crate) exit_code: Option<i32>,
    pub(crate) signal: Option<String>,
}

impl SessionAgent {
    /// Keeps the person's message for the external agent (Foreman's own loop reads the
    /// history instead).
    pub(crate) fn keep_prompt(&mut self, text: &str, attachments: &[Attachment]) {
        if let Self::External(external) = self {
            external.prompt = Some((text.to_owned(), attachments.to_vec()));
        }
    }

    pub(crate) fn is_external(&self) -> bool {
        matches!(self, Self::External(_))
    }
}

impl External {
    pub(crate) fn new(spec: AgentSpec) -> Self {
        Self {
            spec,
            live: None,
            acp_session: None,
            capabilities: AgentCapabilities::default(),
            modes: None,
            config_options: Vec::new(),
            commands: Vec::new(),
            chosen: Vec::new(),
            early: std::collections::VecDeque::new(),
            calls: HashMap::new(),
            terminals: HashMap::new(),
            next_id: 0,
            prompt: None,
            rejection_notes: Vec::new(),
            rejected_in_turn: false,
        }
    }

    /// A fresh id for something Foreman makes for the agent (`prefix-N`).
    pub(crate) fn fresh_id(&mut self, prefix: &str) -> String {
        self.next_id += 1;
        format!("{prefix}-{}", self.next_id)
    }
}
