//! The task loop: multi-step tasks, parallel reads, cancel, the iteration cap, the pause after
//! repeated failures, final answers, streamed arguments and the stored task list.

use std::time::Duration;

use foreman_core::protocol::{ApprovalMode, CallState, EventMsg, Op, TaskEndReason};
use foreman_core::testing::scripts::{Step, call, text};
use foreman_core::testing::sse_server::ScriptedResponse;
use serde_json::{Value, json};

use super::common::*;

#[tokio::test]
async fn multi_step_task_read_edit_bash_complete() {
    for wire in BOTH {
        let turns = vec![
            vec![text("Reading."), read("c1", "notes.txt")],
            vec![call(
                "c2",
                "edit",
                json!({"path": "notes.txt", "old_string": "beta", "new_string": "gamma"}),
            )],
            vec![call("c3", "bash", json!({"command": "cat notes.txt"}))],
            done("c4"),
        ];
        let mut h = start(wire, &turns, ApprovalMode::Yolo).await;
        h.say("change beta");
        let reason = h.end().await;
        assert_eq!(
            reason,
            TaskEndReason::Completed {
                summary: "all done".into()
            },
            "{wire:?}"
        );
        assert_eq!(h.file("notes.txt"), "alpha\ngamma\n");
        assert_eq!(h.finished("c1").unwrap().0, CallState::Succeeded);
        // The edit went through without a question: its card still gets the diff of what it did.
        let shown = h
            .card_diff("c2")
            .expect("a diff for the auto-approved edit");
        let changed: Vec<_> = shown.hunks[0]
            .lines
            .iter()
            .filter(|l| l.tag != foreman_core::diff::LineTag::Context)
            .map(|l| l.spans.iter().map(|s| s.text.as_str()).collect::<String>())
            .collect();
        assert_eq!(changed, ["beta", "gamma"], "{wire:?}");
        assert!(h.finished("c3").unwrap().1.contains("gamma"), "{wire:?}");
        // The command's output streamed to the user before its result.
        let output_at = h.seen.iter().position(|e| {
            matches!(&e.msg, EventMsg::ToolCallOutput { call_id, text }
                if call_id == "c3" && text.contains("gamma"))
        });
        let finished_at = h.seen.iter().position(
            |e| matches!(&e.msg, EventMsg::ToolCallFinished { call_id, .. } if call_id == "c3"),
        );
        assert!(output_at.is_some() && output_at < finished_at, "{wire:?}");
        assert_eq!(h.server.requests().len(), 4);
        assert!(
            h.request_text(1).contains("alpha"),
            "the read result went back to the model"
        );
        h.assert_one_result_per_call();
        let seqs: Vec<u64> = h.seen.iter().map(|e| e.seq).collect();
        assert!(seqs.windows(2).all(|w| w[1] == w[0] + 1), "seq is gapless");
        // The system prompt is byte-stable across requests.
        let system = |n: usize| {
            let j = h.server.requests()[n].json();
            match wire {
                Wire::Anthropic => j["system"].to_string(),
                Wire::OpenAi => j["messages"][0].to_string(),
            }
        };
        assert_eq!(system(0), system(3));
    }
}

#[tokio::test]
async fn read_only_calls_run_concurrently_and_results_keep_call_order() {
    for wire in BOTH {
        let turns = vec![
            vec![
                read("r1", "notes.txt"),
                call("ls1", "ls", json!({})),
                read("r2", "notes.txt"),
            ],
            done("d"),
        ];
        let mut h = start(wire, &turns, ApprovalMode::ReadOnly).await;
        h.say("look");
        assert!(h.end().await.is_success());
        let executing: Vec<usize> = h
            .seen
            .iter()
            .enumerate()
            .filter(|(_, e)| {
                matches!(
                    e.msg,
                    EventMsg::ToolCallUpdated {
                        state: Some(CallState::Executing),
                        ..
                    }
                )
            })
            .map(|(i, _)| i)
            .collect();
        let first_finish = h
            .seen
            .iter()
            .position(|e| matches!(e.msg, EventMsg::ToolCallFinished { .. }))
            .unwrap();
        assert_eq!(executing.len(), 4, "three reads and the completion");
        assert!(
            executing[..3].iter().all(|i| *i < first_finish),
            "the reads were started together"
        );
        h.assert_one_result_per_call();
    }
}

#[tokio::test]
async fn cancel_mid_stream_stops_everything_and_closes_the_calls() {
    for wire in BOTH {
        let steps = vec![
            text("thinking about it"),
            write("w1", "x.txt", &"y".repeat(4000)),
        ];
        let slow = ScriptedResponse::sse(body(wire, &steps))
            .split(foreman_core::testing::sse_server::Split::Every(64))
            .piece_delay(Duration::from_millis(20));
        let mut h = start_with(wire, vec![slow], |c| c.approval_mode = ApprovalMode::Yolo).await;
        h.say("go");
        h.until(|m| matches!(m, EventMsg::ToolCallCreated { .. }))
            .await;
        h.send(Op::Cancel);
        assert_eq!(h.end().await, TaskEndReason::Cancelled, "{wire:?}");
        assert_eq!(h.finished("w1").unwrap().0, CallState::Cancelled);
        assert!(!h.dir.path().join("x.txt").exists());
        h.send(Op::Snapshot);
        let snap = h.until(|m| matches!(m, EventMsg::Snapshot { .. })).await;
        let EventMsg::Snapshot { calls, running, .. } = snap else {
            unreachable!()
        };
        assert!(!running);
        assert_eq!(calls[0].state, CallState::Cancelled);
    }
}

#[tokio::test]
async fn cancel_kills_a_running_command() {
    let turns = vec![vec![call("b1", "bash", json!({"command": "sleep 30"}))]];
    let mut h = start(Wire::Anthropic, &turns, ApprovalMode::Yolo).await;
    h.say("go");
    h.until_executing().await;
    let started = std::time::Instant::now();
    h.send(Op::Cancel);
    assert_eq!(h.end().await, TaskEndReason::Cancelled);
    assert!(started.elapsed() < Duration::from_secs(10));
    let (state, result) = h.finished("b1").unwrap();
    assert_eq!(state, CallState::Cancelled);
    assert!(result.contains("Cancelled"), "{result}");
}

#[tokio::test]
async fn the_iteration_cap_ends_the_task() {
    let turns: Vec<Vec<Step>> = (0..3)
        .map(|i| vec![read(&format!("r{i}"), "notes.txt")])
        .collect();
    let responses = turns
        .iter()
        .map(|t| ScriptedResponse::sse(body(Wire::OpenAi, t)))
        .collect();
    let mut h = start_with(Wire::OpenAi, responses, |c| {
        c.approval_mode = ApprovalMode::Ask;
        c.max_iterations = 2;
    })
    .await;
    h.say("loop");
    assert_eq!(
        h.end().await,
        TaskEndReason::IterationCap { max_iterations: 2 }
    );
    assert_eq!(h.server.requests().len(), 2);
}

#[tokio::test]
async fn the_third_consecutive_failure_pauses_until_continue() {
    for wire in BOTH {
        let mut turns: Vec<Vec<Step>> = (0..3)
            .map(|i| vec![read(&format!("m{i}"), "missing.txt")])
            .collect();
        turns.push(done("d"));
        let mut h = start(wire, &turns, ApprovalMode::Ask).await;
        h.say("go");
        let paused = h.until(|m| matches!(m, EventMsg::Paused { .. })).await;
        let EventMsg::Paused {
            failures, call_id, ..
        } = paused
        else {
            unreachable!()
        };
        assert_eq!((failures, call_id.as_str()), (3, "m2"));
        assert_eq!(
            h.server.requests().len(),
            3,
            "nothing more is asked while paused"
        );
        h.send(Op::Continue);
        assert!(h.end().await.is_success());
    }
}

#[tokio::test]
async fn stopping_at_a_pause_ends_the_task() {
    let turns: Vec<Vec<Step>> = (0..3)
        .map(|i| vec![read(&format!("m{i}"), "missing.txt")])
        .collect();
    let mut h = start(Wire::Anthropic, &turns, ApprovalMode::Ask).await;
    h.say("go");
    h.until(|m| matches!(m, EventMsg::Paused { .. })).await;
    h.send(Op::Cancel);
    assert_eq!(h.end().await, TaskEndReason::Stopped);
}

#[tokio::test]
async fn a_final_answer_without_tools_ends_the_task() {
    let mut h = start(Wire::Anthropic, &[vec![text("Paris.")]], ApprovalMode::Ask).await;
    h.say("capital of France?");
    assert_eq!(
        h.end().await,
        TaskEndReason::FinalAnswer {
            text: "Paris.".into()
        }
    );
    let deltas: String = h
        .seen
        .iter()
        .filter_map(|e| match &e.msg {
            EventMsg::TextDelta { text } => Some(text.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(deltas, "Paris.");
}

#[tokio::test]
async fn streamed_write_arguments_rebuild_exactly_from_patches() {
    let content: String = (0..2000)
        .map(|i| format!("line {i} \"quoted\"\n"))
        .collect();
    let turns = vec![vec![write("w1", "big.txt", &content)], done("d")];
    let mut h = start(Wire::Anthropic, &turns, ApprovalMode::Yolo).await;
    h.say("go");
    assert!(h.end().await.is_success());
    let mut value = Value::Null;
    let mut bytes = 0usize;
    for e in &h.seen {
        if let EventMsg::ToolCallUpdated { call_id, args, .. } = &e.msg
            && call_id == "w1"
        {
            bytes += serde_json::to_string(e).unwrap().len();
            for p in args {
                foreman_core::partial_json::apply_patch(&mut value, p);
            }
        }
    }
    assert_eq!(value["content"].as_str(), Some(content.as_str()));
    assert!(
        bytes < content.len() * 3 / 2,
        "{bytes} bytes for {}",
        content.len()
    );
    assert_eq!(h.file("big.txt"), content);
}

#[tokio::test]
async fn the_task_list_is_stored_with_the_session() {
    let store = foreman_core::store::Store::open_in_memory().await.unwrap();
    let session = store.create_session("/w", 1).await.unwrap();
    let todos = json!([
        {"id": "1", "content": "Read the code", "status": "completed"},
        {"id": "2", "content": "Fix the bug", "status": "in_progress"}
    ]);
    let turns = [
        vec![call("t1", "todo_write", json!({"todos": todos.clone()}))],
        done("t2"),
    ];
    let responses = turns
        .iter()
        .map(|t| ScriptedResponse::sse(body(Wire::Anthropic, t)))
        .collect();
    let store_for_config = store.clone();
    let id = session.id.clone();
    let mut h = start_with(Wire::Anthropic, responses, move |c| {
        c.approval_mode = ApprovalMode::Yolo;
        c.store = Some(store_for_config);
        c.session_id = Some(id);
    })
    .await;
    h.say("plan it");
    h.end().await;
    let stored: Value = serde_json::from_str(&store.todos(&session.id).await.unwrap()).unwrap();
    assert_eq!(stored, todos);
}

#[tokio::test]
async fn a_model_repeating_itself_is_stopped_with_a_notice_and_the_session_goes_on() {
    for wire in BOTH {
        // A looping model on a slow server: the answer would run for minutes.
        let looping = format!(
            "Let me think.\n{}",
            "I will read the file now.\n".repeat(400)
        );
        let body = super::common::body(wire, &[text(&looping)]);
        let responses = vec![
            ScriptedResponse::sse(body).piece_delay(Duration::from_millis(1)),
            ScriptedResponse::sse(super::common::body(wire, &[text("Done.")])),
        ];
        let mut h = start_with(wire, responses, |_| {}).await;
        h.say("what does notes.txt say?");
        let TaskEndReason::Error { message, retryable } = h.end().await else {
            panic!("{wire:?}: the answer should be stopped")
        };
        assert!(retryable);
        assert!(
            message.starts_with("The model repeated “I will read the file now.” 20 times in a row"),
            "{message}"
        );
        let shown: String = h
            .seen
            .iter()
            .filter_map(|e| match &e.msg {
                EventMsg::TextDelta { text } => Some(text.as_str()),
                _ => None,
            })
            .collect();
        assert!(
            shown.matches("I will read the file now.").count() < 40,
            "{wire:?}: the stream was read on after the loop was found"
        );
        h.say("just answer");
        assert!(
            h.end().await.is_success(),
            "{wire:?}: the session stays usable"
        );
    }
}
