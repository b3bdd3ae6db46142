//! What each running session is doing, for the sidebar's badges: whether a task runs and how
//! many calls wait for the user's approval. The event pump folds every event it carries into
//! its session's [`Activity`]; `list_sessions` reads them.

use std::collections::HashSet;

use foreman_protocol::records::SessionActivity;
use foreman_protocol::{CallState, EventMsg};

/// A running session's activity, kept from its events.
#[derive(Debug, Default)]
pub struct Activity {
    running: bool,
    waiting: HashSet<String>,
}

impl Activity {
    /// Takes in what `msg` says about the task and the approvals that wait.
    pub fn apply(&mut self, msg: &EventMsg) {
        match msg {
            EventMsg::TaskStarted => self.running = true,
            EventMsg::TaskEnded { .. } => {
                self.running = false;
                self.waiting.clear();
            }
            EventMsg::ApprovalRequested { call_id, .. } => {
                self.waiting.insert(call_id.clone());
            }
            EventMsg::ToolCallUpdated {
                call_id,
                state: Some(state),
                ..
            } if *state != CallState::AwaitingApproval => {
                self.waiting.remove(call_id);
            }
            EventMsg::ToolCallFinished { call_id, .. } => {
                self.waiting.remove(call_id);
            }
            EventMsg::Snapshot { running, calls, .. } => {
                self.running = *running;
                self.waiting = calls
                    .iter()
                    .filter(|c| c.state == CallState::AwaitingApproval)
                    .map(|c| c.call_id.clone())
                    .collect();
            }
            _ => {}
        }
    }

    /// The activity as the sidebar shows it.
    pub fn view(&self) -> SessionActivity {
        SessionActivity {
            running: self.running,
            waiting: u32::try_from(self.waiting.len()).unwrap_or(u32::MAX),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finished(id: &str) -> EventMsg {
        EventMsg::ToolCallFinished {
            call_id: id.into(),
            state: CallState::Succeeded,
            result: String::new(),
            is_error: false,
            error: None,
            summary: None,
            decision: None,
        }
    }

    #[test]
    fn a_task_runs_and_its_approvals_wait_until_answered() {
        let mut a = Activity::default();
        assert_eq!(a.view(), SessionActivity::default());
        a.apply(&EventMsg::TaskStarted);
        let asked: EventMsg = serde_json::from_value(serde_json::json!({
            "type": "approval_requested", "call_id": "c1", "tool": "write", "reason": "ask",
            "preview_hash": "h", "preview": null, "suggested_rule": null
        }))
        .unwrap();
        a.apply(&asked);
        a.apply(&asked);
        assert_eq!(
            a.view(),
            SessionActivity {
                running: true,
                waiting: 1
            }
        );
        a.apply(&finished("c1"));
        assert_eq!(
            a.view(),
            SessionActivity {
                running: true,
                waiting: 0
            }
        );
        a.apply(&asked);
        a.apply(&EventMsg::TaskEnded {
            reason: foreman_protocol::TaskEndReason::Stopped,
        });
        assert_eq!(a.view(), SessionActivity::default());
    }
}
