//! What the CLI's end-to-end tests share: the binary, an isolated environment, and a run that
//! answers approval requests over stdin.

#![allow(dead_code)] // each test binary uses its own part of it

pub mod local_model;
pub mod scripted_model;

use std::time::Duration;

use foreman_core::testing::scripts::{self, Step};
use foreman_core::testing::sse_server::ScriptedResponse;
use serde_json::Value;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::process::Command;

pub const BIN: &str = env!("CARGO_BIN_EXE_foreman-cli");

/// HOME and the XDG directories of a spawned CLI, all inside `dir`.
pub fn isolated_env(dir: &std::path::Path) -> [(&'static str, std::path::PathBuf); 3] {
    let home = dir.join(".home");
    std::fs::create_dir_all(&home).unwrap();
    [
        ("HOME", home),
        ("XDG_CONFIG_HOME", dir.join(".config")),
        ("XDG_DATA_HOME", dir.join(".xdg")),
    ]
}

/// `foreman-cli exec --workspace WS` run in `dir`'s isolated environment, stdio piped, killed
/// when dropped; callers add their arguments, the prompt and the key.
pub fn exec_in(dir: &std::path::Path, workspace: &std::path::Path) -> Command {
    let mut cmd = Command::new(BIN);
    cmd.arg("exec")
        .arg("--workspace")
        .arg(workspace)
        .envs(isolated_env(dir))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(true);
    cmd
}

pub struct Run {
    pub events: Vec<Value>,
    pub code: i32,
    pub stderr: String,
}

/// Runs the binary, answering each approval request with `answer(event)`.
pub async fn run(cmd: Command, answer: impl Fn(&Value) -> Value) -> Run {
    run_answering(cmd, |event| {
        (event["type"] == "approval_requested").then(|| answer(event))
    })
    .await
}

/// Runs the binary, sending the op `answer(event)` gives for any event.
pub async fn run_answering(mut cmd: Command, answer: impl Fn(&Value) -> Option<Value>) -> Run {
    let mut child = cmd.spawn().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut events = Vec::new();
    let read_all = async {
        while let Some(line) = lines.next_line().await.unwrap() {
            let event: Value =
                serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON: {line}: {e}"));
            if let Some(op) = answer(&event) {
                stdin.write_all(format!("{op}\n").as_bytes()).await.unwrap();
                stdin.flush().await.unwrap();
            }
            if std::env::var_os("FOREMAN_TEST_SHOW_EVENTS").is_some() {
                eprintln!("{event}");
            }
            events.push(event);
        }
    };
    tokio::time::timeout(Duration::from_secs(60), read_all)
        .await
        .expect("the CLI hung");
    let output = child.wait_with_output().await.unwrap();
    Run {
        events,
        code: output.status.code().unwrap_or(-1),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

pub fn body(provider: &str, steps: &[Step]) -> ScriptedResponse {
    ScriptedResponse::sse(match provider {
        "openai" => scripts::openai(steps, 5),
        _ => scripts::anthropic(steps, 5),
    })
}
