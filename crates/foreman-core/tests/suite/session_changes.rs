//! The session's name and its one count of what it changed in the workspace, through the
//! session: the first message names it at once; a file
//! tool's write, a command's changes and an MCP tool's write (the real server-filesystem) are
//! all counted, an undo takes its file out, and a rewind leaves nothing to count.

use std::time::Duration;

use foreman_core::conversation::open_session;
use foreman_core::mcp::{Backoff, HubOptions, McpHub, ServerSource};
use foreman_core::protocol::{
    ApprovalMode, ApprovalScope, ChangeKind, EventMsg, Op, SessionFileChange,
};
use foreman_core::store::Store;
use foreman_core::testing::scripts::call;
use foreman_core::testing::sse_server::ScriptedResponse;
use serde_json::json;

use super::common::*;
use super::mcp_servers::{config, connected, servers_dir};

type Counted = Vec<(String, ChangeKind, u32, u32)>;

fn counted(files: &[SessionFileChange]) -> Counted {
    files
        .iter()
        .map(|f| (f.path.clone(), f.kind, f.added, f.removed))
        .collect()
}

fn row(path: &str, kind: ChangeKind, added: u32, removed: u32) -> (String, ChangeKind, u32, u32) {
    (path.to_owned(), kind, added, removed)
}

/// The newest count the session sent.
fn last_count(h: &Harness) -> Counted {
    h.seen
        .iter()
        .rev()
        .find_map(|e| match &e.msg {
            EventMsg::SessionChanges { files } => Some(counted(files)),
            _ => None,
        })
        .expect("the session sent its count of changes")
}

#[tokio::test]
async fn file_tools_commands_and_mcp_tools_are_counted_as_one_and_undo_and_rewind_follow() {
    let store_dir = tempfile::tempdir().unwrap();
    let store = Store::open(&store_dir.path().join("foreman.db"))
        .await
        .unwrap();
    let outside = tempfile::tempdir().unwrap();
    let ws_dir = tempfile::tempdir().unwrap();
    let ws = ws_dir.path().canonicalize().unwrap();
    std::fs::write(ws.join("notes.txt"), "alpha\nbeta\n").unwrap();
    std::fs::write(ws.join("old.txt"), "old\nlines\n").unwrap();

    let js = servers_dir().join("server-filesystem/dist/index.js");
    let servers = json!({"mcpServers": {"fs": {"command": "node", "args": [js, ws]}}});
    let options = HubOptions {
        workspace: Some(ws.clone()),
        backoff: Backoff {
            initial: Duration::from_secs(30),
            max: Duration::from_secs(30),
        },
        ..HubOptions::default()
    };
    let hub = McpHub::start(config(servers, ServerSource::User), options)
        .await
        .unwrap();
    connected(&hub, "fs").await;

    let mcp_file = ws.join("mcp.txt").display().to_string();
    let turns = [
        vec![write("w", "tool.txt", "one\ntwo\n")],
        vec![call(
            "b",
            "bash",
            json!({"command": "echo gamma >> notes.txt && rm old.txt"}),
        )],
        vec![call(
            "m",
            "fs__write_file",
            json!({"path": mcp_file, "content": "from mcp\n"}),
        )],
        done("d"),
    ];
    let responses = turns
        .iter()
        .map(|t| ScriptedResponse::sse(body(Wire::Anthropic, t)))
        .collect();
    let session = store
        .create_session(&ws.display().to_string(), 1)
        .await
        .unwrap();
    let history = open_session(&store, &ws.display().to_string(), Some(&session.id))
        .await
        .unwrap()
        .unwrap()
        .1;
    let (s, id, workspace) = (store.clone(), session.id.clone(), ws.clone());
    let checkpoints_dir = outside.path().join("checkpoints");
    let mcp = hub.clone();
    let mut h = start_with(Wire::Anthropic, responses, move |c| {
        c.workspace = workspace;
        c.approval_mode = ApprovalMode::Yolo;
        c.checkpoints_dir = Some(checkpoints_dir);
        c.store = Some(s);
        c.session_id = Some(id);
        c.history = history;
        c.mcp = Some(mcp);
    })
    .await;
    h.say("change things three ways");
    // The filesystem server says its write is destructive: it asks, even in yolo.
    let (call_id, preview_hash) = h.approval().await;
    assert_eq!(call_id, "m");
    // What the file tool and the command changed is counted before the MCP tool runs.
    assert_eq!(
        last_count(&h),
        [
            row("notes.txt", ChangeKind::Modified, 1, 0),
            row("old.txt", ChangeKind::Deleted, 0, 2),
            row("tool.txt", ChangeKind::Added, 2, 0),
        ]
    );
    h.send(Op::Approve {
        call_id,
        preview_hash,
        scope: ApprovalScope::Once,
    });
    assert!(h.end().await.is_success());
    // The first message named the session as it was taken, before the work began.
    let titled = h
        .seen
        .iter()
        .position(|e| matches!(&e.msg, EventMsg::SessionTitled { title } if title == "change things three ways"))
        .expect("the session was named from its first message");
    let taken = h
        .seen
        .iter()
        .position(|e| matches!(e.msg, EventMsg::UserMessageTaken { .. }))
        .unwrap();
    assert!(titled < taken);
    let listed = store
        .list_sessions(&ws.display().to_string())
        .await
        .unwrap();
    assert_eq!(listed[0].title, "change things three ways");
    assert_eq!(
        std::fs::read_to_string(ws.join("mcp.txt")).unwrap(),
        "from mcp\n"
    );
    assert_eq!(
        last_count(&h),
        [
            row("mcp.txt", ChangeKind::Added, 1, 0),
            row("notes.txt", ChangeKind::Modified, 1, 0),
            row("old.txt", ChangeKind::Deleted, 0, 2),
            row("tool.txt", ChangeKind::Added, 2, 0),
        ]
    );

    // The file tool's change is undone: its file is no longer counted.
    h.send(Op::UndoChange {
        call_id: "w".into(),
    });
    h.until(|m| {
        matches!(m, EventMsg::SessionChanges { files } if !files.iter().any(|f| f.path == "tool.txt"))
    })
    .await;
    assert_eq!(last_count(&h).len(), 3);

    // Rewound to before the first message: nothing is left to count.
    h.send(Op::Rewind {
        before_message: 0,
        confirm: true,
    });
    h.until(|m| matches!(m, EventMsg::SessionChanges { files } if files.is_empty()))
        .await;
    assert_eq!(
        std::fs::read_to_string(ws.join("notes.txt")).unwrap(),
        "alpha\nbeta\n"
    );
    hub.shutdown().await;
}
