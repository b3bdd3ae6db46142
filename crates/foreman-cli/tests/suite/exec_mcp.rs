//! `foreman-cli exec --json` with an MCP server: the scripted model calls server-everything's
//! `echo` through the full loop; an unapproved workspace server is refused; `mcp list` and
//! `mcp approve`; the discovery command in the sandbox of `--sandbox` (`make mcp-servers` installs
//! the server under target/mcp-servers).

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use foreman_core::testing::scripts::{self, call};
use foreman_core::testing::sse_server::{ScriptedResponse, ScriptedServer};
use serde_json::{Value, json};
use tokio::process::Command;

use super::common::BIN;

fn everything_js() -> PathBuf {
    let js = Path::new(env!("CARGO_MANIFEST_DIR")).join(
        "../../target/mcp-servers/node_modules/@modelcontextprotocol/server-everything/dist/index.js",
    );
    assert!(
        js.is_file(),
        "server-everything is missing at {}: run `make mcp-servers`",
        js.display()
    );
    js
}

fn server_json() -> Value {
    json!({"mcpServers": {"everything": {"command": "node", "args": [everything_js(), "stdio"]}}})
}

async fn output(cmd: &mut Command) -> (i32, String, String) {
    let out = tokio::time::timeout(Duration::from_secs(90), cmd.output())
        .await
        .expect("the CLI hung")
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn exec(server: &ScriptedServer, dir: &Path, extra: &[&str]) -> Command {
    let mut cmd = Command::new(BIN);
    cmd.arg("exec")
        .arg("--workspace")
        .arg(dir)
        .args([
            "--base-url",
            &server.url(),
            "--model",
            "m",
            "--json",
            "--approval",
            "ask",
        ])
        .args(["--db"])
        .arg(dir.join(".xdg/foreman.db"))
        .args(extra)
        .arg("echo something")
        .env("ANTHROPIC_API_KEY", "test-key")
        .env("XDG_CONFIG_HOME", dir.join(".config"))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    cmd
}

fn events(stdout: &str) -> Vec<Value> {
    stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

async fn echo_script() -> ScriptedServer {
    ScriptedServer::start(vec![
        ScriptedResponse::sse(scripts::anthropic(
            &[call(
                "e1",
                "everything__echo",
                json!({"message": "from the model"}),
            )],
            5,
        )),
        ScriptedResponse::sse(scripts::anthropic(
            &[call(
                "done",
                "attempt_completion",
                json!({"result": "Echoed."}),
            )],
            5,
        )),
    ])
    .await
    .unwrap()
}

#[tokio::test]
async fn the_model_calls_an_mcp_tool_through_the_cli() {
    let dir = tempfile::tempdir().unwrap();
    let user = dir.path().join("mcp.json");
    std::fs::write(&user, server_json().to_string()).unwrap();
    let server = echo_script().await;
    let (code, stdout, stderr) = output(&mut exec(
        &server,
        dir.path(),
        &["--mcp-config", user.to_str().unwrap()],
    ))
    .await;
    assert_eq!(code, 0, "{stderr}");
    let events = events(&stdout);
    assert!(
        !events.iter().any(|e| e["type"] == "approval_requested"),
        "echo is read-only: no approval"
    );
    let finished = events
        .iter()
        .find(|e| e["type"] == "tool_call_finished" && e["call_id"] == "e1")
        .unwrap_or_else(|| panic!("no result for e1: {stdout}"));
    assert!(
        finished["result"]
            .as_str()
            .unwrap()
            .contains("Echo: from the model"),
        "{finished}"
    );
}

#[tokio::test]
async fn workspace_servers_are_refused_until_approved() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join(".foreman")).unwrap();
    std::fs::write(
        dir.path().join(".foreman/mcp.json"),
        server_json().to_string(),
    )
    .unwrap();
    let db = dir.path().join(".xdg/foreman.db");
    let mcp = |sub: &str, extra: &[&str]| {
        let mut cmd = Command::new(BIN);
        cmd.args(["mcp", sub, "--workspace"])
            .arg(dir.path())
            .arg("--db")
            .arg(&db)
            .args(extra)
            .env("XDG_CONFIG_HOME", dir.path().join(".config"))
            .kill_on_drop(true);
        cmd
    };

    let (code, stdout, stderr) = output(&mut mcp("list", &[])).await;
    assert_eq!(code, 0, "{stderr}");
    let listed: Value = serde_json::from_str(stdout.lines().next().unwrap()).unwrap();
    assert_eq!(listed["name"], "everything");
    assert_eq!(listed["source"], "workspace");
    assert_eq!(listed["state"]["kind"], "awaiting_approval");

    // The model asks for the tool, which is not there: the run still completes, and stderr says
    // how to approve.
    let server = echo_script().await;
    let (code, stdout, stderr) = output(&mut exec(&server, dir.path(), &[])).await;
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("foreman-cli mcp approve --workspace"),
        "{stderr}"
    );
    assert!(!stdout.contains("Echo: from the model"), "{stdout}");
    assert!(
        stdout.contains("everything__echo"),
        "the model's call is shown: {stdout}"
    );

    let (code, _, stderr) = output(&mut mcp("approve", &["everything"])).await;
    assert_eq!(code, 0, "{stderr}");
    let (code, stdout, stderr) = output(&mut mcp("list", &[])).await;
    assert_eq!(code, 0, "{stderr}");
    let listed: Value = serde_json::from_str(stdout.lines().next().unwrap()).unwrap();
    assert_eq!(listed["state"]["kind"], "connected", "{listed}");
    assert!(
        listed["tools"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t["name"] == "everything__echo")
    );
}

#[tokio::test]
async fn a_task_in_a_worktree_shares_the_approvals_of_its_folder() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join(".foreman")).unwrap();
    std::fs::write(
        dir.path().join(".foreman/mcp.json"),
        server_json().to_string(),
    )
    .unwrap();
    std::fs::write(dir.path().join(".gitignore"), ".xdg/\n.config/\n").unwrap();
    for args in [
        &["init", "-q", "-b", "main"][..],
        &["add", "-A"],
        &[
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t",
            "commit",
            "-q",
            "-m",
            "mcp",
        ],
    ] {
        let status = std::process::Command::new("git")
            .args(args)
            .current_dir(dir.path())
            .status()
            .unwrap();
        assert!(status.success(), "git {args:?}");
    }
    let mut approve = Command::new(BIN);
    approve
        .args(["mcp", "approve", "everything", "--workspace"])
        .arg(dir.path())
        .arg("--db")
        .arg(dir.path().join(".xdg/foreman.db"))
        .env("XDG_CONFIG_HOME", dir.path().join(".config"))
        .kill_on_drop(true);
    let (code, _, stderr) = output(&mut approve).await;
    assert_eq!(code, 0, "{stderr}");
    // The task's servers start in its worktree, approved as the folder's are.
    let server = echo_script().await;
    let (code, stdout, stderr) =
        output(&mut exec(&server, dir.path(), &["--worktree", "with-mcp"])).await;
    assert_eq!(code, 0, "{stderr}");
    assert!(!stderr.contains("mcp approve"), "asked again: {stderr}");
    assert!(stdout.contains("Echo: from the model"), "{stdout}");
}

/// A discovery command that shows, in its one tool's description, what it finds of the display
/// and the SSH agent (`[DISPLAY|SSH_AUTH_SOCK]`).
fn probing_discovery(dir: &Path) -> PathBuf {
    std::fs::write(
        dir.join("list.sh"),
        r#"printf '[{"name": "probe", "description": "[%s|%s]"}]' "$DISPLAY" "$SSH_AUTH_SOCK""#,
    )
    .unwrap();
    let user = dir.join("mcp.json");
    let config = json!({
        "discovery": {"command": "sh list.sh", "callCommand": "true"},
        "mcpServers": {
            "boxed": {"command": "node", "args": [everything_js(), "stdio"], "sandbox": "read-only", "sandboxNetwork": true},
            "odd": {"command": "node", "sandbox": "sometimes"}
        }
    });
    std::fs::write(&user, config.to_string()).unwrap();
    user
}

/// The discovery command runs at the level of `--sandbox`: the display and the agent leave its
/// environment unless the sandbox is off. Through `exec` (the model is offered the tool as
/// described) and `mcp list`, which also shows each server's sandbox and a bad one's problem.
#[tokio::test]
async fn the_discovery_command_runs_in_the_sandbox_of_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let user = probing_discovery(dir.path());
    let config = user.to_str().unwrap();
    for (level, seen) in [
        ("workspace-write", "[|]"),
        ("off", "[:98|/tmp/agent-cli.sock]"),
    ] {
        let server = ScriptedServer::start(vec![ScriptedResponse::sse(scripts::anthropic(
            &[call("done", "attempt_completion", json!({"result": "ok"}))],
            5,
        ))])
        .await
        .unwrap();
        let mut cmd = exec(
            &server,
            dir.path(),
            &["--mcp-config", config, "--sandbox", level],
        );
        cmd.env("DISPLAY", ":98")
            .env("SSH_AUTH_SOCK", "/tmp/agent-cli.sock");
        let (code, _, stderr) = output(&mut cmd).await;
        assert_eq!(code, 0, "{stderr}");
        assert!(
            stderr.contains("server `odd`: `sandbox` must be"),
            "{stderr}"
        );
        let offered = server.requests()[0].json();
        let probe = offered["tools"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["name"] == "probe")
            .cloned()
            .unwrap_or_else(|| panic!("no probe tool: {offered}"));
        assert_eq!(probe["description"], seen, "{level}");

        let mut list = Command::new(BIN);
        list.args(["mcp", "list", "--workspace"])
            .arg(dir.path())
            .arg("--db")
            .arg(dir.path().join(".xdg/foreman.db"))
            .args(["--mcp-config", config, "--sandbox", level])
            .env("XDG_CONFIG_HOME", dir.path().join(".config"))
            .env("DISPLAY", ":98")
            .env("SSH_AUTH_SOCK", "/tmp/agent-cli.sock")
            .kill_on_drop(true);
        let (code, stdout, stderr) = output(&mut list).await;
        assert_eq!(code, 0, "{stderr}");
        let listed: Vec<Value> = events(&stdout);
        let named = |name: &str| listed.iter().find(|s| s["name"] == name).cloned().unwrap();
        assert_eq!(named("discovery")["tools"][0]["description"], seen);
        assert_eq!(
            named("discovery")["sandbox"],
            json!({"level": level, "network": false})
        );
        let boxed = named("boxed");
        assert_eq!(boxed["state"]["kind"], "connected", "{boxed}");
        assert_eq!(
            boxed["sandbox"],
            json!({"level": "read-only", "network": true})
        );
        assert!(listed.iter().all(|s| s["name"] != "odd"), "{stdout}");
    }
}
