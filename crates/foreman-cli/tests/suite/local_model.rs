//! `foreman-cli exec` against a real small model (Gemma 3 270M, a base model that echoes its
//! prompt and rambles) behind a real llama.cpp server: these tests judge what Foreman does with
//! what such a model really writes, never what the model says.

use std::time::{Duration, Instant};

use serde_json::Value;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

use crate::common::local_model::LocalModel;
use crate::common::{exec_in, run};

fn exec(
    model: &LocalModel,
    dir: &std::path::Path,
    extra: &[&str],
    prompt: &str,
) -> tokio::process::Command {
    let db = dir.join("state").join("foreman.db");
    let mut cmd = exec_in(dir, dir);
    cmd.args([
        "--provider",
        "openai",
        "--base-url",
        &model.url,
        "--model",
        "gemma-3-270m",
    ])
    .args(["--json", "--approval", "yolo", "--db"])
    .arg(db)
    .args(extra)
    .arg(prompt);
    cmd
}

fn count(events: &[Value], kind: &str) -> usize {
    events.iter().filter(|e| e["type"] == kind).count()
}

fn task_end(events: &[Value]) -> &Value {
    events
        .iter()
        .find(|e| e["type"] == "task_ended")
        .unwrap_or_else(|| panic!("no task_ended in {events:?}"))
}

/// Whether a task ended at the answer limit `--max-tokens` set: the model rambled to it, and
/// Foreman said so instead of taking the cut-off answer as complete.
fn ended_at_limit(end: &Value, limit: u32) -> bool {
    end["kind"] == "error"
        && end["message"]
            .as_str()
            .is_some_and(|m| m.contains(&format!("reached its limit of {limit} tokens")))
}

#[tokio::test]
async fn a_plain_answer_streams_and_ends() {
    // The server's own cap is above the CLI's limit, so the limit reached is Foreman's.
    let Some(model) = LocalModel::start(64).await else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let out = run(
        exec(
            &model,
            dir.path(),
            &["--max-tokens", "48"],
            "What is the capital of France?",
        ),
        |_| serde_json::json!({}),
    )
    .await;
    let deltas = count(&out.events, "text_delta");
    assert!(deltas > 1, "the answer streamed in {deltas} pieces");
    let end = &task_end(&out.events)["reason"];
    // The model stops on its own, or rambles to the answer limit and Foreman says so.
    if end["kind"] == "final_answer" {
        assert_eq!(out.code, 0, "{}", out.stderr);
    } else {
        assert!(ended_at_limit(end, 48), "{end}");
        assert_eq!(out.code, 1, "{}", out.stderr);
        assert!(out.stderr.contains("--max-tokens"), "{}", out.stderr);
        // The server was asked for 48 tokens, not its own cap of 64.
        let served = model.requests(1, Duration::from_secs(5)).await;
        assert!(
            served
                .first()
                .is_some_and(|l| l.contains(": 48 tokens, maxTokens")),
            "the limit did not reach the server: {served:?}"
        );
    }
    let streamed: String = out
        .events
        .iter()
        .filter(|e| e["type"] == "text_delta")
        .filter_map(|e| e["text"].as_str())
        .collect();
    assert!(!streamed.trim().is_empty());
    eprintln!("the model answered ({}): {streamed:?}", end["kind"]);
}

#[tokio::test]
async fn a_server_cap_below_the_limit_is_named_as_the_server_s() {
    // The server stops at 24 tokens of its own; Foreman asked for up to 400.
    let Some(model) = LocalModel::start(24).await else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let out = run(
        exec(
            &model,
            dir.path(),
            &["--max-tokens", "400"],
            "Tell me a very long story about a dragon, with many chapters.",
        ),
        |_| serde_json::json!({}),
    )
    .await;
    let end = &task_end(&out.events)["reason"];
    if end["kind"] == "final_answer" {
        // The model ended its story within 24 tokens: nothing was cut off.
        eprintln!("the model ended on its own: {end}");
        return;
    }
    let message = end["message"].as_str().unwrap_or_default();
    assert!(
        message.starts_with(
            "The server cut the answer off after 24 tokens, below Foreman’s limit of 400"
        ),
        "{end}"
    );
    assert!(!ended_at_limit(end, 400), "{end}");
    assert_eq!(out.code, 1, "{}", out.stderr);
}

#[tokio::test]
async fn a_text_protocol_action_is_recognised_and_runs() {
    let Some(model) = LocalModel::start(160).await else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("calc.py"), "print(6 * 7)\n").unwrap();
    let prompt = r#"Repeat exactly: {"action": "read", "path": "calc.py"}"#;
    let cmd = exec(
        &model,
        dir.path(),
        &["--text-protocol", "--max-iterations", "1"],
        prompt,
    );
    let out = run(cmd, |_| serde_json::json!({})).await;
    let created: Vec<&Value> = out
        .events
        .iter()
        .filter(|e| e["type"] == "tool_call_created")
        .collect();
    assert!(
        !created.is_empty(),
        "no action was recognised in what the model wrote: {:?}",
        model.log()
    );
    let id = &created[0]["call_id"];
    let finished = out
        .events
        .iter()
        .find(|e| e["type"] == "tool_call_finished" && &e["call_id"] == id)
        .unwrap_or_else(|| panic!("the call never finished: {:?}", out.events));
    eprintln!(
        "the model called {} and the call {}: {}",
        created[0]["name"], finished["state"], finished["result"]
    );
    if created[0]["name"] == "read" && finished["state"] == "succeeded" {
        assert!(
            finished["result"]
                .as_str()
                .unwrap()
                .contains("print(6 * 7)")
        );
    }
    // The answer ended at the object: the request was cancelled, not run to its limit.
    let first = model.requests(1, Duration::from_secs(5)).await;
    assert!(
        first.first().is_some_and(|l| l.contains(", abort")),
        "the first request was not cancelled when its action closed: {first:?}"
    );
    let end = task_end(&out.events);
    assert_ne!(end["reason"]["kind"], "error", "{end}");
}

/// Reads events until one matches `stop`, returning them.
async fn read_until(
    lines: &mut tokio::io::Lines<BufReader<tokio::process::ChildStdout>>,
    events: &mut Vec<Value>,
    mut stop: impl FnMut(&Value) -> bool,
) -> Option<Value> {
    while let Some(line) = lines.next_line().await.unwrap() {
        let event: Value = serde_json::from_str(&line).unwrap();
        events.push(event.clone());
        if stop(&event) {
            return Some(event);
        }
    }
    None
}

#[tokio::test]
async fn stop_mid_ramble_ends_at_once_and_the_session_answers_again() {
    let Some(model) = LocalModel::start(128).await else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut child = exec(
        &model,
        dir.path(),
        &[],
        "Tell me a very long story about a dragon, with many chapters.",
    )
    .spawn()
    .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut events = Vec::new();
    let mut deltas = 0;
    let rambling = read_until(&mut lines, &mut events, |e| {
        if e["type"] == "text_delta" {
            deltas += 1;
        }
        deltas == 5 || e["type"] == "task_ended"
    });
    tokio::time::timeout(Duration::from_secs(90), rambling)
        .await
        .expect("the model wrote nothing")
        .expect("the CLI ended");
    assert_eq!(count(&events, "task_ended"), 0, "it ended before Stop");
    let session_id = events
        .iter()
        .find(|e| e["type"] == "session_started")
        .and_then(|e| e["session_id"].as_str())
        .unwrap()
        .to_owned();

    let cancelled_at = Instant::now();
    stdin.write_all(b"{\"op\":\"cancel\"}\n").await.unwrap();
    stdin.flush().await.unwrap();
    let end = tokio::time::timeout(
        Duration::from_secs(10),
        read_until(&mut lines, &mut events, |e| e["type"] == "task_ended"),
    )
    .await
    .expect("Stop did not end the task")
    .expect("the CLI ended without a task end");
    let took = cancelled_at.elapsed();
    eprintln!("Stop → task_ended: {took:?}");
    assert_eq!(end["reason"]["kind"], "cancelled", "{end}");
    // The end comes at once, not after the model's remaining answer (seconds at this speed).
    // The 100 ms target is measured (47–108 ms here, printed above), not asserted: a timed
    // assertion fails whenever the machine is busy with the other test binaries.
    assert!(
        took < Duration::from_secs(1),
        "the task ended {took:?} after Stop"
    );
    drop(stdin);
    let status = tokio::time::timeout(Duration::from_secs(10), child.wait())
        .await
        .expect("the CLI did not exit after the task ended")
        .unwrap();
    assert!(!status.success(), "a cancelled task is not a success");
    // The server stopped generating too: the request ended as aborted, not at its limit.
    let served = model.requests(1, Duration::from_secs(5)).await;
    assert!(
        served.first().is_some_and(|l| l.contains(", abort")),
        "the server kept generating after Stop: {served:?}"
    );

    // The session stays usable: a second message gets an answer.
    let mut again = exec(
        &model,
        dir.path(),
        &["--resume", &session_id, "--max-tokens", "100"],
        "What is the capital of France?",
    );
    again.kill_on_drop(true);
    let out = run(again, |_| serde_json::json!({})).await;
    assert!(
        count(&out.events, "text_delta") > 0,
        "no answer the second time"
    );
    let end = &task_end(&out.events)["reason"];
    // The answer ends on its own, the repetition guard ends a loop, or it reaches the answer
    // limit: all three are Foreman's.
    let repeated = end["kind"] == "error" && end["message"].as_str().unwrap().contains("repeated");
    assert!(
        end["kind"] == "final_answer" || repeated || ended_at_limit(end, 100),
        "{end}"
    );
}

/// The session-context note (the date and the git state) goes in the system role, where this
/// server, like those of many small local models, keeps it out of the turn the model echoes: the
/// real model repeats the user's message back, never the note.
#[tokio::test]
async fn the_session_context_note_is_not_echoed_back() {
    let Some(model) = LocalModel::start(48).await else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let out = run(
        exec(
            &model,
            dir.path(),
            &["--max-tokens", "48"],
            "Say hello to the team.",
        ),
        |_| serde_json::json!({}),
    )
    .await;
    let streamed: String = out
        .events
        .iter()
        .filter(|e| e["type"] == "text_delta")
        .filter_map(|e| e["text"].as_str())
        .collect();
    eprintln!("the model answered: {streamed:?}");
    assert!(!streamed.trim().is_empty(), "{}", out.stderr);
    for hidden in ["Session context", "Written by Foreman", "(UTC)", "Git:"] {
        assert!(
            !streamed.contains(hidden),
            "{hidden:?} echoed: {streamed:?}"
        );
    }
}
