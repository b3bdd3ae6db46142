//! Messages sent while a task runs: they wait, join the next turn, come back on a stop, and
//! can be taken back.

use foreman_core::protocol::{ApprovalMode, ApprovalScope, EventMsg, Op, TaskEndReason};
use foreman_core::testing::scripts::call;
use foreman_core::testing::sse_server::ScriptedResponse;
use serde_json::json;

use super::common::*;

/// A front end that attaches while a task runs (a reloaded window) learns of the user's
/// messages still waiting for the next turn, which the stored transcript does not have yet; and
/// every front end learns when each message joins the conversation.
#[tokio::test]
async fn messages_sent_while_a_task_runs_wait_are_listed_in_a_snapshot_and_announced_as_they_join()
{
    let turns = [vec![write("w1", "a.txt", "a\n")], done("d1")];
    let responses = turns
        .iter()
        .map(|t| ScriptedResponse::sse(body(Wire::Anthropic, t)))
        .collect();
    // As a resumed session whose transcript shows two messages of the user.
    let mut h = start_with(Wire::Anthropic, responses, |c| c.user_messages = 2).await;
    h.say("go");
    let (call_id, preview_hash) = h.approval().await;
    for text in ["first after", "second after"] {
        h.send(Op::user_message(text));
    }
    h.send(Op::Snapshot);
    let EventMsg::Snapshot {
        queued, running, ..
    } = h.until(|m| matches!(m, EventMsg::Snapshot { .. })).await
    else {
        unreachable!()
    };
    assert!(running);
    assert_eq!(queued, ["first after", "second after"]);

    h.send(Op::Approve {
        call_id,
        preview_hash,
        scope: ApprovalScope::Once,
    });
    assert!(h.end().await.is_success());
    assert!(
        h.request_text(1).contains("second after"),
        "the waiting messages joined the next turn"
    );
    // Each message is announced as it joins: the first starts the task, the waiting ones join
    // after the approved call finished and before the next request.
    let order: Vec<String> = h
        .seen
        .iter()
        .filter_map(|e| match &e.msg {
            EventMsg::UserMessageTaken { text, number, .. } => {
                Some(format!("taken {number} {text}"))
            }
            EventMsg::TaskStarted => Some("task".into()),
            EventMsg::ToolCallFinished { call_id, .. } => Some(format!("finished {call_id}")),
            EventMsg::TurnStarted { iteration } => Some(format!("turn {iteration}")),
            _ => None,
        })
        .collect();
    assert_eq!(
        order,
        [
            "taken 2 go",
            "task",
            "turn 1",
            "finished w1",
            "taken 3 first after",
            "taken 4 second after",
            "turn 2",
            "finished d1"
        ]
    );
    h.send(Op::Snapshot);
    let EventMsg::Snapshot { queued, .. } =
        h.until(|m| matches!(m, EventMsg::Snapshot { .. })).await
    else {
        unreachable!()
    };
    assert!(queued.is_empty(), "{queued:?}");
}

/// Stopping a task gives the user back what they sent meanwhile instead of running it: the
/// model never reads it, and no new task starts on its own after Stop.
#[tokio::test]
async fn stopping_a_task_returns_the_waiting_messages_instead_of_running_them() {
    let turns = vec![vec![write("w1", "a.txt", "a\n")], done("d1")];
    let mut h = start(Wire::OpenAi, &turns, ApprovalMode::Ask).await;
    h.say("go");
    h.approval().await;
    h.say("then this");
    h.send(Op::Cancel);
    assert_eq!(h.end().await, TaskEndReason::Cancelled);
    assert_eq!(
        h.until(|m| matches!(m, EventMsg::QueuedMessagesReturned { .. }))
            .await,
        EventMsg::QueuedMessagesReturned {
            texts: vec!["then this".into()],
            images: Vec::new(),
        }
    );
    // Nothing more happens: a snapshot answers with nothing waiting and no task running.
    h.send(Op::Snapshot);
    let EventMsg::Snapshot {
        queued, running, ..
    } = h.until(|m| matches!(m, EventMsg::Snapshot { .. })).await
    else {
        unreachable!()
    };
    assert!(!running && queued.is_empty(), "{queued:?}");
    assert_eq!(h.server.requests().len(), 1);
    assert!(
        !h.seen.iter().any(
            |e| matches!(&e.msg, EventMsg::UserMessageTaken { text, .. } if text == "then this")
        ),
        "the returned message never joined the conversation"
    );
    assert!(!h.dir.path().join("a.txt").exists());
}

/// The user takes back one waiting message: it is given back at once and the model never reads
/// it; the others still join. Two waiting messages may say the same; the one at the place the
/// front end named goes, or the first with that text when the place is out of date.
#[tokio::test]
async fn a_waiting_message_taken_back_is_returned_and_never_read() {
    let turns = [vec![write("w1", "a.txt", "a\n")], done("d1")];
    let mut h = start(Wire::OpenAi, &turns, ApprovalMode::Ask).await;
    h.say("go");
    let (call_id, preview_hash) = h.approval().await;
    for text in ["twin note", "other note", "twin note", "drop me"] {
        h.send(Op::user_message(text));
    }
    let returned = |text: &str| EventMsg::QueuedMessagesReturned {
        texts: vec![text.into()],
        images: Vec::new(),
    };
    let answer = |m: &EventMsg| {
        matches!(
            m,
            EventMsg::QueuedMessagesReturned { .. } | EventMsg::Error { .. }
        )
    };
    h.send(Op::WithdrawMessage {
        index: 2,
        text: "twin note".into(),
    });
    assert_eq!(h.until(answer).await, returned("twin note"));
    // Named by its old place (the fourth): it is the third now.
    h.send(Op::WithdrawMessage {
        index: 3,
        text: "drop me".into(),
    });
    assert_eq!(h.until(answer).await, returned("drop me"));
    h.send(Op::WithdrawMessage {
        index: 1,
        text: "never sent".into(),
    });
    let EventMsg::Error { message } = h.until(answer).await else {
        panic!("no error for a message that does not wait")
    };
    assert!(message.contains("read it already"), "{message}");
    h.send(Op::Snapshot);
    let EventMsg::Snapshot { queued, .. } =
        h.until(|m| matches!(m, EventMsg::Snapshot { .. })).await
    else {
        unreachable!()
    };
    assert_eq!(queued, ["twin note", "other note"]);

    h.send(Op::Approve {
        call_id,
        preview_hash,
        scope: ApprovalScope::Once,
    });
    assert!(h.end().await.is_success());
    let second = h.request_text(1);
    assert_eq!(second.matches("twin note").count(), 1, "{second}");
    assert!(
        second.find("twin note") < second.find("other note"),
        "the first twin stayed: {second}"
    );
    assert!(!second.contains("drop me"), "{second}");
    let taken: Vec<&str> = h
        .seen
        .iter()
        .filter_map(|e| match &e.msg {
            EventMsg::UserMessageTaken { text, .. } => Some(text.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(taken, ["go", "twin note", "other note"]);
}

/// After Stop, until the stopped task has ended, the user still sees the messages that waited
/// and may take one back: it comes back at once, the others after the task ends; and a message
/// sent after the Stop with the same text (the next request) stays.
#[tokio::test]
async fn a_message_the_stop_holds_can_be_taken_back_before_the_task_ends() {
    let turns = vec![
        vec![call("b1", "bash", json!({"command": "sleep 30"}))],
        done("d1"),
    ];
    let mut h = start(Wire::Anthropic, &turns, ApprovalMode::Yolo).await;
    h.say("go");
    h.until_executing().await;
    for text in ["keep me", "same words"] {
        h.send(Op::user_message(text));
    }
    h.send(Op::Cancel);
    h.say("same words");
    h.send(Op::WithdrawMessage {
        index: 1,
        text: "same words".into(),
    });
    let mut answers = vec![];
    while answers.len() < 2 {
        match h
            .until(|m| {
                matches!(
                    m,
                    EventMsg::QueuedMessagesReturned { .. }
                        | EventMsg::Error { .. }
                        | EventMsg::TaskEnded { .. }
                )
            })
            .await
        {
            EventMsg::TaskEnded { reason } => assert_eq!(reason, TaskEndReason::Cancelled),
            EventMsg::QueuedMessagesReturned { texts, .. } => answers.push(texts),
            other => panic!("{other:?}"),
        }
    }
    assert_eq!(answers, [vec!["same words"], vec!["keep me"]]);
    // The message sent after the Stop is the next request.
    assert_eq!(
        h.until(|m| matches!(m, EventMsg::UserMessageTaken { .. }))
            .await,
        EventMsg::UserMessageTaken {
            text: "same words".into(),
            number: 1,
            attachments: Vec::new(),
        }
    );
    assert!(h.end().await.is_success());
}

/// A session whose task runs a long command with `waiting` queued for its next turn, just
/// stopped: the command is still being ended when this returns.
async fn stopping_with_waiting(waiting: &str) -> Harness {
    let turns = vec![
        vec![call("b1", "bash", json!({"command": "sleep 30"}))],
        done("d1"),
    ];
    let mut h = start(Wire::Anthropic, &turns, ApprovalMode::Yolo).await;
    h.say("go");
    h.until_executing().await;
    h.send(Op::user_message(waiting));
    h.send(Op::Cancel);
    h
}

/// A window that attaches between a Stop and the end of its task (a reloaded page) is shown the
/// messages the Stop holds as still waiting: they come back when the task ends.
#[tokio::test]
async fn a_snapshot_during_a_stop_lists_the_messages_it_holds() {
    let mut h = stopping_with_waiting("held by the stop").await;
    h.send(Op::Snapshot);
    let EventMsg::Snapshot { queued, .. } =
        h.until(|m| matches!(m, EventMsg::Snapshot { .. })).await
    else {
        unreachable!()
    };
    assert_eq!(queued, ["held by the stop"]);
    assert_eq!(h.end().await, TaskEndReason::Cancelled);
    assert_eq!(
        h.until(|m| matches!(m, EventMsg::QueuedMessagesReturned { .. }))
            .await,
        EventMsg::QueuedMessagesReturned {
            texts: vec!["held by the stop".into()],
            images: Vec::new(),
        }
    );
}

/// A message sent right after Stop, while the stopped command is still being ended, is the
/// user's next request: it is not given back with the ones that waited before the Stop.
#[tokio::test]
async fn a_message_sent_after_stop_starts_the_next_task() {
    let mut h = stopping_with_waiting("sent before the stop").await;
    h.say("sent after the stop");
    assert_eq!(h.end().await, TaskEndReason::Cancelled);
    assert_eq!(
        h.until(|m| matches!(m, EventMsg::QueuedMessagesReturned { .. }))
            .await,
        EventMsg::QueuedMessagesReturned {
            texts: vec!["sent before the stop".into()],
            images: Vec::new(),
        }
    );
    assert_eq!(
        h.until(|m| matches!(m, EventMsg::UserMessageTaken { .. }))
            .await,
        EventMsg::UserMessageTaken {
            text: "sent after the stop".into(),
            number: 1,
            attachments: Vec::new(),
        }
    );
    assert!(h.end().await.is_success());
    let second = h.request_text(1);
    assert!(second.contains("sent after the stop"), "{second}");
    assert!(!second.contains("sent before the stop"), "{second}");
}
