//! What an external agent sends between its turns: the settings and commands it lists (Claude
//! Code sends its commands just after the session opens) are shown at once; anything else is
//! kept for its next turn, which reads it first; an agent that ended is marked so, and the next
//! message starts it again.

use std::collections::VecDeque;

use super::state::SessionAgent;
use crate::acp::FromAgent;
use crate::agent::engine::Engine;

/// The updates shown between turns.
const SHOWN_AT_ONCE: &[&str] = &[
    "config_option_update",
    "available_commands_update",
    "current_mode_update",
];

/// The next message of an agent that is running and between turns; never, for any other.
pub(crate) async fn idle_message(agent: &mut SessionAgent) -> FromAgent {
    let SessionAgent::External(external) = agent else {
        return std::future::pending().await;
    };
    let Some(incoming) = external.live.as_mut().and_then(|l| l.incoming.as_mut()) else {
        return std::future::pending().await;
    };
    match incoming.recv().await {
        Some(message) => message,
        None => FromAgent::Exited(crate::acp::AcpError::Exited {
            code: None,
            signal: None,
            stderr: String::new(),
        }),
    }
}

impl Engine {
    /// Takes what the agent sent between turns (from [`idle_message`]).
    pub(crate) async fn agent_between_turns(&mut self, message: FromAgent) {
        match message {
            FromAgent::Notification { method, params }
                if method == "session/update"
                    && params
                        .pointer("/update/sessionUpdate")
                        .and_then(serde_json::Value::as_str)
                        .is_some_and(|kind| SHOWN_AT_ONCE.contains(&kind)) =>
            {
                self.agent_notification(&method, params, &mut String::new())
                    .await;
            }
            FromAgent::Exited(error) => {
                if let SessionAgent::External(external) = &mut self.agent {
                    tracing::info!(agent = %external.spec.name, %error, "the agent ended between turns");
                    external.live = None;
                }
            }
            other => {
                if let SessionAgent::External(external) = &mut self.agent {
                    external.early.push_back(other);
                }
            }
        }
    }

    /// What the agent sent between turns and was kept for this one.
    pub(crate) fn take_early(&mut self) -> VecDeque<FromAgent> {
        match &mut self.agent {
            SessionAgent::External(external) => std::mem::take(&mut external.early),
            SessionAgent::Foreman => VecDeque::new(),
        }
    }
}
