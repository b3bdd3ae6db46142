//! A message of the user that starts with `/name`: a built-in, a command or a skill
//! ([`crate::slash`]).
//!
//! - When the message arrives ([`Engine::user_input`]): `/compact` and `/retry` run their op; the
//!   client's own built-ins (`/clear`, `/model`, `/mode`) and a refused command (an unknown name,
//!   a missing argument) get an `error` event and the message back
//!   (`queued_messages_returned`); nothing reaches the model. A command or a skill is expanded.
//!   A command the session's external agent lists as its own, or one Foreman does not know
//!   in an external agent's session, goes to the agent as typed.
//! - When the model takes it ([`Engine::take_slash`], after the user's message as typed): a note
//!   with what it runs follows it in the history (a model note, so a reopened conversation shows
//!   `/review 42`, not the prompt), with the files its `@path` mentions attach. Its `model` runs
//!   the rest of the task; its `allowed-tools` limit the tools offered until the task ends
//!   ([`Engine::end_slash_task`] puts both back). The limit never approves a call.

use crate::agent::acp::state::SessionAgent;
use crate::agent::engine::Engine;
use crate::agent::llm::model_change::ModelChoice;
use crate::agent::task::state::UserInput;
use crate::conversation::notes::slash_note;
use crate::protocol::{AttachInput, EventMsg, Op, SlashKind};
use crate::providers::{Attachment, Message};
use crate::slash::builtins::BuiltIn;
use crate::slash::tool_names::ours_from_allowed;
use crate::slash::{Expanded, SlashError, expand};

/// The system tool every limited task keeps, so it can end.
const ALWAYS_OFFERED: &str = "attempt_completion";

impl Engine {
    /// The user's message as the engine takes it, or `None` when it ran a built-in or was
    /// refused (said with an `error` event, and the message given back).
    pub(crate) async fn user_input(
        &mut self,
        text: String,
        attach: Vec<AttachInput>,
    ) -> Option<UserInput> {
        // The external agent's own command goes to it as typed (its name wins over Foreman's).
        if let SessionAgent::External(external) = &self.agent
            && let Some(name) = text
                .strip_prefix('/')
                .and_then(|t| t.split_whitespace().next())
            && external.has_command(name)
        {
            return Some(UserInput {
                text,
                attach,
                slash: None,
            });
        }
        if let Some(builtin) = BuiltIn::parse(&text) {
            match (builtin.op(), self.task.running) {
                (Some(Op::Compact), false) => Box::pin(self.compact_on_request()).await,
                (Some(Op::Retry), false) => Box::pin(self.retry_task()).await,
                (Some(_), _) => self.refuse(
                    format!("/{} runs once the agent has finished.", builtin.name()),
                    text,
                    &attach,
                ),
                (None, _) => self.refuse(
                    format!(
                        "/{} is done by the app ({}); nothing was sent to the model.",
                        builtin.name(),
                        builtin.description().to_lowercase()
                    ),
                    text,
                    &attach,
                ),
            }
            return None;
        }
        let slash = match &self.tools.slash {
            Some(dirs) => match expand(&text, dirs) {
                Ok(slash) => slash,
                // One Foreman does not know may be the external agent's own (it may list its
                // commands after the message came): it goes to the agent as typed.
                Err(SlashError::Unknown { .. }) if self.agent.is_external() => None,
                Err(error) => {
                    self.refuse(error.to_string(), text, &attach);
                    return None;
                }
            },
            None => None,
        };
        Some(UserInput {
            text,
            attach,
            slash,
        })
    }

    /// Says why `text` was not sent and gives it back to the user.
    fn refuse(&mut self, message: String, text: String, attach: &[AttachInput]) {
        self.events.emit_session(EventMsg::Error { message });
        let images = attach
            .iter()
            .filter_map(|a| match a {
                AttachInput::Image(image) => Some(image.clone()),
                AttachInput::Path { .. } => None,
            })
            .collect();
        self.events.emit_session(EventMsg::QueuedMessagesReturned {
            texts: vec![text],
            images,
        });
    }

    /// After the user's `/name` message joined the history: what it runs, for the model, and
    /// the command's model and tools for the rest of the task.
    pub(crate) async fn take_slash(&mut self, input: &UserInput) {
        let Some(expanded) = &input.slash else {
            return;
        };
        let attachments: Vec<Attachment> = self
            .tools
            .files
            .attach(&expanded.attach, self.incoming.attach_max_file_bytes);
        let kind = match expanded.kind {
            SlashKind::Skill => "Skill",
            SlashKind::Command | SlashKind::BuiltIn | SlashKind::Agent => "Command",
        };
        let text = slash_note(kind, &expanded.name, &expanded.source, &expanded.text);
        self.record(Message::User { text, attachments }).await;
        self.limit_tools(expanded);
        if let Some(model) = &expanded.model
            && *model != self.llm.model
        {
            let previous = self.llm.model.clone();
            self.switch_model(model);
            if self.llm.model == *model {
                self.task
                    .slash
                    .model
                    .get_or_insert((previous, model.clone()));
            }
        }
    }

    /// Offers only the tools `expanded` allows (and `attempt_completion`), when it names some.
    fn limit_tools(&mut self, expanded: &Expanded) {
        if expanded.allowed_tools.is_empty() || self.frame.depth > 0 {
            return;
        }
        let allowed: Vec<String> = expanded
            .allowed_tools
            .iter()
            .filter_map(|entry| ours_from_allowed(entry))
            .chain([ALWAYS_OFFERED.to_owned()])
            .collect();
        let every = self
            .task
            .slash
            .definitions
            .get_or_insert_with(|| self.frame.definitions.clone())
            .clone();
        self.frame.definitions = every
            .into_iter()
            .filter(|d| allowed.contains(&d.name))
            .collect();
    }

    /// Uses `model` from the next request on, with the session's thinking settings.
    fn switch_model(&mut self, model: &str) {
        self.set_model(ModelChoice {
            model: model.to_owned(),
            context_window: None,
            thinking_budget: self.llm.limits.thinking_budget,
            reasoning_effort: self.llm.limits.reasoning_effort,
            max_tokens: None,
        });
    }

    /// Puts back what a command changed for the task that just ended: every tool, and the
    /// session's model (unless the user chose another meanwhile).
    pub(crate) fn end_slash_task(&mut self) {
        let changed = std::mem::take(&mut self.task.slash);
        if let Some(every) = changed.definitions {
            self.frame.definitions = every;
        }
        if let Some((previous, set)) = changed.model
            && self.llm.model == set
        {
            self.switch_model(&previous);
        }
    }
}
