//! What the MCP hub starts runs in its sandbox, judged by real effects on disk: a stdio server
//! with its own `"sandbox"` (the real server-filesystem and server-everything from
//! target/mcp-servers), a confined server that cannot start says so with its level, and the
//! discovery command and its call command run at the `bash` tool's level.

use std::path::Path;
use std::time::Duration;

use foreman_core::mcp::{
    Backoff, HubOptions, HubSandbox, McpHub, ServerSandbox, ServerSource, ServerState,
};
use foreman_core::protocol::{ApprovalMode, ApprovalScope, CallState, EventMsg, Op};
use foreman_core::sandbox::{SandboxLevel, SandboxPolicy};
use foreman_core::testing::scripts::call as step;
use serde_json::{Value, json};

use super::common::*;
use super::mcp_servers::{call, config, connected, everything_js, run, servers_dir, wait_for};

const WORKSPACE_WRITE: ServerSandbox = ServerSandbox {
    level: SandboxLevel::WorkspaceWrite,
    network: false,
};

/// A hub over `servers` (the `mcpServers` object) in `workspace`, hiding `hidden`.
async fn hub(servers: Value, workspace: &Path, hidden: &[&Path]) -> McpHub {
    let options = HubOptions {
        workspace: Some(workspace.to_path_buf()),
        sandbox: HubSandbox {
            hidden: hidden.iter().map(|p| p.to_path_buf()).collect(),
            ..HubSandbox::default()
        },
        backoff: Backoff {
            initial: Duration::from_secs(30),
            max: Duration::from_secs(30),
        },
        ..HubOptions::default()
    };
    let cfg = config(json!({ "mcpServers": servers }), ServerSource::User);
    McpHub::start(cfg, options).await.unwrap()
}

/// A workspace and a folder outside it with a hidden `secret/key.txt`.
struct Places {
    _ws: tempfile::TempDir,
    _outside: tempfile::TempDir,
    ws: std::path::PathBuf,
    outside: std::path::PathBuf,
    secret: std::path::PathBuf,
}

fn places() -> Places {
    let ws = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    let secret = outside.path().canonicalize().unwrap().join("secret");
    std::fs::create_dir(&secret).unwrap();
    std::fs::write(secret.join("key.txt"), "s3cret-key\n").unwrap();
    Places {
        ws: ws.path().canonicalize().unwrap(),
        outside: outside.path().canonicalize().unwrap(),
        secret,
        _ws: ws,
        _outside: outside,
    }
}

fn path(p: &Path) -> String {
    p.display().to_string()
}

#[tokio::test]
async fn a_confined_filesystem_server_writes_the_workspace_only_and_cannot_read_a_hidden_path() {
    let at = places();
    let js = servers_dir().join("server-filesystem/dist/index.js");
    let args = json!([js, at.ws, at.outside]);
    let servers = json!({
        "boxed": {"command": "node", "args": args, "sandbox": "workspace-write"},
        "frozen": {"command": "node", "args": args, "sandbox": "read-only"},
        "open": {"command": "node", "args": args, "sandbox": "off"},
    });
    let hub = hub(servers, &at.ws, &[&at.secret]).await;
    for name in ["boxed", "frozen", "open"] {
        connected(&hub, name).await;
    }
    let write = |server: &str, target: &Path| {
        let name = format!("{server}__write_file");
        let args = json!({"path": path(target), "content": server});
        let hub = hub.clone();
        async move { call(&hub, &name, args).await }
    };
    let read = |server: &str, target: &Path| {
        let name = format!("{server}__read_text_file");
        let args = json!({"path": path(target)});
        let hub = hub.clone();
        async move { call(&hub, &name, args).await }
    };

    // workspace-write: the workspace, and nothing outside it.
    write("boxed", &at.ws.join("in.txt")).await.unwrap();
    assert_eq!(
        std::fs::read_to_string(at.ws.join("in.txt")).unwrap(),
        "boxed"
    );
    let escaped = at.outside.join("boxed.txt");
    let refused = write("boxed", &escaped).await.unwrap_err();
    assert!(
        !escaped.exists(),
        "the confined server wrote outside: {refused}"
    );
    // read-only: not even the workspace.
    let frozen = at.ws.join("frozen.txt");
    assert!(write("frozen", &frozen).await.is_err());
    assert!(!frozen.exists());
    // A hidden path cannot be read at either level, and the key never shows.
    for server in ["boxed", "frozen"] {
        let outcome = read(server, &at.secret.join("key.txt")).await;
        assert!(
            outcome
                .as_ref()
                .is_err_and(|e| !e.message.contains("s3cret")),
            "{server}: {outcome:?}"
        );
    }

    // The same server with its sandbox off does what the others could not.
    let free = at.outside.join("open.txt");
    write("open", &free).await.unwrap();
    assert_eq!(std::fs::read_to_string(&free).unwrap(), "open");
    let key = read("open", &at.secret.join("key.txt")).await.unwrap();
    assert!(key.contains("s3cret-key"), "{key}");

    let status = hub.status(&[]);
    let sandbox = |name: &str| {
        status
            .servers
            .iter()
            .find(|s| s.name == name)
            .and_then(|s| s.sandbox)
    };
    assert_eq!(sandbox("boxed"), Some(WORKSPACE_WRITE));
    assert_eq!(sandbox("open"), Some(ServerSandbox::OFF));
    hub.shutdown().await;
}

#[tokio::test]
async fn a_confined_server_loses_the_agents_and_the_display_and_gets_its_own_temp() {
    let at = places();
    let env = json!({"SSH_AUTH_SOCK": "/tmp/agent-test.sock", "DISPLAY": ":97"});
    let servers = json!({
        "boxed": {"command": "node", "args": [everything_js(), "stdio"], "env": env, "sandbox": "workspace-write"},
        "open": {"command": "node", "args": [everything_js(), "stdio"], "env": env},
    });
    let hub = hub(servers, &at.ws, &[]).await;
    connected(&hub, "boxed").await;
    connected(&hub, "open").await;
    let boxed = call(&hub, "boxed__get-env", json!({})).await.unwrap();
    assert!(
        !boxed.contains("agent-test.sock") && !boxed.contains(":97"),
        "{boxed}"
    );
    assert!(boxed.contains("foreman-mcp-"), "its TMPDIR: {boxed}");
    let open = call(&hub, "open__get-env", json!({})).await.unwrap();
    assert!(
        open.contains("agent-test.sock") && open.contains(":97"),
        "{open}"
    );
    // Stopping the hub stops the confined server too (the signal goes into the sandbox).
    let pid = connected(&hub, "boxed").await.pid.unwrap();
    hub.shutdown().await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let alive =
        rustix::process::test_kill_process(rustix::process::Pid::from_raw(pid as i32).unwrap());
    assert!(alive.is_err(), "the confined server {pid} outlived the hub");
}

#[tokio::test]
async fn a_confined_server_that_cannot_start_says_it_ran_in_the_sandbox() {
    let at = places();
    // It must write outside the workspace before it serves.
    let marker = at.outside.join("started");
    let script = format!(
        "echo started > {} && exec node {} stdio",
        path(&marker),
        everything_js()
    );
    let boxed =
        json!({"needy": {"command": "sh", "args": ["-c", script], "sandbox": "workspace-write"}});
    let hub_boxed = hub(boxed, &at.ws, &[]).await;
    let failed = wait_for(&hub_boxed, "needy", |s| {
        matches!(s.state, ServerState::Failed { .. })
    })
    .await;
    let ServerState::Failed { error, stderr_tail } = &failed.state else {
        unreachable!()
    };
    assert!(
        error.starts_with(
            "the server failed while starting in the sandbox (workspace-write, no network): "
        ),
        "{error}"
    );
    assert!(error.contains("Permission denied"), "{error}");
    assert!(
        error.ends_with(
            "It may need more than the sandbox allows: set its sandbox to off in mcp.json or on \
             the MCP screen"
        ),
        "{error}"
    );
    assert!(stderr_tail.contains("Permission denied"), "{stderr_tail}");
    assert!(!marker.exists());
    assert_eq!(failed.sandbox, Some(WORKSPACE_WRITE));
    hub_boxed.shutdown().await;

    // Unconfined, it starts.
    let open = json!({"needy": {"command": "sh", "args": ["-c", script]}});
    let hub_open = hub(open, &at.ws, &[]).await;
    connected(&hub_open, "needy").await;
    assert_eq!(std::fs::read_to_string(&marker).unwrap(), "started\n");
    hub_open.shutdown().await;
}

#[tokio::test]
async fn an_ordinary_crash_of_an_unconfined_server_does_not_blame_the_sandbox() {
    let at = places();
    let servers =
        json!({"broken": {"command": "sh", "args": ["-c", "echo 'no config' >&2; exit 1"]}});
    let hub = hub(servers, &at.ws, &[]).await;
    let failed = wait_for(&hub, "broken", |s| match &s.state {
        ServerState::Failed { stderr_tail, .. } => stderr_tail.contains("no config"),
        _ => false,
    })
    .await;
    let ServerState::Failed { error, .. } = &failed.state else {
        unreachable!()
    };
    assert!(!error.contains("sandbox"), "{error}");
    hub.shutdown().await;
}

/// Writes `list.sh` (one tool, `escape`, whose description says whether listing could write
/// outside and where its `TMPDIR` is) and `call.sh` (writes `escaped` outside) into `dir`.
fn discovery_scripts(dir: &Path, outside: &Path) {
    std::fs::write(
        dir.join("list.sh"),
        format!(
            r#"if touch {listed} 2>/dev/null; then wrote=yes; else wrote=no; fi
printf '[{{"name": "escape", "description": "wrote %s; tmp %s"}}]' "$wrote" "$TMPDIR"
"#,
            listed = path(&outside.join("listed"))
        ),
    )
    .unwrap();
    std::fs::write(
        dir.join("call.sh"),
        format!(
            "echo \"$1\" > {} && echo done\n",
            path(&outside.join("escaped"))
        ),
    )
    .unwrap();
}

async fn discovery_hub(dir: &Path, level: SandboxLevel) -> McpHub {
    let cfg = config(
        json!({"discovery": {"command": "sh list.sh", "callCommand": "sh call.sh"}}),
        ServerSource::User,
    );
    let options = HubOptions {
        workspace: Some(dir.to_path_buf()),
        sandbox: HubSandbox {
            level,
            ..HubSandbox::default()
        },
        ..HubOptions::default()
    };
    McpHub::start(cfg, options).await.unwrap()
}

#[tokio::test]
async fn the_discovery_command_and_its_call_command_run_at_the_bash_tools_level() {
    let at = places();
    discovery_scripts(&at.ws, &at.outside);
    let hub = discovery_hub(&at.ws, SandboxLevel::WorkspaceWrite).await;
    let status = connected(&hub, "discovery").await;
    assert_eq!(status.sandbox, Some(WORKSPACE_WRITE));
    let described = &status.tools[0].description;
    assert!(described.starts_with("wrote no; tmp /"), "{described}");
    assert!(described.contains("foreman-mcp-"), "{described}");
    assert!(!at.outside.join("listed").exists());

    // The call command in the sandbox a session's `bash` gets: refused, and said so.
    let temp = tempfile::tempdir().unwrap();
    let policy = SandboxPolicy::new(
        SandboxLevel::WorkspaceWrite,
        false,
        at.ws.clone(),
        temp.path().join("tmp"),
    );
    let confined = run(&hub, "escape", json!({}), Some(policy)).await.unwrap();
    assert!(confined.failed, "{confined:?}");
    assert!(
        confined
            .text
            .contains("in the sandbox (workspace-write, no network)")
            && confined.text.contains("Permission denied"),
        "{}",
        confined.text
    );
    assert!(!at.outside.join("escaped").exists());
    // Unconfined (yolo, or run outside by the user), it writes.
    let free = run(&hub, "escape", json!({}), None).await.unwrap();
    assert_eq!((free.failed, free.text.as_str()), (false, "done\n"));
    assert!(at.outside.join("escaped").exists());
    hub.shutdown().await;

    // With the sandbox off, the discovery command runs with the user's rights.
    let off = discovery_hub(&at.ws, SandboxLevel::Off).await;
    let status = connected(&off, "discovery").await;
    assert!(
        status.tools[0].description.starts_with("wrote yes"),
        "{:?}",
        status.tools[0]
    );
    assert!(at.outside.join("listed").exists());
    off.shutdown().await;
}

/// In a session, a discovered tool's call runs in the session's sandbox (its card says so); the
/// refused write asks to run it outside, as a `bash` command's would, and runs there when
/// approved. In `yolo` it runs unconfined at once.
#[tokio::test]
async fn a_discovered_tool_runs_in_the_sessions_sandbox_and_asks_to_run_outside() {
    for mode in [ApprovalMode::Ask, ApprovalMode::Yolo] {
        let at = places();
        discovery_scripts(&at.ws, &at.outside);
        let hub = discovery_hub(&at.ws, SandboxLevel::WorkspaceWrite).await;
        connected(&hub, "discovery").await;
        let turns = [vec![step("e", "escape", json!({}))], done("d")];
        let mut h = start_turns(Wire::Anthropic, &turns, |c| {
            c.approval_mode = mode;
            c.mcp = Some(hub.clone());
        })
        .await;
        h.say("go");
        let escaped = at.outside.join("escaped");
        if mode == ApprovalMode::Ask {
            // The call itself asks (an external tool), then the sandbox's refusal asks again.
            let (id, hash) = h.approval().await;
            h.send(Op::Approve {
                call_id: id,
                preview_hash: hash,
                scope: ApprovalScope::Once,
            });
            let EventMsg::ApprovalRequested {
                call_id,
                preview_hash,
                reason,
                ..
            } = h.approval_request().await
            else {
                unreachable!()
            };
            assert!(reason.contains("sandbox refused"), "{reason}");
            assert!(reason.contains("Permission denied"), "{reason}");
            assert!(!escaped.exists(), "nothing escaped while confined");
            let shown = h.sandbox_notes("e");
            assert_eq!(
                shown[0].level,
                Some(SandboxLevel::WorkspaceWrite),
                "{shown:?}"
            );
            h.send(Op::Approve {
                call_id,
                preview_hash,
                scope: ApprovalScope::Once,
            });
        }
        assert!(h.end().await.is_success(), "{mode:?}");
        assert_eq!(h.finished("e").unwrap().0, CallState::Succeeded, "{mode:?}");
        assert!(escaped.exists(), "{mode:?}");
        assert_eq!(
            h.sandbox_notes("e").last().map(|n| n.level),
            Some(None),
            "{mode:?}: the card says it ran outside"
        );
        hub.shutdown().await;
    }
}
