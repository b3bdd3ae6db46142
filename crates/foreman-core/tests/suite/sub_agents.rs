//! `new_task` sub-agents: the child's tools, its summary as the result, cancel, stored calls.

use std::time::Duration;

use foreman_core::conversation::open_session;
use foreman_core::conversation::{TranscriptItem, load_transcript};
use foreman_core::protocol::{ApprovalMode, ApprovalScope, CallState, EventMsg, Op, TaskEndReason};
use foreman_core::store::Store;
use foreman_core::testing::scripts::{Step, call, text};
use foreman_core::testing::sse_server::ScriptedResponse;
use serde_json::json;

use super::common::*;

fn new_task(id: &str, tools: Option<&[&str]>) -> Step {
    let mut args = json!({"description": "update notes", "prompt": "Copy notes.txt to copy.txt."});
    if let Some(tools) = tools {
        args["tools"] = json!(tools);
    }
    call(id, "new_task", args)
}

impl Harness {
    /// The names of the tools offered in request `n`.
    fn tool_names(&self, n: usize) -> Vec<String> {
        let j = self.server.requests()[n].json();
        j["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| match self.wire {
                Wire::Anthropic => t["name"].as_str().unwrap().to_owned(),
                Wire::OpenAi => t["function"]["name"].as_str().unwrap().to_owned(),
            })
            .collect()
    }

    /// The parent call of the events about `call_id` (all of them must agree).
    fn parent_of(&self, id: &str) -> Option<String> {
        let parents: Vec<Option<String>> = self
            .seen
            .iter()
            .filter(|e| match &e.msg {
                EventMsg::ToolCallCreated { call_id, .. }
                | EventMsg::ToolCallUpdated { call_id, .. }
                | EventMsg::ToolCallFinished { call_id, .. }
                | EventMsg::ApprovalRequested { call_id, .. } => call_id == id,
                _ => false,
            })
            .map(|e| e.parent_call_id.clone())
            .collect();
        assert!(parents.len() >= 2, "events about {id}: {parents:?}");
        assert!(parents.windows(2).all(|w| w[0] == w[1]), "{parents:?}");
        parents[0].clone()
    }
}

#[tokio::test]
async fn new_task_runs_a_child_whose_summary_is_the_parents_result() {
    for wire in BOTH {
        let turns = vec![
            // The parent delegates.
            vec![
                text("Delegating."),
                new_task("t1", Some(&["read", "write"])),
            ],
            // The child reads, writes (asks: ask mode), completes.
            vec![read("c1", "notes.txt")],
            vec![write("c2", "copy.txt", "alpha\nbeta\n")],
            vec![call(
                "c3",
                "attempt_completion",
                json!({"result": "copied notes.txt to copy.txt"}),
            )],
            // The parent gets the summary and completes.
            done("d"),
        ];
        let mut h = start(wire, &turns, ApprovalMode::Ask).await;
        h.say("go");
        let (id, hash) = h.approval().await;
        assert_eq!(id, "c2", "{wire:?}");
        assert_eq!(
            h.seen.last().unwrap().parent_call_id.as_deref(),
            Some("t1"),
            "the child's approval request names the new_task call"
        );
        // A snapshot while the child waits reports the session's history (the session-context
        // note, the user's message and the parent's answer with the new_task call), not the
        // child's.
        h.send(Op::Snapshot);
        let snapshot = h.until(|m| matches!(m, EventMsg::Snapshot { .. })).await;
        let EventMsg::Snapshot { messages, .. } = snapshot else {
            unreachable!()
        };
        assert_eq!(messages, 3, "{wire:?}");
        // Answered on the parent session's op channel.
        h.send(Op::Approve {
            call_id: id,
            preview_hash: hash,
            scope: ApprovalScope::Once,
        });
        assert_eq!(
            h.end().await,
            TaskEndReason::Completed {
                summary: "all done".into()
            },
            "{wire:?}"
        );
        assert_eq!(h.file("copy.txt"), "alpha\nbeta\n");
        assert_eq!(
            h.finished("t1").unwrap(),
            (CallState::Succeeded, "copied notes.txt to copy.txt".into())
        );
        assert_eq!(h.server.requests().len(), 5);
        // The parent's next request has the child's summary as the new_task result.
        assert!(h.request_text(4).contains("copied notes.txt to copy.txt"));
        h.assert_one_result_per_call();
        // The child's requests: its own history (the prompt first, nothing of the parent's),
        // the sub-agent note, only the tools it was given.
        let child = h.server.requests()[1].json();
        let first = child["messages"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["role"] == "user")
            .unwrap()
            .to_string();
        assert!(first.contains("Copy notes.txt to copy.txt."), "{first}");
        assert!(!h.request_text(1).contains("Delegating."), "{wire:?}");
        for n in 1..=3 {
            assert!(
                h.request_text(n).contains("You are a sub-agent"),
                "{wire:?}"
            );
            assert_eq!(
                h.tool_names(n),
                ["read", "write", "attempt_completion"],
                "{wire:?}"
            );
        }
        assert!(!h.request_text(0).contains("You are a sub-agent"));
        assert!(h.tool_names(0).contains(&"new_task".to_owned()));
        // Nesting: the child's calls carry the parent call; the parent's own do not.
        for child_call in ["c1", "c2", "c3"] {
            assert_eq!(h.parent_of(child_call).as_deref(), Some("t1"), "{wire:?}");
        }
        assert_eq!(h.parent_of("t1"), None);
        assert_eq!(h.parent_of("d"), None);
        let seqs: Vec<u64> = h.seen.iter().map(|e| e.seq).collect();
        assert!(seqs.windows(2).all(|w| w[1] == w[0] + 1), "seq is gapless");
        // One task for the user; the child's requests count into the session's usage.
        let ended = h
            .seen
            .iter()
            .filter(|e| matches!(e.msg, EventMsg::TaskEnded { .. }))
            .count();
        assert_eq!(ended, 1);
        let last_total = h
            .seen
            .iter()
            .rev()
            .find_map(|e| match &e.msg {
                EventMsg::Usage { session, .. } => Some(session.total_input),
                _ => None,
            })
            .unwrap();
        assert_eq!(last_total, 50, "five requests of 10 input tokens");
    }
}

#[tokio::test]
async fn cancel_during_the_child_cancels_child_and_parent() {
    let turns = vec![
        vec![new_task("t1", None)],
        vec![call("b1", "bash", json!({"command": "sleep 30"}))],
    ];
    let mut h = start(Wire::Anthropic, &turns, ApprovalMode::Yolo).await;
    h.say("go");
    h.until(|m| {
        matches!(
            m,
            EventMsg::ToolCallUpdated {
                call_id,
                state: Some(CallState::Executing),
                ..
            } if call_id == "b1"
        )
    })
    .await;
    let started = std::time::Instant::now();
    h.send(Op::Cancel);
    assert_eq!(h.end().await, TaskEndReason::Cancelled);
    assert!(started.elapsed() < Duration::from_secs(10));
    assert_eq!(h.finished("b1").unwrap().0, CallState::Cancelled);
    assert_eq!(h.finished("t1").unwrap().0, CallState::Cancelled);
    assert_eq!(
        h.server.requests().len(),
        2,
        "nothing is asked after the cancel"
    );
    // The default child set is the parent's tools without new_task.
    let tools = h.tool_names(1);
    assert!(tools.contains(&"bash".to_owned()) && !tools.contains(&"new_task".to_owned()));
}

#[tokio::test]
async fn a_child_is_refused_a_tool_outside_its_set_and_its_calls_are_stored() {
    let store = Store::open_in_memory().await.unwrap();
    let session = store.create_session("/w", 1).await.unwrap();
    let response = |steps: &[Step]| ScriptedResponse::sse(body(Wire::Anthropic, steps));
    let responses = vec![
        response(&[new_task("t1", Some(&["read"]))]),
        response(&[call("b1", "bash", json!({"command": "touch made.txt"}))]),
        response(&[call(
            "c2",
            "attempt_completion",
            json!({"result": "could not run commands"}),
        )]),
        response(&done("d")),
    ];
    let mut h = start_stored("test-model", &store, &session.id, responses).await;
    h.say("go");
    assert!(h.end().await.is_success());
    let (state, result) = h.finished("b1").unwrap();
    assert_eq!(state, CallState::Rejected);
    assert!(result.contains("`bash` is not among the tools"), "{result}");
    assert!(!h.dir.path().join("made.txt").exists());
    assert!(h.request_text(2).contains("is not among the tools"));
    assert_eq!(
        h.finished("t1").unwrap(),
        (CallState::Succeeded, "could not run commands".into())
    );
    h.send(Op::Shutdown);
    h.until(|m| matches!(m, EventMsg::ShutdownComplete)).await;

    // Stored: the session's history only (the child's is its own), and every call, the
    // child's with their parent call, shown nested after it.
    let history = open_session(&store, "/w", Some(&session.id))
        .await
        .unwrap()
        .unwrap()
        .1;
    assert_eq!(
        history.len(),
        6,
        "the session context, user, new_task, its result, completion, its result"
    );
    let transcript = load_transcript(&store, &session.id).await.unwrap();
    let calls: Vec<(String, Option<String>)> = transcript
        .items
        .iter()
        .filter_map(|i| match i {
            TranscriptItem::Tool { call } => {
                Some((call.call_id.clone(), call.parent_call_id.clone()))
            }
            _ => None,
        })
        .collect();
    let t1 = Some("t1".to_owned());
    assert_eq!(
        calls,
        [
            ("t1".to_owned(), None),
            ("b1".to_owned(), t1.clone()),
            ("c2".to_owned(), t1),
            ("d".to_owned(), None),
        ]
    );
}
