//! Big files through `foreman-cli exec --json` (issue 49): a rewrite of every line of a 2 MiB
//! file gets its result to the model about as fast as writing the same bytes to a new file,
//! measured side by side (the speed itself is a bench row, `--bench session`).

use std::path::Path;
use std::time::{Duration, Instant};

use foreman_core::testing::scripts::{self, Step, call};
use foreman_core::testing::sse_server::{ScriptedResponse, ScriptedServer};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, BufReader};

use super::common::exec_in;

/// A turn whose arguments come in 64 KiB fragments (a real model's 2 MiB write is a few
/// thousand fragments; this keeps the debug build's parsing out of what is compared).
fn turn(steps: &[Step]) -> ScriptedResponse {
    ScriptedResponse::sse(scripts::anthropic(steps, 64 * 1024))
}

/// 2 MiB of lines, each naming `word` and its number.
fn lines(word: &str) -> String {
    let mut text = String::new();
    let mut i = 0;
    while text.len() < 2 * 1024 * 1024 {
        text.push_str(&format!(
            "{word} line {i:06}: the quick brown fox jumps over it\n"
        ));
        i += 1;
    }
    text
}

/// Runs `exec --json` in auto-edit mode on `ws` until it exits, or panics once `limit` has
/// passed; the events and how long it took.
async fn timed_run(
    dir: &Path,
    ws: &Path,
    server: &ScriptedServer,
    limit: Duration,
) -> (Vec<Value>, Duration) {
    let mut cmd = exec_in(dir, ws);
    cmd.args(["--base-url", &server.url(), "--model", "m", "--json"])
        .args(["--approval", "auto-edit", "--context-window", "10000000"])
        .arg("rewrite the file")
        .env("ANTHROPIC_API_KEY", "test-key");
    let started = Instant::now();
    let mut child = cmd.spawn().unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut events = Vec::new();
    let read = async {
        while let Some(line) = lines.next_line().await.unwrap() {
            events.push(serde_json::from_str::<Value>(&line).unwrap());
        }
    };
    if tokio::time::timeout(limit, read).await.is_err() {
        let seen: Vec<&Value> = events.iter().map(|e| &e["type"]).collect();
        panic!(
            "the run did not end within {limit:?}; the last events: {:?}",
            &seen[seen.len().saturating_sub(5)..]
        );
    }
    let out = child.wait_with_output().await.unwrap();
    assert!(
        out.status.success(),
        "exit {}: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    (events, started.elapsed())
}

fn result_of<'a>(events: &'a [Value], id: &str) -> &'a Value {
    events
        .iter()
        .find(|e| e["type"] == "tool_call_finished" && e["call_id"] == id)
        .unwrap_or_else(|| panic!("no result for {id}"))
}

#[tokio::test]
async fn a_rewrite_of_every_line_of_2_mib_finishes_about_as_fast_as_a_new_file() {
    let old = lines("old");
    let new = lines("new");
    let run = |target: &'static str| {
        let (old, new) = (old.clone(), new.clone());
        async move {
            let dir = tempfile::tempdir().unwrap();
            let ws = dir.path().join("ws");
            std::fs::create_dir_all(&ws).unwrap();
            std::fs::write(ws.join("big.txt"), &old).unwrap();
            let server = ScriptedServer::start(vec![
                turn(&[call("r", "read", json!({"path": "big.txt", "limit": 10}))]),
                turn(&[call("w", "write", json!({"path": target, "content": new}))]),
                turn(&[call(
                    "done",
                    "attempt_completion",
                    json!({"result": "Rewritten."}),
                )]),
            ])
            .await
            .unwrap();
            (dir, ws, server)
        }
    };
    // The baseline: the same bytes, streamed and written the same way, to a new file (nothing
    // to compare them with).
    let (dir, ws, server) = run("fresh.txt").await;
    let (events, baseline) = timed_run(dir.path(), &ws, &server, Duration::from_secs(120)).await;
    assert_eq!(result_of(&events, "w")["state"], "succeeded");
    assert_eq!(std::fs::read_to_string(ws.join("fresh.txt")).unwrap(), new);

    let (dir, ws, server) = run("big.txt").await;
    // Every line changed: a diff without a time limit searched for minutes here.
    let limit = baseline * 4 + Duration::from_secs(15);
    let (events, rewrite) = timed_run(dir.path(), &ws, &server, limit).await;
    assert_eq!(std::fs::read_to_string(ws.join("big.txt")).unwrap(), new);
    let written = result_of(&events, "w");
    assert_eq!(written["state"], "succeeded", "{written}");
    let lines = new.lines().count();
    assert!(
        written["result"]
            .as_str()
            .unwrap()
            .contains(&format!("+{lines} −{lines} lines")),
        "{}",
        written["result"]
    );
    // The model got the result and went on: the next request was sent.
    assert_eq!(server.requests().len(), 3);
    assert!(
        rewrite < limit,
        "the rewrite took {rewrite:?}, the same bytes to a new file {baseline:?}"
    );
}
