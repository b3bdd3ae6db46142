//! The command sandbox with real commands on this machine's kernel (Landlock, seccomp, user
//! namespaces): what a confined command may write and reach, at each level.

use std::net::TcpListener;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

use foreman_core::protocol::{ApprovalMode, ApprovalScope, CallState, EventMsg, Op, SandboxNote};
use foreman_core::sandbox::{SandboxLevel, SandboxPolicy, availability, confine};
use foreman_core::testing::scripts::call;
use serde_json::json;

use super::common::*;

struct Run {
    ok: bool,
    output: String,
}

/// Runs `script` with bash, confined to `level` in `workspace`.
fn run(workspace: &Path, level: SandboxLevel, network: bool, script: &str) -> Run {
    let policy = SandboxPolicy {
        level,
        network,
        workspace: workspace.to_path_buf(),
        temp: workspace.join(".foreman-tmp-test"),
    };
    let mut command = Command::new("bash");
    command.args(["-c", script]).current_dir(workspace);
    confine(&mut command, &policy).unwrap();
    let out = command.output().unwrap();
    Run {
        ok: out.status.success(),
        output: format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
    }
}

fn workspace() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join(".git/hooks")).unwrap();
    std::fs::write(dir.path().join(".git/HEAD"), "ref: refs/heads/main\n").unwrap();
    std::fs::write(dir.path().join("a.txt"), "a\n").unwrap();
    dir
}

#[test]
fn this_machine_can_confine_commands_at_both_levels() {
    for level in [SandboxLevel::WorkspaceWrite, SandboxLevel::ReadOnly] {
        let found = availability(level);
        assert!(found.is_available(), "{level:?}: {}", found.describe());
    }
}

#[test]
fn workspace_write_writes_the_workspace_and_its_temp_dir_only() {
    let ws = workspace();
    let outside = tempfile::tempdir().unwrap();
    let level = SandboxLevel::WorkspaceWrite;
    let inside = run(
        ws.path(),
        level,
        false,
        "echo b > a.txt && mkdir -p src && echo x > src/new.rs",
    );
    assert!(inside.ok, "{}", inside.output);
    assert_eq!(
        std::fs::read_to_string(ws.path().join("a.txt")).unwrap(),
        "b\n"
    );
    assert!(ws.path().join("src/new.rs").exists());
    let temp = run(
        ws.path(),
        level,
        false,
        "echo t > \"$TMPDIR/t\" && cat \"$TMPDIR/t\"",
    );
    assert!(temp.ok && temp.output.contains('t'), "{}", temp.output);

    let target = outside.path().join("escaped.txt");
    let escape = run(
        ws.path(),
        level,
        false,
        &format!("echo x > {}", target.display()),
    );
    assert!(!escape.ok, "{}", escape.output);
    assert!(
        escape.output.contains("Permission denied"),
        "{}",
        escape.output
    );
    assert!(!target.exists());
    let home = run(
        ws.path(),
        level,
        false,
        "touch \"$HOME/.foreman-sandbox-escape\"",
    );
    assert!(!home.ok, "{}", home.output);
}

#[test]
fn git_and_foreman_stay_read_only_inside_the_workspace() {
    let ws = workspace();
    std::fs::create_dir(ws.path().join(".foreman")).unwrap();
    let level = SandboxLevel::WorkspaceWrite;
    for script in [
        "echo x > .git/HEAD",
        "echo '#!/bin/sh' > .git/hooks/pre-commit",
        "rm .git/HEAD",
        "echo x > .foreman/mcp.json",
    ] {
        let refused = run(ws.path(), level, false, script);
        assert!(!refused.ok, "{script}: {}", refused.output);
        assert!(
            refused.output.contains("Read-only file system"),
            "{script}: {}",
            refused.output
        );
    }
    assert_eq!(
        std::fs::read_to_string(ws.path().join(".git/HEAD")).unwrap(),
        "ref: refs/heads/main\n"
    );
    assert!(!ws.path().join(".git/hooks/pre-commit").exists());
    // Reading them is fine.
    let read = run(ws.path(), level, false, "cat .git/HEAD");
    assert!(
        read.ok && read.output.contains("refs/heads/main"),
        "{}",
        read.output
    );
}

#[test]
fn read_only_writes_nothing_but_its_temp_dir() {
    let ws = workspace();
    let level = SandboxLevel::ReadOnly;
    let write = run(ws.path(), level, false, "echo b > a.txt");
    assert!(
        !write.ok && write.output.contains("Permission denied"),
        "{}",
        write.output
    );
    assert_eq!(
        std::fs::read_to_string(ws.path().join("a.txt")).unwrap(),
        "a\n"
    );
    let temp = run(
        ws.path(),
        level,
        false,
        "echo t > \"$TMPDIR/t\" && cat a.txt",
    );
    assert!(temp.ok && temp.output.contains('a'), "{}", temp.output);
}

#[test]
fn without_network_a_connection_to_a_local_port_is_refused_and_with_it_goes_through() {
    let ws = workspace();
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port();
    let connect = format!("exec 3<>/dev/tcp/127.0.0.1/{port} && echo connected");
    for level in [SandboxLevel::WorkspaceWrite, SandboxLevel::ReadOnly] {
        let refused = run(ws.path(), level, false, &connect);
        assert!(!refused.ok, "{level:?}: {}", refused.output);
        assert!(!refused.output.contains("connected"), "{}", refused.output);
    }
    std::thread::sleep(Duration::from_millis(50));
    assert!(listener.accept().is_err(), "nothing reached the listener");
    let allowed = run(ws.path(), SandboxLevel::WorkspaceWrite, true, &connect);
    assert!(
        allowed.ok && allowed.output.contains("connected"),
        "{}",
        allowed.output
    );
}

#[test]
fn local_sockets_still_work_without_network() {
    // AF_UNIX stays open (build tools use socketpairs to talk to their workers).
    let ws = workspace();
    let script = "python3 -c 'import socket; a, b = socket.socketpair(); a.send(b\"ok\"); print(b.recv(2).decode())'";
    let out = run(ws.path(), SandboxLevel::WorkspaceWrite, false, script);
    assert!(out.ok && out.output.contains("ok"), "{}", out.output);
}

/// The sandbox notes the session announced for `id`, in order.
fn notes(h: &Harness, id: &str) -> Vec<SandboxNote> {
    h.seen
        .iter()
        .filter_map(|e| match &e.msg {
            EventMsg::SandboxChanged { call_id, sandbox } if call_id == id => Some(sandbox.clone()),
            _ => None,
        })
        .collect()
}

#[tokio::test]
async fn auto_mode_runs_commands_in_the_sandbox_without_asking() {
    let turns = vec![
        vec![call(
            "b",
            "bash",
            json!({"command": "echo made > made.txt"}),
        )],
        done("d"),
    ];
    let mut h = start(Wire::Anthropic, &turns, ApprovalMode::Auto).await;
    h.say("make a file");
    assert!(h.end().await.is_success());
    assert_eq!(h.file("made.txt"), "made\n");
    assert!(
        !h.seen
            .iter()
            .any(|e| matches!(e.msg, EventMsg::ApprovalRequested { .. }))
    );
    let shown = notes(&h, "b");
    assert_eq!(shown.len(), 1, "{shown:?}");
    assert_eq!(shown[0].level, Some(SandboxLevel::WorkspaceWrite));
    assert!(!shown[0].network);
}

/// A write outside the workspace is refused in the sandbox; the user is asked to run it outside,
/// and approving runs it there (rejecting keeps it in, with the model told either way).
#[tokio::test]
async fn a_refused_command_asks_to_run_outside_and_runs_there_when_approved() {
    for approve in [true, false] {
        let outside = tempfile::tempdir().unwrap();
        let target = outside.path().join("escaped.txt");
        let command = format!("echo out > {}", target.display());
        let turns = vec![
            vec![call("b", "bash", json!({ "command": command }))],
            done("d"),
        ];
        let mut h = start(Wire::OpenAi, &turns, ApprovalMode::Auto).await;
        h.say("write outside");
        let EventMsg::ApprovalRequested {
            call_id,
            preview_hash,
            reason,
            ..
        } = h.approval_request().await
        else {
            unreachable!()
        };
        assert_eq!(call_id, "b");
        assert!(reason.contains("sandbox refused"), "{reason}");
        assert!(reason.contains("Permission denied"), "{reason}");
        let refused = notes(&h, "b").last().cloned().unwrap();
        assert!(!refused.refused.is_empty(), "{refused:?}");
        assert!(!target.exists(), "nothing escaped while confined");
        if approve {
            h.send(Op::Approve {
                call_id,
                preview_hash,
                scope: ApprovalScope::Once,
            });
        } else {
            h.send(Op::Reject {
                call_id,
                feedback: None,
            });
        }
        assert!(h.end().await.is_success(), "approve: {approve}");
        let told = h.request_text(1);
        if approve {
            assert_eq!(std::fs::read_to_string(&target).unwrap(), "out\n");
            assert!(
                told.contains("approved running it again outside the sandbox"),
                "{told}"
            );
            assert_eq!(
                notes(&h, "b").last().unwrap().level,
                None,
                "the card says it ran outside"
            );
            assert_eq!(h.finished("b").unwrap().0, CallState::Succeeded);
        } else {
            assert!(!target.exists());
            assert!(
                told.contains("chose not to run it outside the sandbox"),
                "{told}"
            );
            assert_eq!(h.finished("b").unwrap().0, CallState::Rejected);
        }
    }
}

#[tokio::test]
async fn yolo_runs_commands_outside_the_sandbox_and_the_card_says_so() {
    let turns = vec![
        vec![call("b", "bash", json!({"command": "true"}))],
        done("d"),
    ];
    let mut h = start(Wire::Anthropic, &turns, ApprovalMode::Yolo).await;
    h.say("go");
    assert!(h.end().await.is_success());
    let shown = notes(&h, "b");
    assert_eq!(shown.len(), 1);
    assert_eq!((shown[0].level, shown[0].unconfined.clone()), (None, None));
}
