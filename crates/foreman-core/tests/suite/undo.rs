//! Undoing file changes: newest first, after a restart, from memory without a store, in part.

use foreman_core::agent::undo_state::KEPT_PER_FILE;
use foreman_core::conversation::open_session;
use foreman_core::protocol::{ApprovalMode, EventMsg, Op, UndoState};
use foreman_core::store::Store;
use foreman_core::testing::scripts::{Step, call, text};
use foreman_core::testing::sse_server::ScriptedResponse;
use serde_json::json;

use super::common::*;

#[tokio::test]
async fn the_user_undoes_file_changes_newest_first_also_after_a_restart() {
    let store = Store::open_in_memory().await.unwrap();
    let session = store.create_session("/w", 1).await.unwrap();
    let turns = [
        vec![read("r", "notes.txt")],
        vec![
            write("w", "notes.txt", "gamma\n"),
            write("n", "new.txt", "made\n"),
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
    h.say("go");
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
        refused.contains("notes.txt changed after this change was made"),
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
    again.say("next");
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
        h.say("go");
        assert!(h.end().await.is_success());
        assert_eq!(h.file("notes.txt"), "ALPHA\nBETA\n", "{wire:?}");
        // The older change first would lose the newer one: refused.
        let refused = h.undo("e1").await.unwrap_err();
        assert!(
            refused.contains("changed after this change was made"),
            "{refused}"
        );
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
    h.say("go");
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
        vec![read("r", "code.txt"), write("w1", "code.txt", &proposed)],
        done("d"),
        vec![text("Noted.")],
    ];
    let mut h = start(Wire::Anthropic, &turns, ApprovalMode::Yolo).await;
    std::fs::write(h.dir.path().join("code.txt"), &old).unwrap();
    h.say("go");
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
    h.say("and now?");
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
        vec![read("r", "big.txt"), write("w1", "big.txt", &content)],
        done("d"),
    ];
    let mut h = start(Wire::Anthropic, &turns, ApprovalMode::Yolo).await;
    std::fs::write(h.dir.path().join("big.txt"), &old).unwrap();
    h.say("go");
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
