//! Compaction: old outputs elided, older history summarised, a context-length error retried
//! once, a sub-agent's compaction apart from the session's history.

use foreman_core::conversation::open_session;
use foreman_core::conversation::{TranscriptItem, load_transcript};
use foreman_core::protocol::{ApprovalMode, EventMsg, Op, TaskEndReason};
use foreman_core::store::Store;
use foreman_core::testing::scripts::{call, text};
use foreman_core::testing::sse_server::ScriptedResponse;
use serde_json::{Value, json};

use super::common::*;

#[tokio::test]
async fn a_context_length_error_elides_old_outputs_and_retries_once() {
    let wire = Wire::Anthropic;
    let big = "q".repeat(5000);
    let responses = vec![
        ScriptedResponse::sse(body(wire, &[read("r1", "big.txt")])),
        ScriptedResponse::sse(body(wire, &[read("r2", "notes.txt")])),
        ScriptedResponse::sse(body(wire, &[read("r3", "notes.txt")])),
        ScriptedResponse::sse(body(wire, &[read("r4", "notes.txt")])),
        ScriptedResponse::json(
            400,
            r#"{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 210000 tokens > 200000 maximum"}}"#,
        ),
        ScriptedResponse::sse(body(wire, &done("d"))),
    ];
    let mut h = start_with(wire, responses, |c| c.approval_mode = ApprovalMode::Ask).await;
    std::fs::write(h.dir.path().join("big.txt"), &big).unwrap();
    h.say("go");
    assert!(h.end().await.is_success());
    assert!(
        h.seen
            .iter()
            .any(|e| matches!(e.msg, EventMsg::ContextCompacted { .. }))
    );
    let requests = h.server.requests();
    assert_eq!(requests.len(), 6);
    let failed = String::from_utf8_lossy(&requests[4].body).into_owned();
    let retried = String::from_utf8_lossy(&requests[5].body).into_owned();
    assert!(failed.contains(&big));
    assert!(!retried.contains(&big), "the old output was elided");
    assert!(retried.contains("elided to fit the context window"));
}

/// The session's system prompt in estimated tokens, so a test can size a tiny context window.
fn system_tokens(workspace: &std::path::Path) -> usize {
    use foreman_core::agent::context_window::estimate_conversation;
    use foreman_core::agent::prompt::{default_shell, system_prompt};
    estimate_conversation(&system_prompt(workspace, &default_shell(), None, &[]), &[])
}

const SUMMARY: &str = "Task: read the notes. Files: notes.txt read twice, unchanged.";

fn has_tools(request: &Value) -> bool {
    request
        .get("tools")
        .and_then(Value::as_array)
        .is_some_and(|t| !t.is_empty())
}

#[tokio::test]
async fn a_long_history_is_summarised_and_a_resumed_session_continues_from_it() {
    let store = Store::open_in_memory().await.unwrap();
    let session = store.create_session("/w", 1).await.unwrap();
    let wire = Wire::Anthropic;
    let (old_user, old_text, recent_text) = ("y".repeat(2000), "z".repeat(800), "x".repeat(1200));
    let responses = vec![
        ScriptedResponse::sse(body(wire, &[text(&old_text), read("r1", "notes.txt")])),
        ScriptedResponse::sse(body(wire, &[text(&recent_text), read("r2", "notes.txt")])),
        ScriptedResponse::sse(body(wire, &[text(SUMMARY)])),
        ScriptedResponse::sse(body(wire, &done("d"))),
    ];
    let (store_for_config, id) = (store.clone(), session.id.clone());
    // The third request would carry about 1050 tokens besides the system prompt; 800 fit.
    let mut h = start_with(wire, responses, move |c| {
        c.context_window = Some(system_tokens(&c.workspace) + 800);
        c.context_reserve = 0;
        c.store = Some(store_for_config);
        c.session_id = Some(id);
    })
    .await;
    h.send(Op::user_message(old_user.clone()));
    assert!(h.end().await.is_success());

    let requests = h.server.requests();
    assert_eq!(requests.len(), 4);
    // The summary request: no tools, the older messages, nothing of the recent ones.
    let summary_request = requests[2].json();
    assert!(!has_tools(&summary_request));
    let asked = h.request_text(2);
    assert!(asked.contains(&old_user) && asked.contains(&old_text));
    assert!(asked.contains("[agent calls read (r1)]"));
    assert!(!asked.contains(&recent_text));
    // The next real request: the summary instead of the old messages, the recent ones intact.
    let next = h.request_text(3);
    assert!(has_tools(&requests[3].json()));
    assert!(next.contains(SUMMARY));
    assert!(!next.contains(&old_user) && !next.contains(&old_text));
    assert!(next.contains(&recent_text));
    assert!(
        !next.contains("\"r1\""),
        "the summarised call is gone with its result"
    );
    h.assert_one_result_per_call_in(3);
    assert_eq!(requests[3].json()["system"], requests[0].json()["system"]);

    let compacting = h
        .seen
        .iter()
        // The session-context note, the user's message, the first call and its result.
        .position(|e| matches!(e.msg, EventMsg::ContextCompacting { messages: 4, .. }))
        .expect("the summarising is announced");
    let (at, compacted) = h
        .seen
        .iter()
        .enumerate()
        .find_map(|(i, e)| match e.msg {
            EventMsg::ContextCompacted {
                elided_outputs,
                removed_messages,
                tokens_before,
                tokens_after,
            } => Some((
                i,
                (
                    elided_outputs,
                    removed_messages,
                    tokens_before > tokens_after,
                ),
            )),
            _ => None,
        })
        .expect("the compaction is reported");
    assert!(compacting < at);
    assert_eq!(compacted, (0, 4, true));

    // The store keeps the old messages, marked, and the summary in their place.
    let stored = store.load_messages(&session.id).await.unwrap();
    let compacted: Vec<bool> = stored.iter().map(|m| m.compacted).collect();
    assert_eq!(&compacted[..5], [true, true, true, true, false]);
    assert!(compacted[5..].iter().all(|c| !c));
    assert_eq!(stored[4].role, foreman_core::store::SUMMARY_ROLE);
    // A reopened conversation shows the compaction where the live one did: after the calls of the
    // turn before it, before the call of the request it made room for.
    let items = load_transcript(&store, &session.id).await.unwrap().items;
    let at = items
        .iter()
        .position(|i| matches!(i, TranscriptItem::Compacted { .. }))
        .expect("the compaction is shown");
    assert!(
        matches!(
            items[at],
            TranscriptItem::Compacted {
                elided_outputs: 0,
                removed_messages: 4,
                ..
            }
        ),
        "{items:?}"
    );
    let call_id = |item: &TranscriptItem| match item {
        TranscriptItem::Tool { call } => call.call_id.clone(),
        other => format!("{other:?}"),
    };
    assert_eq!(
        (call_id(&items[at - 1]), call_id(&items[at + 1])),
        ("r2".into(), "d".into())
    );
    h.send(Op::Shutdown);
    h.until(|m| matches!(m, EventMsg::ShutdownComplete)).await;

    // Resumed, the session continues from the compacted history.
    let history = open_session(&store, "/w", Some(&session.id))
        .await
        .unwrap()
        .unwrap()
        .1;
    let (store_for_config, id) = (store.clone(), session.id.clone());
    let mut resumed = start_with(
        wire,
        vec![ScriptedResponse::sse(body(wire, &[text("Resumed.")]))],
        move |c| {
            c.store = Some(store_for_config);
            c.session_id = Some(id);
            c.history = history;
        },
    )
    .await;
    resumed.say("and now?");
    assert!(resumed.end().await.is_success());
    let first = resumed.request_text(0);
    assert!(first.contains(SUMMARY) && first.contains(&recent_text));
    assert!(first.contains("and now?"));
    assert!(!first.contains(&old_user) && !first.contains(&old_text));
    resumed.assert_one_result_per_call();
}

#[tokio::test]
async fn a_failed_summary_request_ends_the_task_and_keeps_the_history() {
    let store = Store::open_in_memory().await.unwrap();
    let session = store.create_session("/w", 1).await.unwrap();
    let wire = Wire::Anthropic;
    let responses = vec![
        ScriptedResponse::sse(body(
            wire,
            &[text(&"z".repeat(800)), read("r1", "notes.txt")],
        )),
        ScriptedResponse::sse(body(
            wire,
            &[text(&"x".repeat(1200)), read("r2", "notes.txt")],
        )),
        ScriptedResponse::json(
            400,
            r#"{"type":"error","error":{"type":"invalid_request_error","message":"bad summary"}}"#,
        ),
    ];
    let (store_for_config, id) = (store.clone(), session.id.clone());
    let mut h = start_with(wire, responses, move |c| {
        c.context_window = Some(system_tokens(&c.workspace) + 800);
        c.context_reserve = 0;
        c.store = Some(store_for_config);
        c.session_id = Some(id);
    })
    .await;
    h.send(Op::user_message("y".repeat(2000)));
    let TaskEndReason::Error { message, .. } = h.end().await else {
        panic!("the task fails")
    };
    assert!(message.contains("Could not summarise"), "{message}");
    assert!(message.contains("bad summary"), "{message}");
    assert!(h.seen.iter().any(|e| matches!(
        &e.msg,
        EventMsg::Error { message } if message.contains("Could not summarise")
    )));
    assert!(
        !h.seen
            .iter()
            .any(|e| matches!(e.msg, EventMsg::ContextCompacted { .. }))
    );
    assert_eq!(h.server.requests().len(), 3);
    let stored = store.load_messages(&session.id).await.unwrap();
    assert_eq!(
        stored.len(),
        6,
        "the session context, user, two assistant turns, two results"
    );
    assert!(stored.iter().all(|m| !m.compacted));
}

const OPENAI_TOO_LONG: &str = r#"{"error":{"message":"This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}"#;
const ANTHROPIC_TOO_LONG: &str = r#"{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 210000 tokens > 200000 maximum"}}"#;

#[tokio::test]
async fn a_context_length_error_summarises_and_retries_once() {
    let wire = Wire::OpenAi;
    let old_user = "y".repeat(2000);
    let responses = vec![
        ScriptedResponse::sse(body(wire, &[read("r1", "notes.txt")])),
        ScriptedResponse::json(400, OPENAI_TOO_LONG),
        ScriptedResponse::sse(body(wire, &[text(SUMMARY)])),
        ScriptedResponse::sse(body(wire, &done("d"))),
    ];
    let mut h = start_with(wire, responses, |_| {}).await;
    h.send(Op::user_message(old_user.clone()));
    assert!(h.end().await.is_success());
    let requests = h.server.requests();
    assert_eq!(
        requests.len(),
        4,
        "one summary request and exactly one retry"
    );
    assert!(h.request_text(1).contains(&old_user));
    assert!(!has_tools(&requests[2].json()));
    assert!(h.request_text(2).contains(&old_user));
    let retried = h.request_text(3);
    assert!(retried.contains(SUMMARY) && !retried.contains(&old_user));
    h.assert_one_result_per_call_in(3);
    assert!(h.seen.iter().any(|e| matches!(
        e.msg,
        EventMsg::ContextCompacted {
            removed_messages: 1..,
            ..
        }
    )));
}

#[tokio::test]
async fn a_second_context_length_error_ends_the_task_cleanly() {
    let wire = Wire::Anthropic;
    let responses = vec![
        ScriptedResponse::sse(body(wire, &[read("r1", "notes.txt")])),
        ScriptedResponse::json(400, ANTHROPIC_TOO_LONG),
        ScriptedResponse::sse(body(wire, &[text(SUMMARY)])),
        ScriptedResponse::json(400, ANTHROPIC_TOO_LONG),
        ScriptedResponse::sse(body(wire, &done("never"))),
    ];
    let mut h = start_with(wire, responses, |_| {}).await;
    h.send(Op::user_message("y".repeat(2000)));
    let TaskEndReason::Error { message, .. } = h.end().await else {
        panic!("the task fails")
    };
    assert!(
        message.contains("too long for the model's context window"),
        "{message}"
    );
    assert!(
        message.contains("still too long after compacting"),
        "{message}"
    );
    assert_eq!(h.server.requests().len(), 4, "no second retry");
    h.assert_one_result_per_call_in(3);
}

/// A sub-agent whose own history outgrows the context window is summarised for its requests;
/// the session's stored history, which is not the sub-agent's, is left as it was.
#[tokio::test]
async fn a_sub_agents_compaction_leaves_the_sessions_stored_history_alone() {
    let store = Store::open_in_memory().await.unwrap();
    let session = store.create_session("/w", 1).await.unwrap();
    let wire = Wire::Anthropic;
    let (prompt, old_text, recent_text) = ("y".repeat(2000), "z".repeat(800), "x".repeat(1200));
    let completion = json!({"result": "read them"});
    let responses = vec![
        ScriptedResponse::sse(body(
            wire,
            &[call(
                "t1",
                "new_task",
                json!({"description": "read the notes", "prompt": prompt}),
            )],
        )),
        ScriptedResponse::sse(body(wire, &[text(&old_text), read("r1", "notes.txt")])),
        ScriptedResponse::sse(body(wire, &[text(&recent_text), read("r2", "notes.txt")])),
        ScriptedResponse::sse(body(wire, &[text(SUMMARY)])),
        ScriptedResponse::sse(body(wire, &[call("c1", "attempt_completion", completion)])),
        ScriptedResponse::sse(body(wire, &done("d"))),
    ];
    let (store_for_config, id) = (store.clone(), session.id.clone());
    let mut h = start_with(wire, responses, move |c| {
        c.context_window = Some(system_tokens(&c.workspace) + 800);
        c.context_reserve = 0;
        c.approval_mode = ApprovalMode::Yolo;
        c.store = Some(store_for_config);
        c.session_id = Some(id);
    })
    .await;
    h.say("go");
    assert!(h.end().await.is_success());
    assert!(
        h.seen
            .iter()
            .any(|e| e.parent_call_id.is_some()
                && matches!(e.msg, EventMsg::ContextCompacted { .. })),
        "the sub-agent's history was summarised"
    );
    let stored = store.load_messages(&session.id).await.unwrap();
    assert!(
        stored
            .iter()
            .all(|m| !m.compacted && m.role != foreman_core::store::SUMMARY_ROLE),
        "{stored:?}"
    );
    assert_eq!(
        stored.len(),
        6,
        "the session context, user, new_task, its result, completion, its result"
    );
    // Nor does a reopened conversation show it as the session's.
    let items = load_transcript(&store, &session.id).await.unwrap().items;
    assert!(
        !items
            .iter()
            .any(|i| matches!(i, TranscriptItem::Compacted { .. })),
        "{items:?}"
    );
}
