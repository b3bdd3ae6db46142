//! A file that changes while its approval waits: a stale hash is refused and the request is
//! sent again, noticed by the workspace watcher or, without it, by polling; `FilesChanged`.

use std::time::Duration;

use foreman_core::protocol::{ApprovalMode, ApprovalScope, CallState, EventMsg, Op, TaskEndReason};
use foreman_core::testing::scripts::call;
use foreman_core::testing::sse_server::ScriptedResponse;
use serde_json::json;

use super::common::*;

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
    h.say("go");
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
/// Waits until the session's watcher, started beside the session, reports a change.
async fn until_watching(h: &mut Harness, root: &std::path::Path) {
    for round in 0..100 {
        std::fs::write(root.join("watching.txt"), round.to_string()).unwrap();
        let reported = tokio::time::timeout(
            Duration::from_millis(300),
            h.until(|m| matches!(m, EventMsg::FilesChanged { paths, .. } if paths.iter().any(|p| p == "watching.txt"))),
        )
        .await;
        if reported.is_ok() {
            return;
        }
    }
    panic!("the watcher never reported a change");
}

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
        vec![read("r", "notes.txt"), write("w", "notes.txt", "gamma\n")],
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
    h.say("go");
    let (id, hash) = h.approval().await;
    assert_eq!(id, "w");
    (h, id, hash)
}

#[tokio::test]
async fn the_watcher_re_sends_a_waiting_approval_when_its_file_changes() {
    let (mut h, id, old_hash) = waiting_write().await;
    // On a loaded machine the watcher may start after the approval is asked: only a change it
    // sees proves it re-sent the request.
    let root = h.dir.path().to_path_buf();
    until_watching(&mut h, &root).await;
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
    until_watching(&mut h, &root).await;
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
        vec![read("r", "notes.txt"), write("w", "notes.txt", "gamma\n")],
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
    h.say("go");
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
