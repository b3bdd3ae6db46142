//! A stored session as the user saw it: their messages, the assistant's answers and the tool
//! calls with their final state, rebuilt from the store for a UI that opens an old session.

use crate::providers::Attachment;
use std::collections::HashMap;

use super::notes::is_model_note;
use crate::protocol::CallSnapshot;
use crate::providers::Message;
use crate::store::{Store, StoreError};
pub use foreman_protocol::transcript::{Transcript, TranscriptItem};

/// Loads `session_id` for display. Calls the store does not know (older sessions) are shown from
/// the history alone.
pub async fn load_transcript(store: &Store, session_id: &str) -> Result<Transcript, StoreError> {
    let messages = store.load_messages(session_id).await?;
    let mut calls: HashMap<String, CallSnapshot> = HashMap::new();
    // The calls of sub-agents, by their `new_task` call, in the order they were made.
    let mut children: HashMap<String, Vec<CallSnapshot>> = HashMap::new();
    for stored in store.load_tool_calls(session_id).await? {
        let Ok(snapshot) = serde_json::from_value::<CallSnapshot>(stored.info) else {
            continue;
        };
        match &snapshot.parent_call_id {
            Some(parent) => children.entry(parent.clone()).or_default().push(snapshot),
            None => {
                calls.insert(stored.call_id, snapshot);
            }
        }
    }
    let mut results: HashMap<String, (String, bool)> = HashMap::new();
    // The user sees the conversation as it happened, compacted messages included; the
    // summaries written for the model are not part of it.
    let parsed: Vec<(i64, Message)> = messages
        .into_iter()
        .filter(|m| m.role != crate::store::SUMMARY_ROLE)
        .filter_map(|m| Some((m.seq, serde_json::from_value(m.content).ok()?)))
        .collect();
    // Each after the message it followed; one this version cannot read is left out.
    let mut notices = store
        .load_notices(session_id)
        .await?
        .into_iter()
        .filter_map(|notice| {
            let item: TranscriptItem = serde_json::from_value(notice.body).ok()?;
            Some((notice.after_seq, item)).filter(|(_, item)| item.is_notice())
        })
        .peekable();
    for (_, message) in &parsed {
        if let Message::ToolResult(result) = message {
            results.insert(
                result.call_id.clone(),
                (result.content.clone(), result.is_error),
            );
        }
    }
    let mut items = Vec::new();
    for (seq, message) in parsed {
        while let Some((_, notice)) = notices.next_if(|(after, _)| *after < seq) {
            items.push(notice);
        }
        match message {
            // The cards show an undone change and the error before a retry; the model's notes
            // about them are not messages of the user.
            Message::User { text, .. } if is_model_note(&text) => {}
            Message::User { text, attachments } => items.push(TranscriptItem::User {
                text,
                attachments: attachments.iter().map(Attachment::view).collect(),
            }),
            Message::Assistant {
                text, tool_calls, ..
            } => {
                if !text.is_empty() {
                    items.push(TranscriptItem::Assistant { text });
                }
                for call in tool_calls {
                    let mut snapshot = calls.remove(&call.id).unwrap_or_else(|| CallSnapshot {
                        call_id: call.id.clone(),
                        name: call.name.clone(),
                        state: crate::protocol::CallState::Interrupted,
                        arguments: call.arguments.clone(),
                        preview: None,
                        preview_hash: None,
                        status: None,
                        result: None,
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
                    });
                    if let Some((content, is_error)) = results.get(&call.id) {
                        snapshot.result = Some(content.clone());
                        snapshot.is_error = *is_error;
                    }
                    if snapshot.arguments.is_null() {
                        snapshot.arguments = call.arguments;
                    }
                    let id = snapshot.call_id.clone();
                    items.push(TranscriptItem::Tool {
                        call: Box::new(snapshot),
                    });
                    push_children(&mut items, &mut children, &id);
                }
            }
            Message::ToolResult(_) => {}
        }
    }
    items.extend(notices.map(|(_, notice)| notice));
    let todos = store
        .todos(session_id)
        .await
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or(serde_json::Value::Array(Vec::new()));
    let usage = store.session_usage(session_id).await?;
    Ok(Transcript {
        session_id: session_id.to_owned(),
        items,
        todos,
        usage,
    })
}

/// Appends the calls a sub-agent made for `parent` (each with its `parent_call_id`, so a UI nests
/// them), each followed by its own children.
fn push_children(
    items: &mut Vec<TranscriptItem>,
    children: &mut HashMap<String, Vec<CallSnapshot>>,
    parent: &str,
) {
    for call in children.remove(parent).unwrap_or_default() {
        let id = call.call_id.clone();
        items.push(TranscriptItem::Tool {
            call: Box::new(call),
        });
        push_children(items, children, &id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::{CallState, TaskEndReason};
    use crate::providers::ToolCall;
    use serde_json::json;

    #[tokio::test]
    async fn a_stored_session_reads_back_in_order_with_call_results() {
        let store = Store::open_in_memory().await.unwrap();
        let s = store.create_session("/w", 1).await.unwrap();
        let history = [
            Message::user("fix it"),
            Message::assistant_with_calls(
                "Reading first.",
                vec![ToolCall {
                    id: "c1".into(),
                    name: "read".into(),
                    arguments: json!({"path": "a.rs"}),
                }],
            ),
            Message::tool_result("c1", "1\tfn main() {}", false),
            Message::assistant("Done."),
            Message::user("I undid the change call c0 made to `a.rs`: the file has its content."),
            Message::user(crate::conversation::notes::RETRY_NOTE),
        ];
        for (i, m) in history.iter().enumerate() {
            let role = match m {
                Message::User { .. } => "user",
                Message::Assistant { .. } => "assistant",
                Message::ToolResult(_) => "tool",
            };
            store
                .append_message(
                    &s.id,
                    role,
                    &serde_json::to_value(m).unwrap(),
                    None,
                    i as i64,
                )
                .await
                .unwrap();
        }
        let info = json!({"call_id": "c1", "name": "read", "state": "succeeded",
            "arguments": {"path": "a.rs"}, "preview": null, "preview_hash": null,
            "status": "Read a.rs", "result": "1\tfn main() {}", "is_error": false});
        store
            .save_tool_call(&s.id, "c1", "read", "succeeded", &info, 5)
            .await
            .unwrap();
        let t = load_transcript(&store, &s.id).await.unwrap();
        // The engine's notes to the model (an undo, a retry) are not messages of the user.
        assert_eq!(t.items.len(), 4);
        assert_eq!(t.user_messages(), 1);
        assert_eq!(
            t.items[0],
            TranscriptItem::User {
                text: "fix it".into(),
                attachments: Vec::new(),
            }
        );
        let TranscriptItem::Tool { call } = &t.items[2] else {
            panic!("{:?}", t.items[2]);
        };
        assert_eq!(call.state, CallState::Succeeded);
        assert_eq!(call.status.as_deref(), Some("Read a.rs"));
        assert_eq!(call.result.as_deref(), Some("1\tfn main() {}"));
        assert_eq!(
            t.items[3],
            TranscriptItem::Assistant {
                text: "Done.".into()
            }
        );
        assert_eq!(t.todos, json!([]));
    }

    #[tokio::test]
    async fn task_ends_and_compactions_show_after_the_message_they_followed() {
        let store = Store::open_in_memory().await.unwrap();
        let s = store.create_session("/w", 1).await.unwrap();
        let notice = |item: TranscriptItem| serde_json::to_value(item).unwrap();
        for (i, m) in [Message::user("first"), Message::assistant("The first half")]
            .iter()
            .enumerate()
        {
            let role = if i == 0 { "user" } else { "assistant" };
            let content = serde_json::to_value(m).unwrap();
            store
                .append_message(&s.id, role, &content, None, i as i64)
                .await
                .unwrap();
        }
        let dropped = TranscriptItem::TaskEnded {
            reason: TaskEndReason::Error {
                message: "dropped".into(),
                retryable: true,
            },
        };
        store
            .record_notice(&s.id, &notice(dropped.clone()), 3)
            .await
            .unwrap();
        let content = serde_json::to_value(Message::user("second")).unwrap();
        store
            .append_message(&s.id, "user", &content, None, 4)
            .await
            .unwrap();
        let compacted = TranscriptItem::Compacted {
            elided_outputs: 2,
            removed_messages: 0,
            tokens_before: 9000,
            tokens_after: 4000,
        };
        store
            .record_notice(&s.id, &notice(compacted.clone()), 5)
            .await
            .unwrap();
        // A stored line only ever says what the history does not: any other item is left out,
        // as is one this version cannot read.
        let user = notice(TranscriptItem::User {
            text: "x".into(),
            attachments: Vec::new(),
        });
        store.record_notice(&s.id, &user, 6).await.unwrap();
        let unknown = json!({"kind": "from_a_later_version"});
        store.record_notice(&s.id, &unknown, 6).await.unwrap();
        let stopped = TaskEndReason::Cancelled;
        let end = notice(TranscriptItem::TaskEnded { reason: stopped });
        store.record_notice(&s.id, &end, 7).await.unwrap();
        let t = load_transcript(&store, &s.id).await.unwrap();
        let kinds: Vec<String> = t
            .items
            .iter()
            .map(|item| match item {
                TranscriptItem::User { text, .. } | TranscriptItem::Assistant { text } => {
                    text.clone()
                }
                TranscriptItem::TaskEnded { reason } => reason.describe(),
                TranscriptItem::Tool { call } => call.name.clone(),
                TranscriptItem::Compacted { .. } => "compacted".into(),
                TranscriptItem::Hook { run } => run.command.clone(),
                TranscriptItem::Rewound { .. } => "rewound".into(),
            })
            .collect();
        assert_eq!(
            kinds,
            [
                "first",
                "The first half",
                "dropped",
                "second",
                "compacted",
                "task cancelled"
            ]
        );
        assert_eq!(t.items[2], dropped);
        assert_eq!(t.items[4], compacted);
        assert_eq!(t.user_messages(), 2);
    }

    #[tokio::test]
    async fn a_call_without_a_stored_state_shows_as_interrupted() {
        let store = Store::open_in_memory().await.unwrap();
        let s = store.create_session("/w", 1).await.unwrap();
        let m = Message::assistant_with_calls(
            "",
            vec![ToolCall {
                id: "c9".into(),
                name: "bash".into(),
                arguments: json!({"command": "ls"}),
            }],
        );
        store
            .append_message(
                &s.id,
                "assistant",
                &serde_json::to_value(&m).unwrap(),
                None,
                1,
            )
            .await
            .unwrap();
        let t = load_transcript(&store, &s.id).await.unwrap();
        let TranscriptItem::Tool { call } = &t.items[0] else {
            panic!()
        };
        assert_eq!(call.state, CallState::Interrupted);
        assert_eq!(call.arguments, json!({"command": "ls"}));
    }
}
