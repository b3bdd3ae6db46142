//! Hooks stay with the stored session: a run on a call's card, and one of no call (a message's
//! `UserPromptSubmit`) in the conversation, read back from the store as a reopened window shows
//! them; a window that attaches while the workspace's hooks wait for consent is asked.

use foreman_core::conversation::{TranscriptItem, load_transcript, open_session};
use foreman_core::hooks::HookDirs;
use foreman_core::protocol::{ApprovalMode, EventMsg, HookEvent, HookVerdict, Op};
use foreman_core::store::Store;
use foreman_core::testing::scripts::text;
use foreman_core::testing::sse_server::ScriptedResponse;
use serde_json::json;

use super::common::*;

#[tokio::test]
async fn hook_runs_stay_with_the_stored_session() {
    let store = Store::open_in_memory().await.unwrap();
    let session = store.create_session("/w", 1).await.unwrap();
    let history = open_session(&store, "/w", Some(&session.id))
        .await
        .unwrap()
        .unwrap()
        .1;
    let config = tempfile::tempdir().unwrap();
    std::fs::write(
        config.path().join("hooks.json"),
        json!({"hooks": {
            "UserPromptSubmit": [{"hooks": [{"command": "echo 'Sprint: 42'"}]}],
            "PreToolUse": [{"matcher": "Read", "hooks": [{"command": "true"}]}]
        }})
        .to_string(),
    )
    .unwrap();
    let responses = vec![
        ScriptedResponse::sse(body(Wire::Anthropic, &[read("r", "notes.txt")])),
        ScriptedResponse::sse(body(Wire::Anthropic, &[text("Read it.")])),
    ];
    let (stored, id, dir) = (store.clone(), session.id.clone(), config.path().to_owned());
    let mut h = start_with(Wire::Anthropic, responses, move |c| {
        c.approval_mode = ApprovalMode::Ask;
        c.store = Some(stored);
        c.session_id = Some(id);
        c.history = history;
        c.hooks = Some(HookDirs {
            workspace: c.workspace.clone(),
            home: None,
            config_dir: Some(dir),
        });
    })
    .await;
    h.say("read the notes");
    h.end().await;
    assert!(h.request_text(0).contains("Sprint: 42"));
    h.send(Op::Shutdown);
    h.until(|m| matches!(m, EventMsg::ShutdownComplete)).await;

    let transcript = load_transcript(&store, &session.id).await.unwrap();
    let prompt_runs: Vec<_> = transcript
        .items
        .iter()
        .filter_map(|item| match item {
            TranscriptItem::Hook { run } => Some(run),
            _ => None,
        })
        .collect();
    assert_eq!(prompt_runs.len(), 1, "{:?}", transcript.items);
    assert!(
        matches!(transcript.items[0], TranscriptItem::User { .. })
            && matches!(transcript.items[1], TranscriptItem::Hook { .. }),
        "the message's hook comes after it: {:?}",
        transcript.items
    );
    assert_eq!(prompt_runs[0].event, HookEvent::UserPromptSubmit);
    assert_eq!(prompt_runs[0].verdict, HookVerdict::AddedContext);
    let card = transcript
        .items
        .iter()
        .find_map(|item| match item {
            TranscriptItem::Tool { call } if call.call_id == "r" => Some(call),
            _ => None,
        })
        .unwrap();
    assert_eq!(card.hooks.len(), 1);
    assert_eq!(card.hooks[0].event, HookEvent::PreToolUse);
    // The note the model read is not a message of the user's in the reopened conversation.
    let users = transcript
        .items
        .iter()
        .filter(|i| matches!(i, TranscriptItem::User { .. }))
        .count();
    assert_eq!(users, 1);
}

#[tokio::test]
async fn a_window_that_attaches_is_asked_about_hooks_that_wait() {
    let store = Store::open_in_memory().await.unwrap();
    let stored = store.clone();
    let mut h = start_with(Wire::Anthropic, Vec::new(), move |c| {
        std::fs::create_dir_all(c.workspace.join(".claude")).unwrap();
        std::fs::write(
            c.workspace.join(".claude/settings.json"),
            json!({"hooks": {"Stop": [{"hooks": [{"command": "true"}]}]}}).to_string(),
        )
        .unwrap();
        c.store = Some(stored);
        c.hooks = Some(HookDirs {
            workspace: c.workspace.clone(),
            home: None,
            config_dir: None,
        });
    })
    .await;
    let asked = h
        .until(|m| matches!(m, EventMsg::HooksAwaitConsent { .. }))
        .await;
    let EventMsg::HooksAwaitConsent { view } = asked else {
        unreachable!()
    };
    h.send(Op::Snapshot);
    let snapshot = h.until(|m| matches!(m, EventMsg::Snapshot { .. })).await;
    let EventMsg::Snapshot { hooks_awaiting, .. } = snapshot else {
        unreachable!()
    };
    assert_eq!(hooks_awaiting.as_ref(), Some(&view));
    // Allowed: the next window is not asked.
    h.send(Op::ConsentHooks {
        hash: view.consent_hash.clone().unwrap(),
    });
    h.send(Op::Snapshot);
    let snapshot = h.until(|m| matches!(m, EventMsg::Snapshot { .. })).await;
    let EventMsg::Snapshot { hooks_awaiting, .. } = snapshot else {
        unreachable!()
    };
    assert_eq!(hooks_awaiting, None);
}
