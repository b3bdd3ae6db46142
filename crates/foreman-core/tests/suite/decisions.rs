//! The person's decisions on calls (reject with a note, edit before approving, approve some
//! parts, Stop before a call ran) travel as facts on the finished call, apart from the text the
//! model gets, and stay with the stored session.

use foreman_core::conversation::{TranscriptItem, load_transcript};
use foreman_core::protocol::{ApprovalMode, CallDecision, CallState, EventMsg, Op, TaskEndReason};
use foreman_core::store::{RuleAction, Store};
use foreman_core::testing::scripts::call;
use foreman_core::testing::sse_server::ScriptedResponse;
use serde_json::json;

use super::common::*;

#[tokio::test]
async fn decisions_are_facts_on_the_call_and_stay_with_the_stored_session() {
    let store = Store::open_in_memory().await.unwrap();
    let session = store.create_session("/w", 1).await.unwrap();
    let response = |steps: &[_]| ScriptedResponse::sse(body(Wire::Anthropic, steps));
    let edit = json!({"path": "notes.txt", "old_string": "beta", "new_string": "BETA"});
    let responses = vec![
        response(&[read("r", "notes.txt"), write("w1", "new.txt", "a\nb\nc\n")]),
        response(&[call("e2", "edit", edit)]),
        response(&[write("w3", "later.txt", "x\n")]),
    ];
    let mut h = start_stored("test-model", &store, &session.id, responses).await;
    h.say("go");

    let (id, hash) = h.approval().await;
    h.send(Op::EditAndApprove {
        call_id: id,
        preview_hash: hash,
        new_content: "a\nB\nC\n".into(),
    });
    let (id, _) = h.approval().await;
    h.send(Op::Reject {
        call_id: id,
        feedback: Some("  keep it lowercase ".into()),
    });
    let (id, _) = h.approval().await;
    assert_eq!(id, "w3");
    h.send(Op::Cancel);
    assert_eq!(h.end().await, TaskEndReason::Cancelled);

    let expected = [
        ("r", None),
        ("w1", Some(CallDecision::Edited { lines: 2 })),
        (
            "e2",
            Some(CallDecision::Rejected {
                reason: Some("keep it lowercase".into()),
            }),
        ),
        ("w3", Some(CallDecision::NotRun)),
    ];
    for (id, decision) in &expected {
        assert_eq!(&h.decision(id), decision, "{id}");
    }
    // The model's own words are unchanged.
    assert!(h.finished("w1").unwrap().1.contains("edited your change"));
    assert_eq!(h.finished("w3").unwrap().0, CallState::Cancelled);
    h.send(Op::Shutdown);
    h.until(|m| matches!(m, EventMsg::ShutdownComplete)).await;

    // Reopened: the same facts, read from the store.
    let transcript = load_transcript(&store, &session.id).await.unwrap();
    let stored: Vec<(String, Option<CallDecision>)> = transcript
        .items
        .iter()
        .filter_map(|i| match i {
            TranscriptItem::Tool { call } => Some((call.call_id.clone(), call.decision.clone())),
            _ => None,
        })
        .collect();
    let expected: Vec<(String, Option<CallDecision>)> = expected
        .into_iter()
        .map(|(id, d)| (id.to_owned(), d))
        .collect();
    assert_eq!(stored, expected);
}

#[tokio::test]
async fn a_rejection_without_a_note_and_a_policy_refusal_differ() {
    let turns = [
        vec![call("b1", "bash", json!({"command": "touch made.txt"}))],
        vec![call("b2", "bash", json!({"command": "rm -rf notes.txt"}))],
        done("d"),
    ];
    let responses = turns
        .iter()
        .map(|t| ScriptedResponse::sse(body(Wire::Anthropic, t)))
        .collect();
    let mut h = start_with(Wire::Anthropic, responses, |c| {
        c.approval_mode = ApprovalMode::Ask;
        c.rules = vec![(RuleAction::Deny, "bash(rm *)".into())];
    })
    .await;
    h.say("go");
    let (id, _) = h.approval().await;
    h.send(Op::Reject {
        call_id: id,
        feedback: Some("   ".into()),
    });
    assert!(h.end().await.is_success());
    assert_eq!(
        h.decision("b1"),
        Some(CallDecision::Rejected { reason: None })
    );
    // Refused by a rule, not by the person: no decision of theirs.
    assert_eq!(h.finished("b2").unwrap().0, CallState::Rejected);
    assert_eq!(h.decision("b2"), None);
}
