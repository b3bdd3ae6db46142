//! `foreman-cli exec --json` end to end: the real binary, the scripted SSE server, approvals
//! answered as JSON lines on stdin.

use std::process::Stdio;
use std::time::Duration;

use foreman_core::testing::scripts::{self, Step, call, text};
use foreman_core::testing::sse_server::{ScriptedResponse, ScriptedServer};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_foreman-cli");

struct Run {
    events: Vec<Value>,
    code: i32,
    stderr: String,
}

fn command(server: &ScriptedServer, dir: &std::path::Path, provider: &str, extra: &[&str], prompt: &str) -> Command {
    let base = match provider {
        "openai" => format!("{}/v1", server.url()),
        _ => server.url(),
    };
    let mut cmd = Command::new(BIN);
    cmd.arg("exec")
        .arg("--workspace")
        .arg(dir)
        .args(["--provider", provider, "--base-url", &base, "--model", "m", "--json"])
        .args(extra)
        .arg(prompt)
        .env("ANTHROPIC_API_KEY", "test-key")
        .env("OPENAI_API_KEY", "test-key")
        .env("XDG_DATA_HOME", dir.join(".xdg"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    cmd
}

/// Runs the binary, answering each approval request with `answer(event)`.
async fn run(mut cmd: Command, answer: impl Fn(&Value) -> Value) -> Run {
    let mut child = cmd.spawn().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut events = Vec::new();
    let read_all = async {
        while let Some(line) = lines.next_line().await.unwrap() {
            let event: Value = serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON: {line}: {e}"));
            if event["type"] == "approval_requested" {
                let op = answer(&event);
                stdin.write_all(format!("{op}\n").as_bytes()).await.unwrap();
                stdin.flush().await.unwrap();
            }
            events.push(event);
        }
    };
    tokio::time::timeout(Duration::from_secs(60), read_all).await.expect("the CLI hung");
    let output = child.wait_with_output().await.unwrap();
    Run {
        events,
        code: output.status.code().unwrap_or(-1),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

fn body(provider: &str, steps: &[Step]) -> ScriptedResponse {
    ScriptedResponse::sse(match provider {
        "openai" => scripts::openai(steps, 5),
        _ => scripts::anthropic(steps, 5),
    })
}

#[tokio::test]
async fn multi_step_task_with_approvals_over_json_lines() {
    for provider in ["anthropic", "openai"] {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("main.txt"), "hello world\n").unwrap();
        let server = ScriptedServer::start(vec![
            body(provider, &[text("Let me look."), call("c1", "read", json!({"path": "main.txt"}))]),
            body(provider, &[call("c2", "edit", json!({"path": "main.txt", "old_string": "world", "new_string": "there"}))]),
            body(provider, &[call("c3", "bash", json!({"command": "cat main.txt"}))]),
            body(provider, &[call("c4", "attempt_completion", json!({"result": "Changed the greeting."}))]),
        ])
        .await
        .unwrap();
        let cmd = command(&server, dir.path(), provider, &["--approval", "ask"], "greet differently");
        let out = run(cmd, |e| json!({"op": "approve", "call_id": e["call_id"], "preview_hash": e["preview_hash"]})).await;
        assert_eq!(out.code, 0, "{provider}: {}", out.stderr);
        assert_eq!(std::fs::read_to_string(dir.path().join("main.txt")).unwrap(), "hello there\n");
        let approvals: Vec<&Value> = out.events.iter().filter(|e| e["type"] == "approval_requested").collect();
        assert_eq!(approvals.len(), 2, "edit and bash ask; read does not");
        assert!(approvals[0]["preview"]["diff"].as_str().unwrap().contains("+hello there"));
        assert!(approvals.iter().all(|a| a["preview_hash"].as_str().is_some_and(|h| !h.is_empty())));
        let end = out.events.iter().find(|e| e["type"] == "task_ended").unwrap();
        assert_eq!(end["reason"], json!({"kind": "completed", "summary": "Changed the greeting."}));
        let seqs: Vec<u64> = out.events.iter().map(|e| e["seq"].as_u64().unwrap()).collect();
        assert!(seqs.windows(2).all(|w| w[1] > w[0]));
        let bash = out.events.iter().find(|e| e["type"] == "tool_call_finished" && e["call_id"] == "c3").unwrap();
        assert!(bash["result"].as_str().unwrap().contains("hello there"));
    }
}

#[tokio::test]
async fn reject_over_stdin_reaches_the_model_and_the_file_stays() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.txt"), "one\n").unwrap();
    let server = ScriptedServer::start(vec![
        body("anthropic", &[call("w", "write", json!({"path": "a.txt", "content": "two\n"}))]),
        body("anthropic", &[text("Understood, leaving it.")]),
    ])
    .await
    .unwrap();
    let cmd = command(&server, dir.path(), "anthropic", &["--approval", "ask"], "rewrite a");
    let out = run(cmd, |e| json!({"op": "reject", "call_id": e["call_id"], "feedback": "not now"})).await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(std::fs::read_to_string(dir.path().join("a.txt")).unwrap(), "one\n");
    let second = String::from_utf8_lossy(&server.requests()[1].body).into_owned();
    assert!(second.contains("The user rejected this change: not now. The file was not modified."));
}

#[tokio::test]
async fn the_iteration_cap_exits_non_zero_with_one_line() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.txt"), "one\n").unwrap();
    let server = ScriptedServer::start(vec![body("openai", &[call("r", "read", json!({"path": "a.txt"}))])])
        .await
        .unwrap();
    let cmd = command(&server, dir.path(), "openai", &["--max-iterations", "1"], "loop");
    let out = run(cmd, |_| json!({})).await;
    assert_ne!(out.code, 0);
    assert_eq!(out.stderr.trim().lines().count(), 1, "{}", out.stderr);
    assert!(out.stderr.contains("iteration cap"), "{}", out.stderr);
    assert!(out.events.iter().any(|e| e["type"] == "task_ended" && e["reason"]["kind"] == "iteration_cap"));
}

#[tokio::test]
async fn bad_arguments_exit_non_zero() {
    let out = std::process::Command::new(BIN).args(["exec", "prompt"]).output().unwrap();
    assert_ne!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--workspace"));
    assert!(out.stdout.is_empty());
}
