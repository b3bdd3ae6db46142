//! The retry after an answer an error cut off: what arrived is kept, the model is told.

use foreman_core::conversation::notes::RETRY_NOTE;
use foreman_core::protocol::{ApprovalMode, EventMsg, Op, TaskEndReason, UndoState};
use foreman_core::testing::scripts::text;
use foreman_core::testing::sse_server::ScriptedResponse;

use super::common::*;

/// A response that sends `said` as the answer's text and then drops the connection.
fn cut_after(wire: Wire, said: &str) -> ScriptedResponse {
    let whole = body(wire, &[text(said)]);
    let delta = whole.find(said).unwrap();
    let dropped_at = delta + whole[delta..].find("\n\n").unwrap() + 2;
    ScriptedResponse::sse(whole).drop_after(dropped_at)
}

/// A stream that drops in the middle of the answer ends the task with an error the user can
/// retry: `retry` runs the model again on the conversation as it stands, with what arrived kept,
/// the model told it was cut off, and no new message of the user.
#[tokio::test]
async fn a_dropped_answer_can_be_retried_and_keeps_what_arrived() {
    for wire in BOTH {
        let responses = vec![
            cut_after(wire, "Half of the answer"),
            ScriptedResponse::sse(body(wire, &done("d1"))),
        ];
        let mut h = start_with(wire, responses, |_| {}).await;
        h.say("go");
        let TaskEndReason::Error { message, retryable } = h.end().await else {
            panic!("{wire:?}: not an error");
        };
        assert!(retryable, "{wire:?}: {message}");
        assert!(message.contains("dropped"), "{wire:?}: {message}");
        h.send(Op::Retry);
        assert!(h.end().await.is_success(), "{wire:?}");
        let requests = h.server.requests();
        assert_eq!(requests.len(), 2, "{wire:?}");
        let again = h.request_text(1);
        assert!(again.contains("Half of the answer"), "{wire:?}: {again}");
        assert!(again.contains(RETRY_NOTE), "{wire:?}: {again}");
        assert_eq!(again.matches("\"go\"").count(), 1, "{wire:?}: {again}");
        // The retry is not a message of the user's.
        let taken = h
            .seen
            .iter()
            .filter(|e| matches!(e.msg, EventMsg::UserMessageTaken { .. }))
            .count();
        assert_eq!(taken, 1, "{wire:?}");
        // It is offered once: the task it started ended well.
        h.send(Op::Retry);
        let EventMsg::Error { message } = h.until(|m| matches!(m, EventMsg::Error { .. })).await
        else {
            unreachable!()
        };
        assert!(message.contains("nothing to retry"), "{message}");
    }
}

/// A request the server keeps refusing with 503 ends the task before any output; a retry sends
/// the same conversation again, and a window that attaches meanwhile is told it may. A rejected
/// request is not offered a retry: it would fail the same way.
#[tokio::test]
async fn a_failed_request_is_sent_again_on_retry_but_a_rejected_request_is_not_retried() {
    let wire = Wire::Anthropic;
    let responses = vec![
        ScriptedResponse::json(
            503,
            r#"{"type":"error","error":{"type":"api_error","message":"busy"}}"#,
        ),
        ScriptedResponse::sse(body(wire, &done("d1"))),
        ScriptedResponse::json(
            400,
            r#"{"type":"error","error":{"type":"invalid_request_error","message":"messages: bad"}}"#,
        ),
    ];
    let mut h = start_with(wire, responses, |_| {}).await;
    h.say("go");
    let failed = h.end().await;
    assert!(matches!(
        failed,
        TaskEndReason::Error {
            retryable: true,
            ..
        }
    ));
    assert_eq!(h.snapshot_retry().await, Some(failed));
    h.send(Op::Retry);
    assert!(h.end().await.is_success());
    assert_eq!(
        h.request_text(0),
        h.request_text(1),
        "the same conversation again"
    );
    h.say("next");
    assert!(matches!(
        h.end().await,
        TaskEndReason::Error {
            retryable: false,
            ..
        }
    ));
    h.send(Op::Retry);
    let EventMsg::Error { message } = h.until(|m| matches!(m, EventMsg::Error { .. })).await else {
        unreachable!()
    };
    assert!(message.contains("nothing to retry"), "{message}");
    assert_eq!(h.server.requests().len(), 3);
    assert_eq!(h.snapshot_retry().await, None);
}

/// A change undone between the error and the retry is told to the model after the cut-off
/// answer; the model is still told that answer was cut off.
#[tokio::test]
async fn a_change_undone_before_a_retry_does_not_hide_that_the_answer_was_cut_off() {
    let wire = Wire::Anthropic;
    let responses = vec![
        ScriptedResponse::sse(body(wire, &[write("w1", "new.txt", "one\n")])),
        cut_after(wire, "Next I will"),
        ScriptedResponse::sse(body(wire, &done("d1"))),
    ];
    let mut h = start_with(wire, responses, |c| c.approval_mode = ApprovalMode::Yolo).await;
    h.say("go");
    assert!(h.end().await.may_retry());
    h.send(Op::UndoChange {
        call_id: "w1".into(),
    });
    h.until(|m| {
        matches!(
            m,
            EventMsg::UndoChanged {
                undo: UndoState::Done,
                ..
            }
        )
    })
    .await;
    h.send(Op::Retry);
    assert!(h.end().await.is_success());
    let again = h.request_text(2);
    let answer = again.find("Next I will").unwrap();
    let note = again.find("I undid the change call w1").unwrap();
    let retry = again.find("cut off by an error").unwrap();
    assert!(answer < note && note < retry, "{again}");
}
