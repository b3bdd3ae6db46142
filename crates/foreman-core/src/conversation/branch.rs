//! Branching a stored session at one of the user's messages: a new session with everything
//! said before that message, so the user can write it again differently (or go another way)
//! while the original conversation stays as it was. Files are not touched: the changes the
//! agent made after that message stay on disk unless the user undoes them.

use std::collections::HashSet;

use thiserror::Error;

use super::notes::is_model_note;
use super::notes::{partly_undone_note, undone_note};
use crate::protocol::CallState;
use crate::providers::Message;
use crate::store::now_ms;
use crate::store::{
    BranchOutcome, BranchSpec, SUMMARY_ROLE, SessionSummary, Store, StoreError, StoredToolCall,
};

/// Why a branch could not be made.
#[derive(Debug, Error)]
pub enum BranchError {
    #[error("That session no longer exists.")]
    NoSession,
    /// The message is not in the stored history yet (it waits for the agent's turn to end).
    #[error(
        "That message is not in the saved conversation yet; wait until the agent has taken it, \
         then try again."
    )]
    NotStored,
    /// The stored message at that place has another text: the window and the store disagree.
    #[error(
        "That message could not be found in the saved conversation; reopen the session and try \
         again."
    )]
    NotFound,
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// How often a branch is tried again when a compaction renumbered the messages meanwhile.
const ATTEMPTS: usize = 3;

/// The user's messages in a stored history (not the engine's notes to the model): the sequence
/// number of each and its text.
fn user_messages(messages: &[(i64, Message)]) -> Vec<(i64, &str)> {
    messages
        .iter()
        .filter_map(|(seq, message)| match message {
            Message::User { text, .. } if !is_model_note(text) => Some((*seq, text.as_str())),
            _ => None,
        })
        .collect()
}

/// Creates a branch of `session_id` that holds the conversation as it was when the user sent
/// their message number `index` (0 is the first, counted as the transcript shows them), whose
/// text must be `text`. The branch has the calls made before that point (their cards, results
/// and undo checkpoints) and the task list as it stood; its model is told of changes among them
/// undone since. The original session and the files are not changed.
pub async fn branch_before_message(
    store: &Store,
    session_id: &str,
    index: usize,
    text: &str,
) -> Result<SessionSummary, BranchError> {
    for _ in 0..ATTEMPTS {
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
        let (before_seq, said) = user_messages(&messages)
            .get(index)
            .copied()
            .ok_or(BranchError::NotStored)?;
        if said != text {
            return Err(BranchError::NotFound);
        }
        let stored = store.load_tool_calls(session_id).await?;
        let call_ids = copied_calls(&messages, before_seq, &stored);
        // A branch made at the first message has no title yet: its first message names it.
        // Others are named after the source, marked at the front (where a cut-off title still
        // shows it).
        let title = if messages
            .first()
            .is_none_or(|(first, _)| *first >= before_seq)
        {
            String::new()
        } else if source.title.is_empty() {
            "↳ Branch".to_owned()
        } else {
            format!("↳ {}", source.title)
        };
        let spec = BranchSpec {
            before_seq,
            message_text: text,
            call_ids: &call_ids,
            title: &title,
            todos_json: &task_list(&stored, &call_ids).to_string(),
        };
        match store.branch_session(session_id, &spec, now_ms()).await? {
            BranchOutcome::Created {
                session,
                undone_since,
            } => {
                if undone_since.is_empty() {
                    return Ok(session);
                }
                // Tell the branch's model, as the source's was told after the branch point.
                let note = undone_since
                    .iter()
                    .map(|u| match u.partly {
                        true => partly_undone_note(&u.call_id, &u.path),
                        false => undone_note(&u.call_id, &u.path),
                    })
                    .collect::<Vec<_>>()
                    .join("\n");
                let content = serde_json::to_value(Message::user(note)).unwrap_or_default();
                if let Err(e) = store
                    .append_message(&session.id, "user", &content, None, now_ms())
                    .await
                {
                    // A branch whose model would not know is worse than none.
                    store.delete_session(&session.id).await?;
                    return Err(e.into());
                }
                return Ok(session);
            }
            BranchOutcome::NoSession => return Err(BranchError::NoSession),
            // A compaction renumbered the messages between the read and the copy: read again.
            BranchOutcome::MessageMoved => {}
        }
    }
    Err(BranchError::NotFound)
}

/// The calls of the messages before `before_seq`, in order, then the sub-agents' calls under
/// them (found through their `parent_call_id`).
fn copied_calls(
    messages: &[(i64, Message)],
    before_seq: i64,
    stored: &[StoredToolCall],
) -> Vec<String> {
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
    let mut copied: HashSet<String> = call_ids.iter().cloned().collect();
    loop {
        let before = call_ids.len();
        for call in stored {
            let parent = call.info.get("parent_call_id").and_then(|p| p.as_str());
            if parent.is_some_and(|p| copied.contains(p)) && copied.insert(call.call_id.clone()) {
                call_ids.push(call.call_id.clone());
            }
        }
        if call_ids.len() == before {
            return call_ids;
        }
    }
}

/// The task list the last successful `todo_write` among `call_ids` set (a sub-agent's too, as
/// the session stores those), or an empty one.
fn task_list(stored: &[StoredToolCall], call_ids: &[String]) -> serde_json::Value {
    let copied: HashSet<&str> = call_ids.iter().map(String::as_str).collect();
    let succeeded = serde_json::to_value(CallState::Succeeded).ok();
    stored
        .iter()
        .rev()
        .filter(|c| copied.contains(c.call_id.as_str()) && c.name == "todo_write")
        .find(|c| c.info.get("state") == succeeded.as_ref())
        .and_then(|c| c.info.get("arguments")?.get("todos").cloned())
        .unwrap_or_else(|| serde_json::json!([]))
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;
    use crate::conversation::notes::is_undo_note;
    use crate::conversation::transcript::{TranscriptItem, load_transcript};
    use crate::protocol::{CallSnapshot, TaskEndReason};
    use crate::providers::ToolCall;

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
                TranscriptItem::User { text, .. } => format!("user: {text}"),
                TranscriptItem::Assistant { text } => format!("assistant: {text}"),
                TranscriptItem::Tool { call } => format!("tool: {}", call.call_id),
                TranscriptItem::TaskEnded { reason } => format!("ended: {}", reason.describe()),
                TranscriptItem::Compacted { .. } => "compacted".into(),
                TranscriptItem::Hook { run } => format!("hook: {}", run.command),
                TranscriptItem::Rewound { .. } => "rewound".into(),
            })
            .collect()
    }

    /// A stored call's snapshot, finished.
    fn snapshot(id: &str, name: &str, arguments: Value, parent: Option<&str>) -> Value {
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
            decision: None,
            images: None,
            parent_call_id: parent.map(str::to_owned),
            undo: None,
            kind: Default::default(),
            view: Default::default(),
            title: None,
            summary: None,
            error: None,
            sandbox: None,
            changes: None,
            hooks: Vec::new(),
        })
        .unwrap()
    }

    /// Two requests of the user, each answered with a call; the first call started a
    /// sub-agent that made a call of its own, and an undo note sits between them. The first
    /// task was stopped, the second failed.
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
            if *message == Message::user("now write it") {
                let reason = TaskEndReason::Cancelled;
                let stopped = serde_json::to_value(TranscriptItem::TaskEnded { reason }).unwrap();
                store.record_notice(&s.id, &stopped, 1).await.unwrap();
            }
            record(store, &s.id, message).await;
        }
        let failed = TaskEndReason::Error {
            message: "dropped".into(),
            retryable: true,
        };
        let failed = serde_json::to_value(TranscriptItem::TaskEnded { reason: failed }).unwrap();
        store.record_notice(&s.id, &failed, 2).await.unwrap();
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
                "assistant: Planned.",
                "ended: task cancelled"
            ]
        );
        assert_eq!(
            transcript.todos,
            json!([{"id": "1", "content": "read", "status": "in_progress"}])
        );
        // The original is as it was.
        assert_eq!(load_transcript(&store, &source).await.unwrap(), before);
        // The branch resumes with the copied history, and the cut is at a turn boundary.
        let history = crate::conversation::resume::load_for_resume(&store, &branch.id)
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
        let refused = branch_before_message(&store, &source, 2, "a third").await;
        assert!(matches!(refused, Err(BranchError::NotStored)));
        for (index, text) in [(1, "not what was said"), (0, "now write it")] {
            let refused = branch_before_message(&store, &source, index, text).await;
            assert!(
                matches!(refused, Err(BranchError::NotFound)),
                "{index} {text}"
            );
        }
        let missing = branch_before_message(&store, "nope", 0, "x").await;
        assert!(matches!(missing, Err(BranchError::NoSession)));
        assert_eq!(store.list_sessions("/ws").await.unwrap().len(), 1);
    }

    /// A branch of `session` before its user's message 1, "next", and the undo note its
    /// history ends with.
    async fn branch_with_note(store: &Store, session: &str) -> (SessionSummary, String) {
        let branch = branch_before_message(store, session, 1, "next")
            .await
            .unwrap();
        let history = crate::conversation::resume::load_for_resume(store, &branch.id)
            .await
            .unwrap();
        let Some(Message::User { text, .. }) = history.last() else {
            panic!("no note at the end: {history:?}");
        };
        assert!(is_undo_note(text), "{text}");
        (branch, text.clone())
    }

    #[tokio::test]
    async fn a_branch_is_told_of_changes_undone_after_its_point_and_takes_a_sub_agents_task_list() {
        let store = Store::open_in_memory().await.unwrap();
        let s = store.create_session("/ws", 1).await.unwrap();
        let todos =
            |what: &str| json!({"todos": [{"id": "1", "content": what, "status": "pending"}]});
        for message in [
            Message::user("write it"),
            assistant_calling("w0", "write", json!({"path": "a.rs", "content": "x"})),
            Message::tool_result("w0", "wrote", false),
            assistant_calling("n1", "new_task", json!({"prompt": "plan"})),
            Message::tool_result("n1", "planned", false),
            Message::user("next"),
        ] {
            record(&store, &s.id, &message).await;
        }
        for (id, name, arguments, parent, at) in [
            ("w0", "write", json!({"path": "a.rs"}), None, 1),
            ("n1", "new_task", json!({}), None, 2),
            ("z1", "todo_write", todos("top"), Some("n1"), 3),
            ("a2", "todo_write", todos("the sub-agent's"), Some("n1"), 4),
        ] {
            store
                .save_tool_call(
                    &s.id,
                    id,
                    name,
                    "succeeded",
                    &snapshot(id, name, arguments, parent),
                    at,
                )
                .await
                .unwrap();
        }
        let checkpoint = crate::store::Checkpoint {
            call_id: "w0".into(),
            path: "a.rs".into(),
            before: None,
            after_hash: [1; 32],
        };
        store
            .save_checkpoint(&s.id, &checkpoint, 10, 1)
            .await
            .unwrap();
        store.mark_undone(&s.id, "w0", 5).await.unwrap();

        let (branch, text) = branch_with_note(&store, &s.id).await;
        assert!(text.contains("call w0 made to `a.rs`"), "{text}");
        let transcript = load_transcript(&store, &branch.id).await.unwrap();
        assert_eq!(
            texts(&transcript.items),
            [
                "user: write it",
                "tool: w0",
                "tool: n1",
                "tool: z1",
                "tool: a2"
            ]
        );
        assert_eq!(transcript.todos, todos("the sub-agent's")["todos"]);
    }

    #[tokio::test]
    async fn a_branch_is_told_of_a_change_undone_in_part_after_its_point() {
        let store = Store::open_in_memory().await.unwrap();
        let s = store.create_session("/ws", 1).await.unwrap();
        for message in [
            Message::user("edit it"),
            assistant_calling("e1", "edit", json!({"path": "a.rs"})),
            Message::tool_result("e1", "edited", false),
            Message::user("next"),
        ] {
            record(&store, &s.id, &message).await;
        }
        store
            .save_tool_call(
                &s.id,
                "e1",
                "edit",
                "succeeded",
                &snapshot("e1", "edit", json!({"path": "a.rs"}), None),
                1,
            )
            .await
            .unwrap();
        let checkpoint = crate::store::Checkpoint {
            call_id: "e1".into(),
            path: "a.rs".into(),
            before: Some(b"old".to_vec()),
            after_hash: [1; 32],
        };
        store
            .save_checkpoint(&s.id, &checkpoint, 10, 1)
            .await
            .unwrap();
        store
            .set_checkpoint_after(&s.id, "e1", &[2; 32], &json!({"path": "a.rs"}), 5)
            .await
            .unwrap();

        let (_, text) = branch_with_note(&store, &s.id).await;
        assert!(
            text.contains("call e1 made to `a.rs` in part")
                && text.contains("the rest of the change stays"),
            "{text}"
        );
    }
}
