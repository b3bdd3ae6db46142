//! Approvals: approve, reject with feedback, diffs and arguments in the request, long diffs,
//! edit-and-approve, always-allow, deny rules, compound commands, the mode changed mid-session.

use foreman_core::protocol::{ApprovalMode, ApprovalScope, CallState, EventMsg, Op};
use foreman_core::store::RuleAction;
use foreman_core::testing::scripts::call;
use foreman_core::testing::sse_server::ScriptedResponse;
use serde_json::json;

use super::common::*;

#[tokio::test]
async fn approve_runs_and_reject_tells_the_model_the_feedback() {
    for wire in BOTH {
        let edit = json!({"path": "notes.txt", "old_string": "beta", "new_string": "BETA"});
        let turns = vec![
            vec![read("r", "notes.txt"), call("e1", "edit", edit.clone())],
            vec![call("e2", "edit", edit)],
            done("d"),
        ];
        let mut h = start(wire, &turns, ApprovalMode::Ask).await;
        h.say("go");
        let (id, hash) = h.approval().await;
        assert_eq!(id, "e1");
        h.send(Op::Reject {
            call_id: id,
            feedback: Some("keep it lowercase".into()),
        });
        let (id, hash2) = h.approval().await;
        assert_eq!(id, "e2");
        assert_eq!(hash, hash2, "same change, same file: same hash");
        assert_eq!(h.file("notes.txt"), "alpha\nbeta\n");
        assert!(
            h.request_text(1).contains(
                "The user rejected this change: keep it lowercase. The file was not modified."
            ),
            "{wire:?}"
        );
        h.send(Op::Approve {
            call_id: id,
            preview_hash: hash2,
            scope: ApprovalScope::Once,
        });
        assert!(h.end().await.is_success());
        assert_eq!(h.file("notes.txt"), "alpha\nBETA\n");
        assert_eq!(h.finished("e1").unwrap().0, CallState::Rejected);
        h.assert_one_result_per_call();
    }
}

#[tokio::test]
async fn approval_requests_carry_the_diff_and_a_suggested_rule() {
    let turns = vec![
        vec![call(
            "e1",
            "edit",
            json!({"path": "notes.txt", "old_string": "beta", "new_string": "BETA"}),
        )],
        done("d"),
    ];
    let mut h = start(Wire::Anthropic, &turns, ApprovalMode::Ask).await;
    h.say("go");
    let msg = h.approval_request().await;
    let EventMsg::ApprovalRequested {
        preview,
        suggested_rule,
        preview_hash,
        call_id,
        arguments,
        ..
    } = msg
    else {
        unreachable!()
    };
    let preview = preview.unwrap();
    let text = foreman_core::diff::unified_text(preview.diff.as_ref().unwrap());
    assert!(text.contains("-beta") && text.contains("+BETA"), "{text}");
    assert_eq!(suggested_rule.as_deref(), Some("edit(notes.txt)"));
    assert_eq!(
        arguments, None,
        "the streamed patches built exactly these arguments and the diff shows the change"
    );
    h.send(Op::Approve {
        call_id,
        preview_hash,
        scope: ApprovalScope::Once,
    });
    assert!(h.end().await.is_success());
}

#[tokio::test]
async fn a_request_without_a_diff_carries_its_arguments() {
    for wire in BOTH {
        let args = json!({"command": "echo hi"});
        let turns = vec![vec![call("b1", "bash", args.clone())], done("d")];
        let mut h = start(wire, &turns, ApprovalMode::Ask).await;
        h.say("go");
        let msg = h.approval_request().await;
        let EventMsg::ApprovalRequested {
            arguments, call_id, ..
        } = msg
        else {
            unreachable!()
        };
        assert_eq!(arguments, Some(args), "{wire:?}");
        h.send(Op::Reject {
            call_id,
            feedback: None,
        });
        assert!(h.end().await.is_success(), "{wire:?}");
    }
}

#[tokio::test]
async fn a_long_diff_is_sent_cut_and_load_preview_sends_it_whole() {
    use foreman_core::protocol::PREVIEW_LINES_SENT;
    let content: String = (0..3000).map(|i| format!("line {i}\n")).collect();
    let turns = vec![vec![write("w1", "big.txt", &content)], done("d")];
    let mut h = start(Wire::Anthropic, &turns, ApprovalMode::Ask).await;
    h.say("go");
    let msg = h.approval_request().await;
    let EventMsg::ApprovalRequested {
        call_id,
        preview_hash,
        preview: Some(preview),
        ..
    } = msg
    else {
        panic!("{msg:?}")
    };
    let cut = preview.diff.unwrap();
    assert_eq!(cut.line_count(), PREVIEW_LINES_SENT);
    assert_eq!(cut.lines_left_out as usize, 3000 - PREVIEW_LINES_SENT);
    assert_eq!(cut.added, 3000, "the counts are the whole diff's");

    // A snapshot carries the cut copy too.
    h.send(Op::Snapshot);
    let snapshot = h.until(|m| matches!(m, EventMsg::Snapshot { .. })).await;
    let EventMsg::Snapshot { calls, .. } = snapshot else {
        unreachable!()
    };
    let shown = calls[0]
        .preview
        .as_ref()
        .and_then(|p| p.diff.as_ref())
        .unwrap();
    assert_eq!(shown.line_count(), PREVIEW_LINES_SENT);

    h.send(Op::LoadPreview {
        call_id: call_id.clone(),
    });
    let update = h
        .until(|m| {
            matches!(
                m,
                EventMsg::ToolCallUpdated {
                    preview: Some(_),
                    ..
                }
            )
        })
        .await;
    let EventMsg::ToolCallUpdated {
        call_id: updated,
        preview: Some(whole),
        ..
    } = update
    else {
        unreachable!()
    };
    assert_eq!(updated, call_id);
    let whole = whole.diff.unwrap();
    assert_eq!((whole.line_count(), whole.lines_left_out), (3000, 0));
    let last = &whole.hunks.last().unwrap().lines.last().unwrap().spans[0].text;
    assert_eq!(last, "line 2999");

    // Loading changes nothing about the request: the same hash approves.
    h.send(Op::Approve {
        call_id,
        preview_hash,
        scope: ApprovalScope::Once,
    });
    assert!(h.end().await.is_success());
    assert_eq!(h.file("big.txt"), content);

    h.send(Op::LoadPreview {
        call_id: "nope".into(),
    });
    let error = h.until(|m| matches!(m, EventMsg::Error { .. })).await;
    assert!(format!("{error:?}").contains("no preview"), "{error:?}");
}

#[tokio::test]
async fn edit_and_approve_writes_the_users_version_and_tells_the_model() {
    for wire in BOTH {
        let turns = vec![vec![write("w1", "new.txt", "from the model\n")], done("d")];
        let mut h = start(wire, &turns, ApprovalMode::Ask).await;
        h.say("go");
        let (id, hash) = h.approval().await;
        h.send(Op::EditAndApprove {
            call_id: id,
            preview_hash: hash,
            new_content: "from the user\n".into(),
        });
        assert!(h.end().await.is_success());
        assert_eq!(h.file("new.txt"), "from the user\n");
        let next = h.request_text(1);
        assert!(next.contains("edited your change"), "{wire:?}");
        assert!(
            next.contains("-from the model") && next.contains("+from the user"),
            "{next}"
        );
        // The card's diff is what was written.
        let shown = h.card_diff("w1").unwrap();
        assert_eq!(shown.hunks[0].lines[0].spans[0].text, "from the user");
    }
}

#[tokio::test]
async fn always_allow_adds_a_rule_that_skips_the_next_question() {
    let turns = vec![
        vec![call("b1", "bash", json!({"command": "echo one"}))],
        vec![call("b2", "bash", json!({"command": "echo two"}))],
        done("d"),
    ];
    let mut h = start(Wire::OpenAi, &turns, ApprovalMode::Ask).await;
    h.say("go");
    let (id, hash) = h.approval().await;
    h.send(Op::Approve {
        call_id: id,
        preview_hash: hash,
        scope: ApprovalScope::Always {
            rule: "bash(echo*)".into(),
            scope: Default::default(),
        },
    });
    assert!(h.end().await.is_success());
    let approvals = h
        .seen
        .iter()
        .filter(|e| matches!(e.msg, EventMsg::ApprovalRequested { .. }))
        .count();
    assert_eq!(approvals, 1);
    assert!(h.finished("b2").unwrap().1.contains("two"));
    assert!(
        h.seen
            .iter()
            .any(|e| matches!(&e.msg, EventMsg::RuleAdded { rule, .. } if rule == "bash(echo*)"))
    );
}

#[tokio::test]
async fn deny_rules_and_compound_commands() {
    let turns = [
        vec![call(
            "b1",
            "bash",
            json!({"command": "echo hi && rm -rf notes.txt"}),
        )],
        vec![call(
            "b2",
            "bash",
            json!({"command": "echo ok; touch made.txt"}),
        )],
        done("d"),
    ];
    let responses = turns
        .iter()
        .map(|t| ScriptedResponse::sse(body(Wire::Anthropic, t)))
        .collect();
    let mut h = start_with(Wire::Anthropic, responses, |c| {
        c.approval_mode = ApprovalMode::Ask;
        c.rules = vec![
            (RuleAction::Allow, "bash(echo*)".into()),
            (RuleAction::Deny, "bash(rm *)".into()),
        ];
    })
    .await;
    h.say("go");
    // b1 is denied outright (one part matches the deny rule); b2 asks (touch is not allowed).
    let (id, _) = h.approval().await;
    assert_eq!(id, "b2");
    let (state, result) = h.finished("b1").unwrap();
    assert_eq!(state, CallState::Rejected);
    assert!(result.contains("bash(rm *)"), "{result}");
    assert_eq!(h.file("notes.txt"), "alpha\nbeta\n");
    h.send(Op::Reject {
        call_id: id,
        feedback: None,
    });
    assert!(h.end().await.is_success());
    assert!(!h.dir.path().join("made.txt").exists());
}

#[tokio::test]
async fn the_approval_mode_changed_mid_session_changes_what_asks() {
    for wire in BOTH {
        let write = |id: &str, path: &str| {
            call(
                id,
                "write",
                json!({"path": path, "content": format!("{id}\n")}),
            )
        };
        let turns = vec![
            vec![write("w1", "one.txt")],
            vec![write("w2", "two.txt")],
            done("d1"),
            vec![write("w3", "three.txt")],
            done("d2"),
        ];
        let mut h = start(wire, &turns, ApprovalMode::Ask).await;
        h.say("write two files");
        let (id, hash) = h.approval().await;
        assert_eq!(id, "w1");
        assert!(
            !h.dir.path().join("one.txt").exists(),
            "in ask mode the write waits"
        );
        h.send(Op::SetApprovalMode {
            mode: ApprovalMode::AutoEdit,
        });
        let changed = h
            .until(|m| matches!(m, EventMsg::ApprovalModeChanged { .. }))
            .await;
        assert_eq!(
            changed,
            EventMsg::ApprovalModeChanged {
                mode: ApprovalMode::AutoEdit
            }
        );
        h.send(Op::Approve {
            call_id: id,
            preview_hash: hash,
            scope: ApprovalScope::Once,
        });
        assert!(h.end().await.is_success(), "{wire:?}");
        assert_eq!(h.file("one.txt"), "w1\n");
        assert_eq!(h.file("two.txt"), "w2\n", "{wire:?}");
        assert_eq!(h.finished("w2").unwrap().0, CallState::Succeeded);
        let asked = |h: &Harness| {
            h.seen
                .iter()
                .filter_map(|e| match &e.msg {
                    EventMsg::ApprovalRequested { call_id, .. } => Some(call_id.clone()),
                    _ => None,
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(
            asked(&h),
            ["w1"],
            "after auto-edit the next write did not ask"
        );

        h.send(Op::SetApprovalMode {
            mode: ApprovalMode::ReadOnly,
        });
        h.until(|m| {
            matches!(
                m,
                EventMsg::ApprovalModeChanged {
                    mode: ApprovalMode::ReadOnly
                }
            )
        })
        .await;
        h.send(Op::Snapshot);
        let snapshot = h.until(|m| matches!(m, EventMsg::Snapshot { .. })).await;
        assert!(matches!(
            snapshot,
            EventMsg::Snapshot {
                mode: ApprovalMode::ReadOnly,
                ..
            }
        ));
        h.say("one more");
        assert!(h.end().await.is_success(), "{wire:?}");
        let (state, result) = h.finished("w3").unwrap();
        assert_eq!(state, CallState::Rejected);
        assert!(
            result.starts_with("Refused by the approval policy"),
            "{result}"
        );
        assert!(!h.dir.path().join("three.txt").exists());
        assert_eq!(asked(&h), ["w1"], "read-only refuses without asking");
        assert!(h.request_text(4).contains("Refused by the approval policy"));
        h.assert_one_result_per_call();
    }
}

/// Rules changed in the store reach a running session on `reload_rules`, and a deny rule wins
/// over an allow rule for the same command, whatever their scopes.
#[tokio::test]
async fn reloaded_rules_apply_at_once_and_deny_beats_allow() {
    use foreman_core::store::{RuleAction, Store, rule_key};
    use foreman_protocol::RuleScope;

    let store = Store::open_in_memory().await.unwrap();
    let session = store.create_session("/ws", 1).await.unwrap();
    let history = foreman_core::conversation::open_session(&store, "/ws", Some(&session.id))
        .await
        .unwrap()
        .unwrap()
        .1;
    let turns = [
        vec![call("r1", "bash", json!({"command": "rm -f gone.txt"}))],
        done("d"),
    ];
    let responses = turns
        .iter()
        .map(|t| ScriptedResponse::sse(body(Wire::Anthropic, t)))
        .collect();
    let (s, id) = (store.clone(), session.id.clone());
    let mut h = start_with(Wire::Anthropic, responses, move |c| {
        c.approval_mode = ApprovalMode::Yolo;
        c.store = Some(s);
        c.session_id = Some(id);
        c.history = history;
    })
    .await;
    std::fs::write(h.dir.path().join("gone.txt"), "x").unwrap();
    let workspace = h.dir.path().display().to_string();
    let user = rule_key(RuleScope::User, &workspace, None);
    store
        .add_rule(&user, RuleAction::Allow, "bash(rm *)", 2)
        .await
        .unwrap();
    let ws_key = rule_key(RuleScope::Workspace, &workspace, None);
    store
        .add_rule(&ws_key, RuleAction::Deny, "bash(rm *)", 3)
        .await
        .unwrap();
    h.send(Op::ReloadRules);
    h.say("remove it");
    assert!(h.end().await.is_success());
    let (state, text) = h.finished("r1").unwrap();
    assert_eq!(state, CallState::Rejected, "{text}");
    assert!(text.contains("denied by the rule `bash(rm *)`"), "{text}");
    assert!(h.dir.path().join("gone.txt").exists());
}
