//! Branching a stored session at one of the person's messages: a new session with everything
//! said before that message, so the person can write it again differently (or go another way)
//! while the original conversation stays as it was. Files are not touched: the changes the
//! agent made after that message stay on disk unless the person undoes them.

use std::collections::HashSet;

use thiserror::Error;

use super::history::now_ms;
use super::undo::is_undo_note;
use crate::protocol::CallState;
use crate::providers::Message;
use crate::store::{BranchSpec, SUMMARY_ROLE, SessionSummary, Store, StoreError};

/// Why a branch could not be made.
#[derive(Debug, Error)]
pub enum BranchError {
    #[error("That session no longer exists.")]
    NoSession,
    /// The message is not (yet) in the stored history, or its text differs from what the UI
    /// showed (the two disagree about which message was meant).
    #[error(
        "That message is not in the saved conversation (yet); wait until the agent has taken it, \
         then try again."
    )]
    NoMessage,
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// What the person's messages look like in a stored history: the text of each, with the
/// sequence number of the row it is in.
fn person_messages(messages: &[(i64, Message)]) -> Vec<(i64, &str)> {
    messages
        .iter()
        .filter_map(|(seq, message)| match message {
            Message::User { text } if !is_undo_note(text) => Some((*seq, text.as_str())),
            _ => None,
        })
        .collect()
}

/// Creates a branch of `session_id` that holds the conversation before the person's message
/// number `index` (0 is the first, counted as the transcript shows them), whose text must be
/// `text`. The branch has the calls made before that point (their cards, results and undo
/// checkpoints) and the task list as it stood; the original session is not changed.
pub async fn branch_before_message(
    store: &Store,
    session_id: &str,
    index: usize,
    text: &str,
) -> Result<SessionSummary, BranchError> {
    let Some(source) = store.session(session_id).await? else {
        return Err(BranchError::NoSession);
    };
    let messages: Vec<(i64, Message)> = store
        .load_messages(session_id)
        .await?
        .into_iter()
        .filter(|m| m.role != SUMMARY_ROLE)
        .filter_map(|m| Some((m.seq, serde_json::from_value(m.content).ok()?)))
        .collect();
    let (before_seq, _) = person_messages(&messages)
        .get(index)
        .copied()
        .filter(|(_, said)| *said == text)
        .ok_or(BranchError::NoMessage)?;

    // The calls of the copied messages, in order, then the sub-agents' calls under them.
    let mut call_ids: Vec<String> = messages
        .iter()
        .take_while(|(seq, _)| *seq < before_seq)
        .flat_map(|(_, message)| match message {
            Message::Assistant { tool_calls, .. } => {
                tool_calls.iter().map(|c| c.id.clone()).collect()
            }
            _ => Vec::new(),
        })
        .collect();
    let stored = store.load_tool_calls(session_id).await?;
    let top_level = call_ids.len();
    let mut copied: HashSet<String> = call_ids.iter().cloned().collect();
    loop {
        let before = call_ids.len();
        for call in &stored {
            let parent = call.info.get("parent_call_id").and_then(|p| p.as_str());
            if parent.is_some_and(|p| copied.contains(p)) && copied.insert(call.call_id.clone()) {
                call_ids.push(call.call_id.clone());
            }
        }
        if call_ids.len() == before {
            break;
        }
    }

    // The task list the last successful `todo_write` before the branch point set.
    let succeeded = serde_json::to_value(CallState::Succeeded).ok();
    let todos = call_ids[..top_level]
        .iter()
        .rev()
        .filter_map(|id| stored.iter().find(|c| &c.call_id == id))
        .find(|c| c.name == "todo_write" && Some(&c.info["state"]) == succeeded.as_ref())
        .and_then(|c| c.info["arguments"].get("todos").cloned())
        .unwrap_or_else(|| serde_json::json!([]));

    // A branch made at the first message has no title yet: its first message names it. Others
    // are named after the source, marked at the front (where a cut-off title still shows it).
    let title = if before_seq_is_first(&messages, before_seq) {
        String::new()
    } else if source.title.is_empty() {
        "Branch".to_owned()
    } else {
        format!("↳ {}", source.title)
    };
    let spec = BranchSpec {
        before_seq,
        call_ids: &call_ids,
        title: &title,
        todos_json: &todos.to_string(),
    };
    store
        .branch_session(session_id, &spec, now_ms())
        .await?
        .ok_or(BranchError::NoSession)
}

/// True when nothing was said before the message at `seq`.
fn before_seq_is_first(messages: &[(i64, Message)], seq: i64) -> bool {
    messages.first().is_none_or(|(first, _)| *first >= seq)
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;
    use crate::protocol::CallSnapshot;
    use crate::providers::ToolCall;
    use crate::session::transcript::{TranscriptItem, load_transcript};

    async fn record(store: &Store, session: &str, message: &Message) {
        let role = match message {
            Message::User { .. } => "user",
            Message::Assistant { .. } => "assistant",
            Message::ToolResult(_) => "tool_result",
        };
        let content = serde_json::to_value(message).unwrap();
        store
            .append_message(session, role, &content, None, 1)
            .await
            .unwrap();
    }

    fn assistant_calling(id: &str, name: &str, arguments: Value) -> Message {
        Message::Assistant {
            text: String::new(),
            tool_calls: vec![ToolCall {
                id: id.into(),
                name: name.into(),
                arguments,
            }],
            thinking: vec![],
        }
    }

    async fn save_call(store: &Store, session: &str, id: &str, name: &str, info: Value) {
        store
            .save_tool_call(session, id, name, "succeeded", &info, 1)
            .await
            .unwrap();
    }

    fn texts(items: &[TranscriptItem]) -> Vec<String> {
        items
            .iter()
            .map(|item| match item {
                TranscriptItem::User { text } => format!("user: {text}"),
                TranscriptItem::Assistant { text } => format!("assistant: {text}"),
                TranscriptItem::Tool { call } => format!("tool: {}", call.call_id),
            })
            .collect()
    }

    /// Two requests of the person, each answered with a call; the first call started a
    /// sub-agent that made a call of its own, and an undo note sits between them.
    async fn two_requests(store: &Store) -> String {
        let s = store.create_session("/ws", 1).await.unwrap();
        store.rename_session(&s.id, "Plan the work").await.unwrap();
        let todos = json!({"todos": [{"id": "1", "content": "read", "status": "in_progress"}]});
        let conversation = [
            Message::user("plan the work"),
            assistant_calling("t1", "todo_write", todos.clone()),
            Message::tool_result("t1", "1 task", false),
            assistant_calling("n1", "new_task", json!({"prompt": "look"})),
            Message::tool_result("n1", "looked", false),
            Message::user("I undid the change call w0 made to `a.rs`: the file has its content."),
            Message::assistant("Planned."),
            Message::user("now write it"),
            assistant_calling("w1", "write", json!({"path": "a.rs", "content": "x"})),
            Message::tool_result("w1", "wrote", false),
        ];
        for message in &conversation {
            record(store, &s.id, message).await;
        }
        let snapshot = |id: &str, name: &str, arguments: Value, parent: Option<&str>| {
            serde_json::to_value(CallSnapshot {
                call_id: id.into(),
                name: name.into(),
                state: CallState::Succeeded,
                arguments,
                preview: None,
                preview_hash: None,
                status: None,
                result: Some("done".into()),
                is_error: false,
                images: None,
                parent_call_id: parent.map(str::to_owned),
                undo: None,
            })
            .unwrap()
        };
        save_call(
            store,
            &s.id,
            "t1",
            "todo_write",
            snapshot("t1", "todo_write", todos, None),
        )
        .await;
        save_call(
            store,
            &s.id,
            "n1",
            "new_task",
            snapshot("n1", "new_task", json!({}), None),
        )
        .await;
        let child = snapshot("r1", "read_file", json!({"path": "a.rs"}), Some("n1"));
        save_call(store, &s.id, "r1", "read_file", child).await;
        let write = snapshot("w1", "write", json!({"path": "a.rs"}), None);
        save_call(store, &s.id, "w1", "write", write).await;
        s.id
    }

    #[tokio::test]
    async fn a_branch_holds_what_was_said_before_the_message() {
        let store = Store::open_in_memory().await.unwrap();
        let source = two_requests(&store).await;
        let before = load_transcript(&store, &source).await.unwrap();

        let branch = branch_before_message(&store, &source, 1, "now write it")
            .await
            .unwrap();
        assert_eq!(branch.title, "↳ Plan the work");
        let transcript = load_transcript(&store, &branch.id).await.unwrap();
        assert_eq!(
            texts(&transcript.items),
            [
                "user: plan the work",
                "tool: t1",
                "tool: n1",
                "tool: r1",
                "assistant: Planned."
            ]
        );
        assert_eq!(
            transcript.todos,
            json!([{"id": "1", "content": "read", "status": "in_progress"}])
        );
        // The original is as it was.
        assert_eq!(load_transcript(&store, &source).await.unwrap(), before);
        // The branch resumes with the copied history, and the cut is at a turn boundary.
        let history = crate::session::history::load_for_resume(&store, &branch.id)
            .await
            .unwrap();
        assert_eq!(history.len(), 7);
        assert!(matches!(history.last(), Some(Message::Assistant { .. })));
    }

    #[tokio::test]
    async fn a_branch_at_the_first_message_is_empty_and_untitled() {
        let store = Store::open_in_memory().await.unwrap();
        let source = two_requests(&store).await;
        let branch = branch_before_message(&store, &source, 0, "plan the work")
            .await
            .unwrap();
        assert_eq!(branch.title, "");
        let transcript = load_transcript(&store, &branch.id).await.unwrap();
        assert!(transcript.items.is_empty());
        assert_eq!(transcript.todos, json!([]));
    }

    #[tokio::test]
    async fn a_message_that_is_not_stored_is_refused() {
        let store = Store::open_in_memory().await.unwrap();
        let source = two_requests(&store).await;
        for (index, text) in [
            (2, "a third"),
            (1, "not what was said"),
            (0, "now write it"),
        ] {
            let refused = branch_before_message(&store, &source, index, text).await;
            assert!(
                matches!(refused, Err(BranchError::NoMessage)),
                "{index} {text}"
            );
        }
        let missing = branch_before_message(&store, "nope", 0, "x").await;
        assert!(matches!(missing, Err(BranchError::NoSession)));
        assert_eq!(store.list_sessions("/ws").await.unwrap().len(), 1);
    }
}
