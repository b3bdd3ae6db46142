//! The session loop against the scripted SSE server, both wire formats: multi-step tasks,
//! approvals (approve, reject with feedback, edit-and-approve, stale hash, file changed while
//! waiting — noticed by the workspace watcher, or by polling without it —, always-allow, deny,
//! compound commands, the approval mode changed mid-session), parallel reads, cancel, the
//! iteration cap, the pause after repeated failures, usage with its cost estimate and context,
//! also after a resume, `FilesChanged` for changes on disk, compaction (elided outputs, a summary
//! of older history, a context-length error retried once) and `new_task` sub-agents.

use std::time::Duration;

use foreman_core::agent::undo_state::KEPT_PER_FILE;
use foreman_core::conversation::notes::RETRY_NOTE;
use foreman_core::conversation::open_session;
use foreman_core::conversation::{TranscriptItem, load_transcript};
use foreman_core::protocol::{
    ApprovalMode, ApprovalScope, CallState, EventMsg, Op, TaskEndReason, UndoState, UsageSummary,
};
use foreman_core::providers::Usage;
use foreman_core::store::{RuleAction, Store};
use foreman_core::testing::scripts::{self, Step, call, text};
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
        h.send(Op::UserMessage {
            text: "change beta".into(),
        });
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
        // The command's output streamed to the person before its result.
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
async fn approve_runs_and_reject_tells_the_model_the_feedback() {
    for wire in BOTH {
        let edit = json!({"path": "notes.txt", "old_string": "beta", "new_string": "BETA"});
        let turns = vec![
            vec![read("r", "notes.txt"), call("e1", "edit", edit.clone())],
            vec![call("e2", "edit", edit)],
            done("d"),
        ];
        let mut h = start(wire, &turns, ApprovalMode::Ask).await;
        h.send(Op::UserMessage { text: "go".into() });
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
    h.send(Op::UserMessage { text: "go".into() });
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
        h.send(Op::UserMessage { text: "go".into() });
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
    let turns = vec![
        vec![call(
            "w1",
            "write",
            json!({"path": "big.txt", "content": content.clone()}),
        )],
        done("d"),
    ];
    let mut h = start(Wire::Anthropic, &turns, ApprovalMode::Ask).await;
    h.send(Op::UserMessage { text: "go".into() });
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
async fn edit_and_approve_writes_the_persons_version_and_tells_the_model() {
    for wire in BOTH {
        let turns = vec![
            vec![call(
                "w1",
                "write",
                json!({"path": "new.txt", "content": "from the model\n"}),
            )],
            done("d"),
        ];
        let mut h = start(wire, &turns, ApprovalMode::Ask).await;
        h.send(Op::UserMessage { text: "go".into() });
        let (id, hash) = h.approval().await;
        h.send(Op::EditAndApprove {
            call_id: id,
            preview_hash: hash,
            new_content: "from the person\n".into(),
        });
        assert!(h.end().await.is_success());
        assert_eq!(h.file("new.txt"), "from the person\n");
        let next = h.request_text(1);
        assert!(next.contains("edited your change"), "{wire:?}");
        assert!(
            next.contains("-from the model") && next.contains("+from the person"),
            "{next}"
        );
        // The card's diff is what was written.
        let shown = h.card_diff("w1").unwrap();
        assert_eq!(shown.hunks[0].lines[0].spans[0].text, "from the person");
    }
}

impl Harness {
    /// Sends `op` and returns the reason of the refusal it gets.
    async fn refused(&mut self, op: Op) -> String {
        self.send(op);
        match self
            .until(|m| matches!(m, EventMsg::ApprovalRefused { .. }))
            .await
        {
            EventMsg::ApprovalRefused { reason, .. } => reason,
            _ => unreachable!(),
        }
    }
}

#[tokio::test]
async fn approve_hunks_writes_only_the_chosen_hunks_and_the_card_shows_them() {
    let old: String = (1..=30).map(|i| format!("line {i}\n")).collect();
    let proposed = old
        .replace("line 2\n", "line two\n")
        .replace("line 15\n", "line fifteen\n")
        .replace("line 28\n", "line twenty-eight\n");
    for wire in BOTH {
        let turns = vec![
            vec![
                read("r", "code.txt"),
                call(
                    "w1",
                    "write",
                    json!({"path": "code.txt", "content": proposed}),
                ),
            ],
            done("d"),
        ];
        let mut h = start(wire, &turns, ApprovalMode::Ask).await;
        std::fs::write(h.dir.path().join("code.txt"), &old).unwrap();
        h.send(Op::UserMessage { text: "go".into() });
        let (id, hash) = h.approval().await;
        let approve = |hunks: Vec<u32>, preview_hash: &str| Op::ApproveHunks {
            call_id: id.clone(),
            preview_hash: preview_hash.to_owned(),
            hunks,
        };
        let none = h.refused(approve(vec![], &hash)).await;
        assert!(none.contains("no hunk was chosen"), "{none}");
        let missing = h.refused(approve(vec![0, 3], &hash)).await;
        assert!(missing.contains("no hunk 3"), "{missing}");
        // As many indices as hunks, one of them not a hunk: not a whole approval.
        let missing = h.refused(approve(vec![0, 1, 7], &hash)).await;
        assert!(missing.contains("no hunk 7"), "{missing}");
        let stale = h.refused(approve(vec![0], "stale")).await;
        assert!(stale.contains("preview changed"), "{stale}");
        assert_eq!(
            h.file("code.txt"),
            old,
            "nothing is written until a choice is made"
        );

        h.send(approve(vec![2, 0], &hash));
        assert!(h.end().await.is_success());
        let written = old
            .replace("line 2\n", "line two\n")
            .replace("line 28\n", "line twenty-eight\n");
        assert_eq!(h.file("code.txt"), written);
        let (state, result) = h.finished(&id).unwrap();
        assert_eq!(state, CallState::Succeeded);
        assert!(
            result.contains("hunks 1, 3 of 3 were written and the other 1 left out"),
            "{result}"
        );
        let next = h.request_text(1);
        assert!(
            next.contains("-line fifteen") && next.contains("+line 15"),
            "the model sees what was left out: {next}"
        );
        // The card's diff is now what the file got: two hunks, not three.
        let shown = h.card_diff(&id).unwrap();
        assert_eq!((shown.hunks.len(), shown.added, shown.removed), (2, 2, 2));
        assert_eq!(shown.path, "code.txt");
        // And the change undoes to what the file had before.
        h.undo(&id).await.unwrap();
        assert_eq!(h.file("code.txt"), old);
    }
}

#[tokio::test]
async fn a_file_that_is_not_utf8_is_not_approved_in_part() {
    let mut old: Vec<u8> = (1..=30)
        .flat_map(|i| format!("line {i}\n").into_bytes())
        .collect();
    old.extend_from_slice(b"bytes \xff\xfe\n");
    let proposed: String = (1..=30)
        .map(|i| match i {
            2 => "line two\n".to_owned(),
            28 => "line twenty-eight\n".to_owned(),
            _ => format!("line {i}\n"),
        })
        .collect();
    let turns = vec![
        vec![
            read("r", "bin.txt"),
            call(
                "w1",
                "write",
                json!({"path": "bin.txt", "content": proposed}),
            ),
        ],
        done("d"),
    ];
    let mut h = start(Wire::Anthropic, &turns, ApprovalMode::Ask).await;
    std::fs::write(h.dir.path().join("bin.txt"), &old).unwrap();
    h.send(Op::UserMessage { text: "go".into() });
    let (id, hash) = h.approval().await;
    let refused = h
        .refused(Op::ApproveHunks {
            call_id: id.clone(),
            preview_hash: hash,
            hunks: vec![0],
        })
        .await;
    assert!(refused.contains("not UTF-8"), "{refused}");
    assert_eq!(std::fs::read(h.dir.path().join("bin.txt")).unwrap(), old);
    h.send(Op::Reject {
        call_id: id,
        feedback: None,
    });
    assert!(h.end().await.is_success());
}

#[tokio::test]
async fn approving_every_hunk_is_a_plain_approval() {
    let old: String = (1..=20).map(|i| format!("line {i}\n")).collect();
    let proposed = old
        .replace("line 1\n", "one\n")
        .replace("line 20\n", "twenty\n");
    let turns = vec![
        vec![
            read("r", "code.txt"),
            call(
                "e1",
                "write",
                json!({"path": "code.txt", "content": proposed}),
            ),
        ],
        done("d"),
    ];
    let mut h = start(Wire::Anthropic, &turns, ApprovalMode::Ask).await;
    std::fs::write(h.dir.path().join("code.txt"), &old).unwrap();
    h.send(Op::UserMessage { text: "go".into() });
    let (id, hash) = h.approval().await;
    h.send(Op::ApproveHunks {
        call_id: id.clone(),
        preview_hash: hash,
        hunks: vec![1, 0, 1],
    });
    assert!(h.end().await.is_success());
    assert_eq!(h.file("code.txt"), proposed);
    let (_, result) = h.finished(&id).unwrap();
    assert!(!result.contains("part of your change"), "{result}");
}

#[tokio::test]
async fn a_stale_hash_is_refused_and_a_changed_file_is_re_sent() {
    let turns = vec![
        vec![
            read("r", "notes.txt"),
            call(
                "e1",
                "edit",
                json!({"path": "notes.txt", "old_string": "beta", "new_string": "BETA"}),
            ),
        ],
        done("d"),
    ];
    let mut h = start(Wire::Anthropic, &turns, ApprovalMode::Ask).await;
    h.send(Op::UserMessage { text: "go".into() });
    let (id, old_hash) = h.approval().await;
    h.send(Op::Approve {
        call_id: id.clone(),
        preview_hash: "not-the-hash".into(),
        scope: ApprovalScope::Once,
    });
    h.until(|m| matches!(m, EventMsg::ApprovalRefused { .. }))
        .await;
    // The file changes on disk while the request waits: a new request with a new hash.
    std::fs::write(h.dir.path().join("notes.txt"), "alpha\nbeta\nextra\n").unwrap();
    let (_, new_hash) = h.approval().await;
    assert_ne!(old_hash, new_hash);
    h.send(Op::Approve {
        call_id: id.clone(),
        preview_hash: old_hash,
        scope: ApprovalScope::Once,
    });
    h.until(|m| matches!(m, EventMsg::ApprovalRefused { .. }))
        .await;
    h.send(Op::Approve {
        call_id: id.clone(),
        preview_hash: new_hash,
        scope: ApprovalScope::Once,
    });
    assert!(h.end().await.is_success());
    // The approved call ran against the changed file; the stale-read guard told the model to
    // read it again instead of editing blind.
    let (state, result) = h.finished(&id).unwrap();
    assert_eq!(state, CallState::Failed);
    assert!(result.to_lowercase().contains("changed"), "{result}");
    assert_eq!(h.file("notes.txt"), "alpha\nbeta\nextra\n");
}

/// Waits for a re-sent request of `id` whose preview satisfies `pred`; gives its hash.
async fn resent(
    h: &mut Harness,
    id: &str,
    pred: impl Fn(&foreman_core::protocol::FilePreview) -> bool,
) -> String {
    match h
        .until(|m| {
            matches!(m, EventMsg::ApprovalRequested { call_id, preview: Some(p), .. }
                if call_id == id && pred(p))
        })
        .await
    {
        EventMsg::ApprovalRequested { preview_hash, .. } => preview_hash,
        _ => unreachable!(),
    }
}

/// The paths of every `FilesChanged` seen so far.
fn changed_paths(h: &Harness) -> Vec<String> {
    h.seen
        .iter()
        .filter_map(|e| match &e.msg {
            EventMsg::FilesChanged { paths, more } => {
                assert_eq!(*more, 0);
                Some(paths.clone())
            }
            _ => None,
        })
        .flatten()
        .collect()
}

/// A session that reads notes.txt and asks to replace it with "gamma"; polling is off in effect
/// (once an hour), so only the watcher can notice the file changing.
async fn waiting_write() -> (Harness, String, String) {
    let turns = [
        vec![
            read("r", "notes.txt"),
            call(
                "w",
                "write",
                json!({"path": "notes.txt", "content": "gamma\n"}),
            ),
        ],
        done("d"),
    ];
    let responses = turns
        .iter()
        .map(|t| ScriptedResponse::sse(body(Wire::Anthropic, t)))
        .collect();
    let mut h = start_with(Wire::Anthropic, responses, |c| {
        c.approval_mode = ApprovalMode::Ask;
        c.preview_poll = Duration::from_secs(3600);
    })
    .await;
    h.send(Op::UserMessage { text: "go".into() });
    let (id, hash) = h.approval().await;
    assert_eq!(id, "w");
    (h, id, hash)
}

#[tokio::test]
async fn the_watcher_re_sends_a_waiting_approval_when_its_file_changes() {
    let (mut h, id, old_hash) = waiting_write().await;
    std::fs::write(h.dir.path().join("notes.txt"), "alpha\nbeta\nextra\n").unwrap();
    // alpha, beta and extra go, gamma comes.
    let new_hash = resent(&mut h, &id, |p| p.lines_removed == 3 && p.lines_added == 1).await;
    assert_ne!(old_hash, new_hash);
    assert!(changed_paths(&h).contains(&"notes.txt".to_owned()));
    h.send(Op::Approve {
        call_id: id.clone(),
        preview_hash: old_hash,
        scope: ApprovalScope::Once,
    });
    match h
        .until(|m| matches!(m, EventMsg::ApprovalRefused { .. }))
        .await
    {
        EventMsg::ApprovalRefused { reason, .. } => assert!(reason.contains(&new_hash), "{reason}"),
        _ => unreachable!(),
    }
    h.send(Op::Approve {
        call_id: id.clone(),
        preview_hash: new_hash,
        scope: ApprovalScope::Once,
    });
    assert!(h.end().await.is_success());
    // The approved call ran; the model had not read the new content, so the stale-read guard
    // refused to overwrite it blind and told the model to read again.
    let (state, result) = h.finished(&id).unwrap();
    assert_eq!(state, CallState::Failed);
    assert!(result.contains("STALE_READ"), "{result}");
    assert_eq!(h.file("notes.txt"), "alpha\nbeta\nextra\n");
}

#[tokio::test]
async fn a_target_deleted_while_waiting_is_re_sent_and_the_new_hash_writes() {
    let (mut h, id, old_hash) = waiting_write().await;
    std::fs::remove_file(h.dir.path().join("notes.txt")).unwrap();
    let new_hash = resent(&mut h, &id, |p| p.created).await;
    assert_ne!(old_hash, new_hash);
    h.send(Op::Approve {
        call_id: id.clone(),
        preview_hash: old_hash,
        scope: ApprovalScope::Once,
    });
    h.until(|m| matches!(m, EventMsg::ApprovalRefused { .. }))
        .await;
    assert_eq!(h.file("notes.txt"), "", "a refused answer writes nothing");
    h.send(Op::Approve {
        call_id: id.clone(),
        preview_hash: new_hash,
        scope: ApprovalScope::Once,
    });
    assert!(h.end().await.is_success());
    assert_eq!(h.finished(&id).unwrap().0, CallState::Succeeded);
    assert_eq!(h.file("notes.txt"), "gamma\n");
}

#[tokio::test]
async fn files_changed_reports_workspace_changes_but_not_ignored_ones() {
    let mut h = start_with(Wire::Anthropic, Vec::new(), |c| {
        std::fs::write(c.workspace.join(".gitignore"), "*.log\nbuild/\n").unwrap();
        std::fs::create_dir_all(c.workspace.join(".git")).unwrap();
        std::fs::create_dir_all(c.workspace.join("build")).unwrap();
        std::fs::create_dir_all(c.workspace.join("src")).unwrap();
    })
    .await;
    h.until(|m| matches!(m, EventMsg::SessionStarted { .. }))
        .await;
    let root = h.dir.path().to_path_buf();
    // The ignored ones first: were they reported, it would be no later than the others.
    std::fs::write(root.join("debug.log"), "x").unwrap();
    std::fs::write(root.join(".git/index"), "x").unwrap();
    std::fs::write(root.join("build/out.o"), "x").unwrap();
    std::fs::write(root.join("notes.txt"), "changed\n").unwrap();
    std::fs::write(root.join("src/new.rs"), "fn f() {}\n").unwrap();
    loop {
        h.until(|m| matches!(m, EventMsg::FilesChanged { .. }))
            .await;
        let paths = changed_paths(&h);
        if ["notes.txt", "src/new.rs"]
            .iter()
            .all(|p| paths.iter().any(|q| q == p))
        {
            break;
        }
    }
    let paths = changed_paths(&h);
    for ignored in ["debug.log", ".git/index", "build/out.o"] {
        assert!(!paths.iter().any(|p| p == ignored), "{ignored}: {paths:?}");
    }
}

#[tokio::test]
async fn without_watching_a_waiting_approval_is_re_checked_by_polling() {
    let turns = [
        vec![
            read("r", "notes.txt"),
            call(
                "w",
                "write",
                json!({"path": "notes.txt", "content": "gamma\n"}),
            ),
        ],
        done("d"),
    ];
    let responses = turns
        .iter()
        .map(|t| ScriptedResponse::sse(body(Wire::Anthropic, t)))
        .collect();
    let mut h = start_with(Wire::Anthropic, responses, |c| {
        c.approval_mode = ApprovalMode::Ask;
        c.watch_debounce = None;
    })
    .await;
    h.send(Op::UserMessage { text: "go".into() });
    let (id, old_hash) = h.approval().await;
    std::fs::write(h.dir.path().join("notes.txt"), "alpha\nbeta\nextra\n").unwrap();
    let new_hash = resent(&mut h, &id, |p| p.lines_removed == 3).await;
    assert_ne!(old_hash, new_hash);
    assert!(
        changed_paths(&h).is_empty(),
        "not watching: no FilesChanged"
    );
    h.send(Op::Cancel);
    assert_eq!(h.end().await, TaskEndReason::Cancelled);
}

#[tokio::test]
async fn always_allow_adds_a_rule_that_skips_the_next_question() {
    let turns = vec![
        vec![call("b1", "bash", json!({"command": "echo one"}))],
        vec![call("b2", "bash", json!({"command": "echo two"}))],
        done("d"),
    ];
    let mut h = start(Wire::OpenAi, &turns, ApprovalMode::Ask).await;
    h.send(Op::UserMessage { text: "go".into() });
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
    h.send(Op::UserMessage { text: "go".into() });
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
        h.send(Op::UserMessage {
            text: "look".into(),
        });
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
            call(
                "w1",
                "write",
                json!({"path": "x.txt", "content": "y".repeat(4000)}),
            ),
        ];
        let slow = ScriptedResponse::sse(body(wire, &steps))
            .split(foreman_core::testing::sse_server::Split::Every(64))
            .piece_delay(Duration::from_millis(20));
        let mut h = start_with(wire, vec![slow], |c| c.approval_mode = ApprovalMode::Yolo).await;
        h.send(Op::UserMessage { text: "go".into() });
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

/// A front end that attaches while a task runs (a reloaded window) learns of the person's
/// messages still waiting for the next turn, which the stored transcript does not have yet; and
/// every front end learns when each message joins the conversation.
#[tokio::test]
async fn messages_sent_while_a_task_runs_wait_are_listed_in_a_snapshot_and_announced_as_they_join()
{
    let turns = [
        vec![call(
            "w1",
            "write",
            json!({"path": "a.txt", "content": "a\n"}),
        )],
        done("d1"),
    ];
    let responses = turns
        .iter()
        .map(|t| ScriptedResponse::sse(body(Wire::Anthropic, t)))
        .collect();
    // As a resumed session whose transcript shows two messages of the person.
    let mut h = start_with(Wire::Anthropic, responses, |c| c.person_messages = 2).await;
    h.send(Op::UserMessage { text: "go".into() });
    let (call_id, preview_hash) = h.approval().await;
    for text in ["first after", "second after"] {
        h.send(Op::UserMessage { text: text.into() });
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
            EventMsg::UserMessageTaken { text, number } => Some(format!("taken {number} {text}")),
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

/// Stopping a task gives the person back what they sent meanwhile instead of running it: the
/// model never reads it, and no new task starts on its own after Stop.
#[tokio::test]
async fn stopping_a_task_returns_the_waiting_messages_instead_of_running_them() {
    let turns = vec![
        vec![call(
            "w1",
            "write",
            json!({"path": "a.txt", "content": "a\n"}),
        )],
        done("d1"),
    ];
    let mut h = start(Wire::OpenAi, &turns, ApprovalMode::Ask).await;
    h.send(Op::UserMessage { text: "go".into() });
    h.approval().await;
    h.send(Op::UserMessage {
        text: "then this".into(),
    });
    h.send(Op::Cancel);
    assert_eq!(h.end().await, TaskEndReason::Cancelled);
    assert_eq!(
        h.until(|m| matches!(m, EventMsg::QueuedMessagesReturned { .. }))
            .await,
        EventMsg::QueuedMessagesReturned {
            texts: vec!["then this".into()]
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

/// The person takes back one waiting message: it is given back at once and the model never reads
/// it; the others still join. Two waiting messages may say the same; the one at the place the
/// front end named goes, or the first with that text when the place is out of date.
#[tokio::test]
async fn a_waiting_message_taken_back_is_returned_and_never_read() {
    let turns = [
        vec![call(
            "w1",
            "write",
            json!({"path": "a.txt", "content": "a\n"}),
        )],
        done("d1"),
    ];
    let mut h = start(Wire::OpenAi, &turns, ApprovalMode::Ask).await;
    h.send(Op::UserMessage { text: "go".into() });
    let (call_id, preview_hash) = h.approval().await;
    for text in ["twin note", "other note", "twin note", "drop me"] {
        h.send(Op::UserMessage { text: text.into() });
    }
    let returned = |text: &str| EventMsg::QueuedMessagesReturned {
        texts: vec![text.into()],
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

/// After Stop, until the stopped task has ended, the person still sees the messages that waited
/// and may take one back: it comes back at once, the others after the task ends; and a message
/// sent after the Stop with the same text (the next request) stays.
#[tokio::test]
async fn a_message_the_stop_holds_can_be_taken_back_before_the_task_ends() {
    let turns = vec![
        vec![call("b1", "bash", json!({"command": "sleep 30"}))],
        done("d1"),
    ];
    let mut h = start(Wire::Anthropic, &turns, ApprovalMode::Yolo).await;
    h.send(Op::UserMessage { text: "go".into() });
    h.until_executing().await;
    for text in ["keep me", "same words"] {
        h.send(Op::UserMessage { text: text.into() });
    }
    h.send(Op::Cancel);
    h.send(Op::UserMessage {
        text: "same words".into(),
    });
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
            EventMsg::QueuedMessagesReturned { texts } => answers.push(texts),
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
            number: 1
        }
    );
    assert!(h.end().await.is_success());
}

/// A response that sends `said` as the answer's text and then drops the connection.
fn cut_after(wire: Wire, said: &str) -> ScriptedResponse {
    let whole = body(wire, &[text(said)]);
    let delta = whole.find(said).unwrap();
    let dropped_at = delta + whole[delta..].find("\n\n").unwrap() + 2;
    ScriptedResponse::sse(whole).drop_after(dropped_at)
}

/// A stream that drops in the middle of the answer ends the task with an error the person can
/// retry: `retry` runs the model again on the conversation as it stands, with what arrived kept,
/// the model told it was cut off, and no new message of the person.
#[tokio::test]
async fn a_dropped_answer_can_be_retried_and_keeps_what_arrived() {
    for wire in BOTH {
        let responses = vec![
            cut_after(wire, "Half of the answer"),
            ScriptedResponse::sse(body(wire, &done("d1"))),
        ];
        let mut h = start_with(wire, responses, |_| {}).await;
        h.send(Op::UserMessage { text: "go".into() });
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
        // The retry is not a message of the person's.
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
    h.send(Op::UserMessage { text: "go".into() });
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
    h.send(Op::UserMessage {
        text: "next".into(),
    });
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
        ScriptedResponse::sse(body(
            wire,
            &[call(
                "w1",
                "write",
                json!({"path": "new.txt", "content": "one\n"}),
            )],
        )),
        cut_after(wire, "Next I will"),
        ScriptedResponse::sse(body(wire, &done("d1"))),
    ];
    let mut h = start_with(wire, responses, |c| c.approval_mode = ApprovalMode::Yolo).await;
    h.send(Op::UserMessage { text: "go".into() });
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

/// A session whose task runs a long command with `waiting` queued for its next turn, just
/// stopped: the command is still being ended when this returns.
async fn stopping_with_waiting(waiting: &str) -> Harness {
    let turns = vec![
        vec![call("b1", "bash", json!({"command": "sleep 30"}))],
        done("d1"),
    ];
    let mut h = start(Wire::Anthropic, &turns, ApprovalMode::Yolo).await;
    h.send(Op::UserMessage { text: "go".into() });
    h.until_executing().await;
    h.send(Op::UserMessage {
        text: waiting.into(),
    });
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
            texts: vec!["held by the stop".into()]
        }
    );
}

/// A message sent right after Stop, while the stopped command is still being ended, is the
/// person's next request: it is not given back with the ones that waited before the Stop.
#[tokio::test]
async fn a_message_sent_after_stop_starts_the_next_task() {
    let mut h = stopping_with_waiting("sent before the stop").await;
    h.send(Op::UserMessage {
        text: "sent after the stop".into(),
    });
    assert_eq!(h.end().await, TaskEndReason::Cancelled);
    assert_eq!(
        h.until(|m| matches!(m, EventMsg::QueuedMessagesReturned { .. }))
            .await,
        EventMsg::QueuedMessagesReturned {
            texts: vec!["sent before the stop".into()]
        }
    );
    assert_eq!(
        h.until(|m| matches!(m, EventMsg::UserMessageTaken { .. }))
            .await,
        EventMsg::UserMessageTaken {
            text: "sent after the stop".into(),
            number: 1
        }
    );
    assert!(h.end().await.is_success());
    let second = h.request_text(1);
    assert!(second.contains("sent after the stop"), "{second}");
    assert!(!second.contains("sent before the stop"), "{second}");
}

#[tokio::test]
async fn cancel_kills_a_running_command() {
    let turns = vec![vec![call("b1", "bash", json!({"command": "sleep 30"}))]];
    let mut h = start(Wire::Anthropic, &turns, ApprovalMode::Yolo).await;
    h.send(Op::UserMessage { text: "go".into() });
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
    h.send(Op::UserMessage {
        text: "loop".into(),
    });
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
        h.send(Op::UserMessage { text: "go".into() });
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
    h.send(Op::UserMessage { text: "go".into() });
    h.until(|m| matches!(m, EventMsg::Paused { .. })).await;
    h.send(Op::Cancel);
    assert_eq!(h.end().await, TaskEndReason::Stopped);
}

#[tokio::test]
async fn a_final_answer_without_tools_ends_the_task() {
    let mut h = start(Wire::Anthropic, &[vec![text("Paris.")]], ApprovalMode::Ask).await;
    h.send(Op::UserMessage {
        text: "capital of France?".into(),
    });
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
    let turns = vec![
        vec![call(
            "w1",
            "write",
            json!({"path": "big.txt", "content": content}),
        )],
        done("d"),
    ];
    let mut h = start(Wire::Anthropic, &turns, ApprovalMode::Yolo).await;
    h.send(Op::UserMessage { text: "go".into() });
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
    h.send(Op::UserMessage { text: "go".into() });
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
    h.send(Op::UserMessage {
        text: "plan it".into(),
    });
    h.end().await;
    let stored: Value = serde_json::from_str(&store.todos(&session.id).await.unwrap()).unwrap();
    assert_eq!(stored, todos);
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
        h.send(Op::UserMessage {
            text: "write two files".into(),
        });
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
        h.send(Op::UserMessage {
            text: "one more".into(),
        });
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

const SONNET: &str = "claude-sonnet-4-5-20250929";

/// An Anthropic response reporting these input and cache tokens and 5 output tokens.
fn priced(steps: &[Step], input: u64, cache_read: u64, cache_write: u64) -> ScriptedResponse {
    ScriptedResponse::sse(scripts::anthropic_with_usage(
        steps,
        7,
        Usage {
            input,
            output: 5,
            cache_read,
            cache_write,
        },
    ))
}

fn assert_cost(summary: &UsageSummary, expected: f64) {
    let cost = summary.cost_usd.expect("a priced model has a cost");
    assert!((cost - expected).abs() < 1e-12, "{cost} vs {expected}");
}

/// A session on `model` with `store`, resuming `session_id` when it has history there.
async fn start_stored(
    model: &str,
    store: &Store,
    session_id: &str,
    responses: Vec<ScriptedResponse>,
) -> Harness {
    let history = open_session(store, "/w", Some(session_id))
        .await
        .unwrap()
        .unwrap()
        .1;
    let (model, store, id) = (model.to_owned(), store.clone(), session_id.to_owned());
    start_with(Wire::Anthropic, responses, move |c| {
        c.model = model;
        c.context_window = 100_000;
        c.approval_mode = ApprovalMode::Ask;
        c.store = Some(store);
        c.session_id = Some(id);
        c.history = history;
    })
    .await
}

#[tokio::test]
async fn usage_carries_the_cost_estimate_and_the_context_and_survives_a_resume() {
    let store = Store::open_in_memory().await.unwrap();
    let session = store.create_session("/w", 1).await.unwrap();
    let responses = vec![
        priced(&[read("r", "notes.txt")], 1_200, 0, 30_000),
        priced(&[text("It lists alpha and beta.")], 300, 30_000, 1_500),
    ];
    let mut h = start_stored(SONNET, &store, &session.id, responses).await;
    let started = h
        .until(|m| matches!(m, EventMsg::SessionStarted { .. }))
        .await;
    let EventMsg::SessionStarted { usage, .. } = started else {
        unreachable!()
    };
    assert_eq!(
        usage.cost_usd,
        Some(0.0),
        "nothing spent yet on a priced model"
    );
    assert_eq!((usage.context_used, usage.context_window), (0, 100_000));
    h.send(Op::UserMessage {
        text: "what is in notes.txt?".into(),
    });
    assert!(h.end().await.is_success());
    let reported: Vec<(u64, u64, UsageSummary)> = h
        .seen
        .iter()
        .filter_map(|e| match &e.msg {
            EventMsg::Usage {
                input,
                cache_read,
                session,
                ..
            } => Some((*input, *cache_read, *session)),
            _ => None,
        })
        .collect();
    assert_eq!(reported.len(), 2);
    // Sonnet 4.5 list prices per million tokens: $3 input, $15 output, $0.30 cache read,
    // $3.75 cache write.
    let first = (1_200.0 * 3.0 + 5.0 * 15.0 + 30_000.0 * 3.75) / 1e6;
    let second = (300.0 * 3.0 + 5.0 * 15.0 + 30_000.0 * 0.3 + 1_500.0 * 3.75) / 1e6;
    let (input, cache_read, one) = reported[0];
    assert_eq!((input, cache_read), (1_200, 0));
    assert_cost(&one, first);
    assert_eq!((one.total_input, one.total_output), (1_200, 5));
    assert_eq!(one.context_used, 1_200 + 30_000);
    assert_eq!(one.context_window, 100_000);
    let (_, _, two) = reported[1];
    assert_cost(&two, first + second);
    assert_eq!((two.total_input, two.total_output), (1_500, 10));
    assert_eq!(
        two.context_used,
        300 + 30_000 + 1_500,
        "the last request, not a sum"
    );
    h.send(Op::Shutdown);
    h.until(|m| matches!(m, EventMsg::ShutdownComplete)).await;

    // Resumed, the session starts where it stopped: the same totals, cost and context.
    let mut resumed = start_stored(SONNET, &store, &session.id, Vec::new()).await;
    let EventMsg::SessionStarted { usage, .. } = resumed
        .until(|m| matches!(m, EventMsg::SessionStarted { .. }))
        .await
    else {
        unreachable!()
    };
    assert_eq!(
        (usage.total_input, usage.total_output, usage.context_used),
        (1_500, 10, 31_800)
    );
    assert_cost(&usage, first + second);
    resumed.send(Op::Snapshot);
    let EventMsg::Snapshot {
        usage: snapshot, ..
    } = resumed
        .until(|m| matches!(m, EventMsg::Snapshot { .. }))
        .await
    else {
        unreachable!()
    };
    assert_eq!(snapshot, usage);
    resumed.send(Op::Shutdown);
    resumed
        .until(|m| matches!(m, EventMsg::ShutdownComplete))
        .await;

    // Resumed on a model without a price, the cost is unknown, never $0.
    let mut local = start_stored("local-llama", &store, &session.id, Vec::new()).await;
    let EventMsg::SessionStarted { usage, .. } = local
        .until(|m| matches!(m, EventMsg::SessionStarted { .. }))
        .await
    else {
        unreachable!()
    };
    assert_eq!(usage.cost_usd, None);
    assert_eq!((usage.total_input, usage.context_used), (1_500, 31_800));
}

/// The session's system prompt in estimated tokens, so a test can size a tiny context window.
fn system_tokens(workspace: &std::path::Path) -> usize {
    use foreman_core::agent::context_window::estimate_conversation;
    use foreman_core::agent::prompt::{default_shell, system_prompt};
    estimate_conversation(&system_prompt(workspace, &default_shell()), &[])
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
        c.context_window = system_tokens(&c.workspace) + 800;
        c.context_reserve = 0;
        c.store = Some(store_for_config);
        c.session_id = Some(id);
    })
    .await;
    h.send(Op::UserMessage {
        text: old_user.clone(),
    });
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
        .position(|e| matches!(e.msg, EventMsg::ContextCompacting { messages: 3, .. }))
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
    assert_eq!(compacted, (0, 3, true));

    // The store keeps the old messages, marked, and the summary in their place.
    let stored = store.load_messages(&session.id).await.unwrap();
    let compacted: Vec<bool> = stored.iter().map(|m| m.compacted).collect();
    assert_eq!(&compacted[..4], [true, true, true, false]);
    assert!(compacted[4..].iter().all(|c| !c));
    assert_eq!(stored[3].role, foreman_core::store::SUMMARY_ROLE);
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
                removed_messages: 3,
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
    resumed.send(Op::UserMessage {
        text: "and now?".into(),
    });
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
        c.context_window = system_tokens(&c.workspace) + 800;
        c.context_reserve = 0;
        c.store = Some(store_for_config);
        c.session_id = Some(id);
    })
    .await;
    h.send(Op::UserMessage {
        text: "y".repeat(2000),
    });
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
    assert_eq!(stored.len(), 5, "user, two assistant turns, two results");
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
    h.send(Op::UserMessage {
        text: old_user.clone(),
    });
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
    h.send(Op::UserMessage {
        text: "y".repeat(2000),
    });
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

// --- new_task: sub-agents -------------------------------------------------------------------

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
        c.context_window = system_tokens(&c.workspace) + 800;
        c.context_reserve = 0;
        c.approval_mode = ApprovalMode::Yolo;
        c.store = Some(store_for_config);
        c.session_id = Some(id);
    })
    .await;
    h.send(Op::UserMessage { text: "go".into() });
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
        5,
        "user, new_task, its result, completion, its result"
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
            vec![call(
                "c2",
                "write",
                json!({"path": "copy.txt", "content": "alpha\nbeta\n"}),
            )],
            vec![call(
                "c3",
                "attempt_completion",
                json!({"result": "copied notes.txt to copy.txt"}),
            )],
            // The parent gets the summary and completes.
            done("d"),
        ];
        let mut h = start(wire, &turns, ApprovalMode::Ask).await;
        h.send(Op::UserMessage { text: "go".into() });
        let (id, hash) = h.approval().await;
        assert_eq!(id, "c2", "{wire:?}");
        assert_eq!(
            h.seen.last().unwrap().parent_call_id.as_deref(),
            Some("t1"),
            "the child's approval request names the new_task call"
        );
        // A snapshot while the child waits reports the session's history (the person's message
        // and the parent's answer with the new_task call), not the child's.
        h.send(Op::Snapshot);
        let snapshot = h.until(|m| matches!(m, EventMsg::Snapshot { .. })).await;
        let EventMsg::Snapshot { messages, .. } = snapshot else {
            unreachable!()
        };
        assert_eq!(messages, 2, "{wire:?}");
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
        // One task for the person; the child's requests count into the session's usage.
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
    h.send(Op::UserMessage { text: "go".into() });
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
    h.send(Op::UserMessage { text: "go".into() });
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
        5,
        "user, new_task, its result, completion, its result"
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

// --- undo_change: the person undoes a file change -------------------------------------------

impl Harness {
    /// The undo state announced last for `id`.
    fn undo_of(&self, id: &str) -> Option<UndoState> {
        self.seen.iter().rev().find_map(|e| match &e.msg {
            EventMsg::UndoChanged { call_id, undo } if call_id == id => Some(*undo),
            _ => None,
        })
    }

    async fn undo(&mut self, id: &str) -> Result<(), String> {
        self.send(Op::UndoChange { call_id: id.into() });
        match self
            .until(|m| {
                matches!(
                    m,
                    EventMsg::UndoChanged {
                        undo: UndoState::Done,
                        ..
                    } | EventMsg::UndoRefused { .. }
                )
            })
            .await
        {
            EventMsg::UndoRefused { reason, .. } => Err(reason),
            _ => Ok(()),
        }
    }
}

#[tokio::test]
async fn the_person_undoes_file_changes_newest_first_also_after_a_restart() {
    let store = Store::open_in_memory().await.unwrap();
    let session = store.create_session("/w", 1).await.unwrap();
    let turns = [
        vec![read("r", "notes.txt")],
        vec![
            call(
                "w",
                "write",
                json!({"path": "notes.txt", "content": "gamma\n"}),
            ),
            call(
                "n",
                "write",
                json!({"path": "new.txt", "content": "made\n"}),
            ),
        ],
        done("d"),
    ];
    let responses: Vec<ScriptedResponse> = turns
        .iter()
        .map(|t| ScriptedResponse::sse(body(Wire::Anthropic, t)))
        .collect();
    let (db, id) = (store.clone(), session.id.clone());
    let mut h = start_with(Wire::Anthropic, responses, move |c| {
        c.approval_mode = ApprovalMode::Yolo;
        c.store = Some(db);
        c.session_id = Some(id);
    })
    .await;
    h.send(Op::UserMessage { text: "go".into() });
    assert!(h.end().await.is_success());
    assert_eq!(
        (h.file("notes.txt"), h.file("new.txt")),
        ("gamma\n".into(), "made\n".into())
    );
    // Each change can be undone; the read cannot.
    assert_eq!(h.undo_of("w"), Some(UndoState::Available));
    assert_eq!(h.undo_of("n"), Some(UndoState::Available));
    assert_eq!(h.undo_of("r"), None);
    assert!(h.undo("r").await.unwrap_err().contains("nothing to undo"));

    // A created file goes.
    h.undo("n").await.unwrap();
    assert!(!h.dir.path().join("new.txt").exists());
    assert_eq!(h.undo_of("n"), Some(UndoState::Done));
    assert!(h.undo("n").await.is_err(), "undone once only");

    // A file changed since is left alone.
    std::fs::write(h.dir.path().join("notes.txt"), "someone's edit\n").unwrap();
    let refused = h.undo("w").await.unwrap_err();
    assert!(
        refused.contains("notes.txt changed after this call"),
        "{refused}"
    );
    assert_eq!(h.file("notes.txt"), "someone's edit\n");

    // Back to what the call left, and after a restart, the undo is still there (stored).
    std::fs::write(h.dir.path().join("notes.txt"), "gamma\n").unwrap();
    h.send(Op::Shutdown);
    h.until(|m| matches!(m, EventMsg::ShutdownComplete)).await;
    let history = open_session(&store, "/w", Some(&session.id))
        .await
        .unwrap()
        .unwrap()
        .1;
    let stored = store.load_tool_calls(&session.id).await.unwrap();
    let undo_of = |id: &str| stored.iter().find(|c| c.call_id == id).unwrap().info["undo"].clone();
    assert_eq!(
        (undo_of("w"), undo_of("n")),
        (json!("available"), json!("done"))
    );
    let workspace = h.dir.path().to_path_buf();
    let (db, id) = (store.clone(), session.id.clone());
    let answer = vec![ScriptedResponse::sse(body(
        Wire::Anthropic,
        &[text("Understood.")],
    ))];
    let mut again = start_with(Wire::Anthropic, answer, move |c| {
        c.approval_mode = ApprovalMode::Yolo;
        c.store = Some(db);
        c.session_id = Some(id);
        c.history = history;
        c.workspace = workspace;
    })
    .await;
    again.undo("w").await.unwrap();
    assert_eq!(
        std::fs::read_to_string(h.dir.path().join("notes.txt")).unwrap(),
        "alpha\nbeta\n"
    );
    // The model is told with its next request; the stored call says it was undone.
    again.send(Op::UserMessage {
        text: "next".into(),
    });
    assert!(again.end().await.is_success());
    let request = again.request_text(0);
    assert!(
        request.contains("I undid the change call w made to `notes.txt`"),
        "{request}"
    );
    // The note about new.txt, undone while idle before the restart, was stored then.
    assert!(
        request.contains("I undid the change call n made to `new.txt`"),
        "{request}"
    );
    let stored = store.load_tool_calls(&session.id).await.unwrap();
    assert_eq!(
        stored.iter().find(|c| c.call_id == "w").unwrap().info["undo"],
        "done"
    );
}

#[tokio::test]
async fn without_a_store_edits_of_one_file_are_undone_newest_first_from_memory() {
    for wire in BOTH {
        let edit = |id: &str, old: &str, new: &str| {
            call(
                id,
                "edit",
                json!({"path": "notes.txt", "old_string": old, "new_string": new}),
            )
        };
        let turns = [
            vec![read("r", "notes.txt")],
            vec![edit("e1", "beta", "BETA")],
            vec![edit("e2", "alpha", "ALPHA")],
            done("d"),
        ];
        let mut h = start(wire, &turns, ApprovalMode::Yolo).await;
        h.send(Op::UserMessage { text: "go".into() });
        assert!(h.end().await.is_success());
        assert_eq!(h.file("notes.txt"), "ALPHA\nBETA\n", "{wire:?}");
        // The older change first would lose the newer one: refused.
        let refused = h.undo("e1").await.unwrap_err();
        assert!(refused.contains("changed after this call"), "{refused}");
        assert_eq!(h.file("notes.txt"), "ALPHA\nBETA\n");
        h.undo("e2").await.unwrap();
        assert_eq!(h.file("notes.txt"), "alpha\nBETA\n", "{wire:?}");
        h.undo("e1").await.unwrap();
        assert_eq!(h.file("notes.txt"), "alpha\nbeta\n", "{wire:?}");
        assert_eq!(h.undo_of("e1"), Some(UndoState::Done));
    }
}

#[tokio::test]
async fn only_the_newest_changes_of_a_file_can_be_undone() {
    let writes: Vec<Vec<Step>> = (0..=KEPT_PER_FILE)
        .map(|n| {
            vec![call(
                &format!("w{n}"),
                "write",
                json!({"path": "log.txt", "content": format!("version {n}\n")}),
            )]
        })
        .chain([done("d")])
        .collect();
    let mut h = start(Wire::Anthropic, &writes, ApprovalMode::Yolo).await;
    h.send(Op::UserMessage { text: "go".into() });
    assert!(h.end().await.is_success());
    // The first of the 11 writes is no longer kept; the other 10 are.
    assert_eq!(h.undo_of("w0"), Some(UndoState::Expired));
    assert_eq!(h.undo_of("w1"), Some(UndoState::Available));
    assert!(h.undo("w0").await.unwrap_err().contains("nothing to undo"));
    for n in (1..=KEPT_PER_FILE).rev() {
        h.undo(&format!("w{n}")).await.unwrap();
    }
    assert_eq!(h.file("log.txt"), "version 0\n");
}

#[tokio::test]
async fn undo_hunks_puts_back_part_of_a_change_and_the_rest_undoes_later() {
    let old: String = (1..=30).map(|i| format!("line {i}\n")).collect();
    let proposed = old
        .replace("line 2\n", "line two\n")
        .replace("line 15\n", "line fifteen\n")
        .replace("line 28\n", "line twenty-eight\n");
    let turns = vec![
        vec![
            read("r", "code.txt"),
            call(
                "w1",
                "write",
                json!({"path": "code.txt", "content": proposed}),
            ),
        ],
        done("d"),
        vec![text("Noted.")],
    ];
    let mut h = start(Wire::Anthropic, &turns, ApprovalMode::Yolo).await;
    std::fs::write(h.dir.path().join("code.txt"), &old).unwrap();
    h.send(Op::UserMessage { text: "go".into() });
    assert!(h.end().await.is_success());
    assert_eq!(h.file("code.txt"), proposed);
    let shown = h.card_diff("w1").unwrap();
    assert_eq!(
        shown.hunks.len(),
        3,
        "the auto-approved write's card has its diff"
    );
    let middle = shown.hunks[1].reference();

    // Someone else changed the file: nothing is undone.
    std::fs::write(h.dir.path().join("code.txt"), format!("{proposed}extra\n")).unwrap();
    h.send(Op::UndoHunks {
        call_id: "w1".into(),
        hunks: vec![middle.clone()],
    });
    let refused = h.until(|m| matches!(m, EventMsg::UndoRefused { .. })).await;
    assert!(
        format!("{refused:?}").contains("changed since"),
        "{refused:?}"
    );
    std::fs::write(h.dir.path().join("code.txt"), &proposed).unwrap();

    h.send(Op::UndoHunks {
        call_id: "w1".into(),
        hunks: vec![middle.clone()],
    });
    h.until(|m| matches!(m, EventMsg::ToolCallUpdated { call_id, preview: Some(p), .. } if call_id == "w1" && p.diff.as_ref().is_some_and(|d| d.hunks.len() == 2)))
        .await;
    assert_eq!(
        h.file("code.txt"),
        proposed.replace("line fifteen\n", "line 15\n")
    );
    // The card says part of its change was undone; the rest still undoes.
    assert_eq!(
        h.until(|m| matches!(m, EventMsg::UndoChanged { .. })).await,
        EventMsg::UndoChanged {
            call_id: "w1".into(),
            undo: UndoState::Partly
        }
    );
    // A range that is no longer a hunk of the change is refused.
    h.send(Op::UndoHunks {
        call_id: "w1".into(),
        hunks: vec![middle.clone()],
    });
    let refused = h.until(|m| matches!(m, EventMsg::UndoRefused { .. })).await;
    assert!(
        format!("{refused:?}").contains("no longer matches"),
        "{refused:?}"
    );

    // The model hears of it with the next message.
    h.send(Op::UserMessage {
        text: "and now?".into(),
    });
    h.end().await;
    let next = h.request_text(2);
    assert!(
        next.contains("made to `code.txt` in part: hunk 2 of its 3 is as before that call again"),
        "{next}"
    );
    // The rest of the change still undoes whole, back to the file before the call.
    h.undo("w1").await.unwrap();
    assert_eq!(h.file("code.txt"), old);
    assert_eq!(h.undo_of("w1"), Some(UndoState::Done));
}

#[tokio::test]
async fn a_large_overwrite_without_a_question_sends_no_second_copy_as_a_diff() {
    let old: String = (0..4000)
        .map(|i| format!("old line {i} with some text\n"))
        .collect();
    let content: String = (0..4000)
        .map(|i| format!("new line {i} with other text\n"))
        .collect();
    let turns = vec![
        vec![
            read("r", "big.txt"),
            call(
                "w1",
                "write",
                json!({"path": "big.txt", "content": content}),
            ),
        ],
        done("d"),
    ];
    let mut h = start(Wire::Anthropic, &turns, ApprovalMode::Yolo).await;
    std::fs::write(h.dir.path().join("big.txt"), &old).unwrap();
    h.send(Op::UserMessage { text: "go".into() });
    assert!(h.end().await.is_success());
    assert_eq!(h.file("big.txt"), content);
    let mut bytes = 0usize;
    for e in &h.seen {
        if let EventMsg::ToolCallUpdated {
            call_id, preview, ..
        } = &e.msg
            && call_id == "w1"
        {
            bytes += serde_json::to_string(e).unwrap().len();
            assert!(
                preview.as_ref().is_none_or(|p| p.diff.is_none()),
                "no diff sent"
            );
        }
    }
    assert!(
        bytes < content.len() * 3 / 2,
        "{bytes} bytes for {}",
        content.len()
    );
    // The change can still be undone.
    h.undo("w1").await.unwrap();
    assert_eq!(h.file("big.txt"), old);
}
