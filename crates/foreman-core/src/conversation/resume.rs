//! Opening a stored session to run it again, and repairing what a crash left open.
//!
//! The agent stores each history message in its own transaction and a tool call when it is
//! created, starts executing and finishes, so a process killed at any
//! moment leaves every unfinished call visible. On resume, [`load_for_resume`] marks those calls
//! `interrupted` and gives every call in history without a result exactly one: the stored
//! result when the call finished before the crash, or an "interrupted" note for the model.
//! Messages a compaction summarised are left out: a resumed session continues from the summary.

use std::collections::{HashMap, HashSet};

use serde_json::Value;

use crate::protocol::CallSnapshot;
use crate::providers::Message;
use crate::store::{Store, StoreError, now_ms};

pub(crate) fn role(message: &Message) -> &'static str {
    match message {
        Message::User { .. } => "user",
        Message::Assistant { .. } => "assistant",
        Message::ToolResult(_) => "tool_result",
    }
}

/// The result the model gets for a call that a crash interrupted.
pub fn interrupted_text(state: &str) -> String {
    format!(
        "Interrupted: Foreman stopped while this call was {state}; it may or may not have taken \
         effect. Check the current state before repeating it."
    )
}

/// Loads a session's history for resuming, repairing calls a crash left without a result.
/// Returns the history (with the repairs appended and persisted).
pub async fn load_for_resume(store: &Store, session_id: &str) -> Result<Vec<Message>, StoreError> {
    let now = now_ms();
    let interrupted = store.interrupt_unfinished_calls(session_id, now).await?;
    let interrupted_states: HashMap<String, String> = interrupted
        .into_iter()
        .map(|c| (c.call_id, c.state))
        .collect();
    let stored_calls: HashMap<String, Value> = store
        .load_tool_calls(session_id)
        .await?
        .into_iter()
        .map(|c| (c.call_id, c.info))
        .collect();
    let mut history: Vec<Message> = Vec::new();
    for stored in store.load_messages(session_id).await? {
        if stored.compacted {
            // Replaced by a summary that comes later in the stored order.
            continue;
        }
        match serde_json::from_value::<Message>(stored.content) {
            Ok(m) => history.push(m),
            Err(e) => {
                return Err(StoreError::Corrupt {
                    path: store.path().to_path_buf(),
                    reason: format!("message {} of session {session_id}: {e}", stored.seq),
                });
            }
        }
    }
    let answered: HashSet<String> = history
        .iter()
        .filter_map(|m| match m {
            Message::ToolResult(r) => Some(r.call_id.clone()),
            _ => None,
        })
        .collect();
    let missing: Vec<String> = history
        .iter()
        .flat_map(|m| match m {
            Message::Assistant { tool_calls, .. } => {
                tool_calls.iter().map(|c| c.id.clone()).collect()
            }
            _ => Vec::new(),
        })
        .filter(|id| !answered.contains(id))
        .collect();
    for id in missing {
        let finished = stored_calls
            .get(&id)
            .and_then(|info| serde_json::from_value::<CallSnapshot>(info.clone()).ok())
            .filter(|c| {
                c.state.is_terminal() && c.result.is_some() && !interrupted_states.contains_key(&id)
            });
        let message = match finished {
            Some(call) => Message::tool_result(&id, call.result.unwrap_or_default(), call.is_error),
            None => {
                let state = interrupted_states
                    .get(&id)
                    .map_or("running", String::as_str);
                Message::tool_result(&id, interrupted_text(state), true)
            }
        };
        let content = serde_json::to_value(&message).unwrap_or(Value::Null);
        store
            .append_message(session_id, role(&message), &content, None, now)
            .await?;
        history.push(message);
    }
    Ok(history)
}

/// Opens a session for running: a new one in `workspace` (returns its id and an empty history),
/// or the existing `resume` id with its repaired history (`None` when there is no such session).
pub async fn open_session(
    store: &Store,
    workspace: &str,
    resume: Option<&str>,
) -> Result<Option<(String, Vec<Message>)>, StoreError> {
    match resume {
        None => Ok(Some((
            store.create_session(workspace, now_ms()).await?.id,
            Vec::new(),
        ))),
        Some(id) => {
            if store.session(id).await?.is_none() {
                return Ok(None);
            }
            Ok(Some((id.to_owned(), load_for_resume(store, id).await?)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::CallState;
    use crate::providers::ToolCall;
    use serde_json::json;

    #[tokio::test]
    async fn resume_gives_every_open_call_exactly_one_result() {
        let store = Store::open_in_memory().await.unwrap();
        let s = store.create_session("/w", 1).await.unwrap();
        let assistant = Message::Assistant {
            text: String::new(),
            thinking: Vec::new(),
            tool_calls: vec![
                ToolCall {
                    id: "done".into(),
                    name: "write".into(),
                    arguments: json!({}),
                },
                ToolCall {
                    id: "running".into(),
                    name: "bash".into(),
                    arguments: json!({}),
                },
            ],
        };
        for m in [Message::user("go"), assistant] {
            store
                .append_message(&s.id, role(&m), &serde_json::to_value(&m).unwrap(), None, 2)
                .await
                .unwrap();
        }
        let finished = CallSnapshot {
            call_id: "done".into(),
            name: "write".into(),
            state: CallState::Succeeded,
            arguments: json!({}),
            preview: None,
            preview_hash: None,
            status: None,
            result: Some("Wrote a.txt".into()),
            is_error: false,
            decision: None,
            images: None,
            parent_call_id: None,
            undo: None,
            kind: Default::default(),
            view: Default::default(),
            title: None,
            summary: None,
            error: None,
            sandbox: None,
            changes: None,
            hooks: Vec::new(),
        };
        let running = CallSnapshot {
            call_id: "running".into(),
            name: "bash".into(),
            state: CallState::Executing,
            result: None,
            ..finished.clone()
        };
        for c in [&finished, &running] {
            let state = serde_json::to_value(c.state).unwrap();
            store
                .save_tool_call(
                    &s.id,
                    &c.call_id,
                    &c.name,
                    state.as_str().unwrap(),
                    &serde_json::to_value(c).unwrap(),
                    3,
                )
                .await
                .unwrap();
        }
        let history = load_for_resume(&store, &s.id).await.unwrap();
        assert_eq!(history.len(), 4);
        assert_eq!(
            history[2],
            Message::tool_result("done", "Wrote a.txt", false)
        );
        assert_eq!(
            history[3],
            Message::tool_result("running", interrupted_text("executing"), true)
        );
        // A second resume adds nothing: every call has its result.
        let again = load_for_resume(&store, &s.id).await.unwrap();
        assert_eq!(again, history);
        let calls = store.load_tool_calls(&s.id).await.unwrap();
        assert!(
            calls
                .iter()
                .any(|c| c.call_id == "running" && c.state == "interrupted")
        );
    }
}
