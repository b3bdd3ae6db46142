//! `foreman-cli exec --json` end to end: the real binary, the scripted SSE server, approvals
//! answered as JSON lines on stdin, and tool calls through the text protocol; and one run of the
//! readable output, answered at its prompts.
//!
//! Every spawned CLI gets its own HOME, XDG_CONFIG_HOME and XDG_DATA_HOME inside the test's
//! temporary directory, so it never reads the user's configuration (MCP servers) or database.

use super::common::{BIN, body, exec_in, isolated_env, run};

use std::process::Stdio;
use std::time::Duration;

use foreman_core::testing::scripts::{self, call, text};
use foreman_core::testing::sse_server::{ScriptedResponse, ScriptedServer};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::process::Command;

fn command(
    server: &ScriptedServer,
    dir: &std::path::Path,
    provider: &str,
    extra: &[&str],
    prompt: &str,
) -> Command {
    let mut cmd = readable_command(server, dir, provider, extra, prompt);
    cmd.arg("--json");
    cmd
}

/// The command without `--json`: readable output and prompts on the terminal.
fn readable_command(
    server: &ScriptedServer,
    dir: &std::path::Path,
    provider: &str,
    extra: &[&str],
    prompt: &str,
) -> Command {
    let base = match provider {
        "openai" => format!("{}/v1", server.url()),
        _ => server.url(),
    };
    let mut cmd = exec_in(dir, dir);
    cmd.args(["--provider", provider, "--base-url", &base, "--model", "m"])
        .args(extra)
        .arg(prompt)
        .env("ANTHROPIC_API_KEY", "test-key")
        .env("OPENAI_API_KEY", "test-key");
    cmd
}

#[tokio::test]
async fn multi_step_task_with_approvals_over_json_lines() {
    for provider in ["anthropic", "openai"] {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("main.txt"), "hello world\n").unwrap();
        let server = ScriptedServer::start(vec![
            body(
                provider,
                &[
                    text("Let me look."),
                    call("c1", "read", json!({"path": "main.txt"})),
                ],
            ),
            body(
                provider,
                &[call(
                    "c2",
                    "edit",
                    json!({"path": "main.txt", "old_string": "world", "new_string": "there"}),
                )],
            ),
            body(
                provider,
                &[call("c3", "bash", json!({"command": "cat main.txt"}))],
            ),
            body(
                provider,
                &[call(
                    "c4",
                    "attempt_completion",
                    json!({"result": "Changed the greeting."}),
                )],
            ),
        ])
        .await
        .unwrap();
        let cmd = command(
            &server,
            dir.path(),
            provider,
            &["--approval", "ask"],
            "greet differently",
        );
        let out = run(cmd, |e| json!({"op": "approve", "call_id": e["call_id"], "preview_hash": e["preview_hash"]})).await;
        assert_eq!(out.code, 0, "{provider}: {}", out.stderr);
        assert_eq!(
            std::fs::read_to_string(dir.path().join("main.txt")).unwrap(),
            "hello there\n"
        );
        let approvals: Vec<&Value> = out
            .events
            .iter()
            .filter(|e| e["type"] == "approval_requested")
            .collect();
        assert_eq!(approvals.len(), 2, "edit and bash ask; read does not");
        let added: Vec<&str> = approvals[0]["preview"]["diff"]["hunks"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|h| h["lines"].as_array().unwrap())
            .filter(|l| l["tag"] == "added")
            .flat_map(|l| l["spans"].as_array().unwrap())
            .map(|s| s["text"].as_str().unwrap())
            .collect();
        assert!(added.concat().contains("hello there"), "{added:?}");
        assert!(
            approvals
                .iter()
                .all(|a| a["preview_hash"].as_str().is_some_and(|h| !h.is_empty()))
        );
        let end = out
            .events
            .iter()
            .find(|e| e["type"] == "task_ended")
            .unwrap();
        assert_eq!(
            end["reason"],
            json!({"kind": "completed", "summary": "Changed the greeting."})
        );
        let seqs: Vec<u64> = out
            .events
            .iter()
            .map(|e| e["seq"].as_u64().unwrap())
            .collect();
        assert!(seqs.windows(2).all(|w| w[1] > w[0]));
        let bash = out
            .events
            .iter()
            .find(|e| e["type"] == "tool_call_finished" && e["call_id"] == "c3")
            .unwrap();
        assert!(bash["result"].as_str().unwrap().contains("hello there"));
    }
}

#[tokio::test]
async fn reject_over_stdin_reaches_the_model_and_the_file_stays() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.txt"), "one\n").unwrap();
    let server = ScriptedServer::start(vec![
        body(
            "anthropic",
            &[call(
                "w",
                "write",
                json!({"path": "a.txt", "content": "two\n"}),
            )],
        ),
        body("anthropic", &[text("Understood, leaving it.")]),
    ])
    .await
    .unwrap();
    let cmd = command(
        &server,
        dir.path(),
        "anthropic",
        &["--approval", "ask"],
        "rewrite a",
    );
    let out = run(
        cmd,
        |e| json!({"op": "reject", "call_id": e["call_id"], "feedback": "not now"}),
    )
    .await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(
        std::fs::read_to_string(dir.path().join("a.txt")).unwrap(),
        "one\n"
    );
    let second = String::from_utf8_lossy(&server.requests()[1].body).into_owned();
    assert!(second.contains("The user rejected this change: not now. The file was not modified."));
}

#[tokio::test]
async fn the_iteration_cap_exits_non_zero_with_one_line() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.txt"), "one\n").unwrap();
    let server = ScriptedServer::start(vec![body(
        "openai",
        &[call("r", "read", json!({"path": "a.txt"}))],
    )])
    .await
    .unwrap();
    let cmd = command(
        &server,
        dir.path(),
        "openai",
        &["--max-iterations", "1"],
        "loop",
    );
    let out = run(cmd, |_| json!({})).await;
    assert_ne!(out.code, 0);
    assert_eq!(out.stderr.trim().lines().count(), 1, "{}", out.stderr);
    assert!(out.stderr.contains("iteration cap"), "{}", out.stderr);
    assert!(
        out.events
            .iter()
            .any(|e| e["type"] == "task_ended" && e["reason"]["kind"] == "iteration_cap")
    );
}

#[tokio::test]
async fn record_keeps_every_response_of_the_run_without_the_key() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.txt"), "one\n").unwrap();
    let first = scripts::anthropic(&[call("r", "read", json!({"path": "a.txt"}))], 5);
    let second = scripts::anthropic(
        &[call(
            "d",
            "attempt_completion",
            json!({"result": "read it"}),
        )],
        5,
    );
    let server = ScriptedServer::start(vec![
        ScriptedResponse::sse(first.clone()),
        ScriptedResponse::sse(second.clone()),
    ])
    .await
    .unwrap();
    let elsewhere = tempfile::tempdir().unwrap();
    let recordings = elsewhere.path().join("recordings");
    let cmd = command(
        &server,
        dir.path(),
        "anthropic",
        &["--record", recordings.to_str().unwrap()],
        "read a.txt",
    );
    let out = run(cmd, |_| json!({})).await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    let mut names: Vec<String> = std::fs::read_dir(&recordings)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["0001-anthropic.sse", "0002-anthropic.sse"]);
    for (name, body) in names.iter().zip([first, second]) {
        let recorded = std::fs::read(recordings.join(name)).unwrap();
        assert_eq!(
            foreman_core::providers::recording::recording_body(&recorded),
            body.as_bytes()
        );
        let text = String::from_utf8_lossy(&recorded);
        assert!(text.starts_with("# recorded: Anthropic POST "), "{text}");
        assert!(!text.contains("test-key"), "{text}");
    }
}

#[tokio::test]
async fn bad_arguments_exit_non_zero() {
    let dir = tempfile::tempdir().unwrap();
    let out = std::process::Command::new(BIN)
        .args(["exec", "prompt"])
        .envs(isolated_env(dir.path()))
        .output()
        .unwrap();
    assert_ne!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--workspace"));
    assert!(out.stdout.is_empty());
}

fn request_results(body: &Value) -> (Vec<String>, Vec<(String, String)>) {
    let mut calls = Vec::new();
    let mut results = Vec::new();
    for m in body["messages"].as_array().unwrap() {
        for block in m["content"].as_array().into_iter().flatten() {
            match block["type"].as_str() {
                Some("tool_use") => calls.push(block["id"].as_str().unwrap().to_owned()),
                Some("tool_result") => results.push((
                    block["tool_use_id"].as_str().unwrap().to_owned(),
                    block["content"].to_string(),
                )),
                _ => {}
            }
        }
    }
    (calls, results)
}

#[tokio::test]
async fn kill_9_mid_task_then_resume_finishes_with_nothing_lost() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("state").join("foreman.db");
    let db_arg = db.to_string_lossy().into_owned();
    let first = ScriptedServer::start(vec![
        body(
            "anthropic",
            &[call(
                "w1",
                "write",
                json!({"path": "made.txt", "content": "made\n"}),
            )],
        ),
        body(
            "anthropic",
            &[call("b2", "bash", json!({"command": "sleep 30"}))],
        ),
    ])
    .await
    .unwrap();
    let mut cmd = command(
        &first,
        dir.path(),
        "anthropic",
        &["--approval", "yolo", "--db", &db_arg],
        "make a file then wait",
    );
    let mut child = cmd.spawn().unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut session_id = String::new();
    let wait_for_bash = async {
        while let Some(line) = lines.next_line().await.unwrap() {
            let e: Value = serde_json::from_str(&line).unwrap();
            if e["type"] == "session_started" {
                session_id = e["session_id"].as_str().unwrap().to_owned();
            }
            if e["type"] == "tool_call_updated" && e["call_id"] == "b2" && e["state"] == "executing"
            {
                return;
            }
        }
        panic!("the CLI ended before running the command");
    };
    tokio::time::timeout(Duration::from_secs(60), wait_for_bash)
        .await
        .expect("no bash call");
    child.start_kill().unwrap(); // SIGKILL
    let status = child.wait().await.unwrap();
    assert!(!status.success());
    assert_eq!(
        std::fs::read_to_string(dir.path().join("made.txt")).unwrap(),
        "made\n"
    );

    // The session is listed.
    let listed = std::process::Command::new(BIN)
        .args(["sessions", "--workspace"])
        .arg(dir.path())
        .args(["--db", &db_arg])
        .envs(isolated_env(dir.path()))
        .output()
        .unwrap();
    assert!(
        String::from_utf8_lossy(&listed.stdout).contains(&session_id),
        "{listed:?}"
    );

    let second = ScriptedServer::start(vec![body(
        "anthropic",
        &[call(
            "c3",
            "attempt_completion",
            json!({"result": "Resumed and finished."}),
        )],
    )])
    .await
    .unwrap();
    let mut resume = Command::new(BIN);
    resume
        .arg("exec")
        .arg("--workspace")
        .arg(dir.path())
        .args([
            "--base-url",
            &second.url(),
            "--model",
            "m",
            "--json",
            "--approval",
            "yolo",
            "--db",
            &db_arg,
            "--resume",
            &session_id,
        ])
        .env("ANTHROPIC_API_KEY", "test-key")
        .envs(isolated_env(dir.path()))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    let out = run(resume, |_| json!({})).await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    let started = out
        .events
        .iter()
        .find(|e| e["type"] == "session_started")
        .unwrap();
    assert_eq!(started["session_id"], session_id.as_str());
    let taken: Vec<&Value> = out
        .events
        .iter()
        .filter(|e| e["type"] == "user_message_taken")
        .collect();
    assert_eq!(taken.len(), 1);
    assert_eq!(
        taken[0]["number"], 1,
        "numbered after the stored session's one message"
    );
    let body = second.requests()[0].json();
    let text = body.to_string();
    assert!(
        text.contains("make a file then wait"),
        "the original prompt is in the resumed history"
    );
    let (calls, results) = request_results(&body);
    assert_eq!(calls, ["w1", "b2"]);
    let ids: Vec<&str> = results.iter().map(|(id, _)| id.as_str()).collect();
    assert_eq!(ids, ["w1", "b2"], "every call has exactly one result");
    assert!(results[1].1.contains("Interrupted"), "{}", results[1].1);
    assert!(
        !results[0].1.contains("Interrupted"),
        "the finished write kept its result"
    );
}

#[tokio::test]
async fn a_workspace_rule_is_stored_and_skips_the_question_next_time() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("state").join("foreman.db");
    let db_arg = db.to_string_lossy().into_owned();
    let script = || {
        vec![
            body(
                "openai",
                &[call("b", "bash", json!({"command": "echo hi"}))],
            ),
            body(
                "openai",
                &[call("d", "attempt_completion", json!({"result": "ok"}))],
            ),
        ]
    };
    let first = ScriptedServer::start(script()).await.unwrap();
    let cmd = command(
        &first,
        dir.path(),
        "openai",
        &["--approval", "ask", "--db", &db_arg],
        "say hi",
    );
    let out = run(cmd, |e| {
        json!({"op": "approve", "call_id": e["call_id"], "preview_hash": e["preview_hash"],
               "scope": {"kind": "always", "rule": "bash(echo*)", "scope": "workspace"}})
    })
    .await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.events
            .iter()
            .any(|e| e["type"] == "rule_added" && e["scope"] == "workspace")
    );

    let second = ScriptedServer::start(script()).await.unwrap();
    let cmd = command(
        &second,
        dir.path(),
        "openai",
        &["--approval", "ask", "--db", &db_arg],
        "say hi again",
    );
    let out = run(cmd, |_| {
        panic!("the stored rule should have allowed the command")
    })
    .await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(!out.events.iter().any(|e| e["type"] == "approval_requested"));
}

#[tokio::test]
async fn readable_mode_prompts_and_shows_the_diff() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.txt"), "old line\n").unwrap();
    let server = ScriptedServer::start(vec![
        body(
            "anthropic",
            &[
                call("r", "read", json!({"path": "a.txt"})),
                call(
                    "e",
                    "edit",
                    json!({"path": "a.txt", "old_string": "old", "new_string": "new"}),
                ),
            ],
        ),
        body(
            "anthropic",
            &[call("d", "attempt_completion", json!({"result": "done"}))],
        ),
    ])
    .await
    .unwrap();
    let mut cmd = std::process::Command::new(BIN);
    cmd.arg("exec")
        .arg("--workspace")
        .arg(dir.path())
        .args(["--base-url", &server.url(), "--approval", "ask", "edit a"])
        .env("ANTHROPIC_API_KEY", "test-key")
        .envs(isolated_env(dir.path()))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(b"y\n").unwrap();
    }
    let output = tokio::task::spawn_blocking(move || child.wait_with_output())
        .await
        .unwrap()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        stdout.contains("-old line") && stdout.contains("+new line"),
        "{stdout}"
    );
    assert!(stdout.contains("Approve?"), "{stdout}");
    assert!(stdout.contains("task completed"), "{stdout}");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("a.txt")).unwrap(),
        "new line\n"
    );
}

/// The text of the user messages of a request (either wire format), in order.
fn user_texts(body: &Value) -> Vec<String> {
    body["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["role"] == "user")
        .map(|m| match &m["content"] {
            Value::String(text) => text.clone(),
            blocks => blocks
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|b| b["text"].as_str())
                .collect::<Vec<_>>()
                .join("\n"),
        })
        .collect()
}

#[tokio::test]
async fn text_protocol_calls_run_and_their_results_go_back_as_text() {
    for provider in ["anthropic", "openai"] {
        let dir = tempfile::tempdir().unwrap();
        let server = ScriptedServer::start(vec![
            // A call in a ```json fence after some prose.
            body(
                provider,
                &[text(
                    "I will write the file.\n\n```json\n{\"action\": \"write\", \"path\": \"out.txt\", \"content\": \"written through text\\n\"}\n```",
                )],
            ),
            // A bare JSON object.
            body(
                provider,
                &[text("{\"action\": \"read\", \"path\": \"out.txt\"}")],
            ),
            body(
                provider,
                &[text(
                    "```json\n{\"action\": \"attempt_completion\", \"result\": \"Wrote out.txt.\"}\n```",
                )],
            ),
        ])
        .await
        .unwrap();
        let cmd = command(
            &server,
            dir.path(),
            provider,
            &["--text-protocol", "--approval", "auto-edit"],
            "write out.txt",
        );
        let out = run(cmd, |e| panic!("auto-edit should not ask: {e}")).await;
        assert_eq!(out.code, 0, "{provider}: {}", out.stderr);
        assert_eq!(
            std::fs::read_to_string(dir.path().join("out.txt")).unwrap(),
            "written through text\n"
        );

        // The calls show as cards like native ones and finish.
        let created: Vec<(&str, &str)> = out
            .events
            .iter()
            .filter(|e| e["type"] == "tool_call_created")
            .map(|e| (e["call_id"].as_str().unwrap(), e["name"].as_str().unwrap()))
            .collect();
        let names: Vec<&str> = created.iter().map(|(_, name)| *name).collect();
        assert_eq!(names, ["write", "read", "attempt_completion"], "{provider}");
        let finished = |id: &str| {
            out.events
                .iter()
                .find(|e| e["type"] == "tool_call_finished" && e["call_id"] == id)
                .unwrap_or_else(|| panic!("{provider}: {id} never finished"))
        };
        assert_eq!(finished(created[0].0)["state"], "succeeded");
        let read = finished(created[1].0);
        assert_eq!(read["state"], "succeeded");
        assert!(
            read["result"]
                .as_str()
                .unwrap()
                .contains("written through text"),
            "{read}"
        );
        let end = out
            .events
            .iter()
            .find(|e| e["type"] == "task_ended")
            .unwrap();
        assert_eq!(
            end["reason"],
            json!({"kind": "completed", "summary": "Wrote out.txt."})
        );

        // The model got no native tools, the protocol in its system prompt, and each result as
        // text in the next request.
        let requests = server.requests();
        assert_eq!(requests.len(), 3, "{provider}");
        let first = requests[0].json();
        assert!(first.get("tools").is_none(), "{provider}: {first}");
        assert!(first.to_string().contains("# Using tools"), "{provider}");
        let second = user_texts(&requests[1].json());
        let write_result = second.last().unwrap();
        assert!(
            write_result.starts_with("Result of `write`:"),
            "{provider}: {second:?}"
        );
        let third = user_texts(&requests[2].json());
        let read_result = third.last().unwrap();
        assert!(
            read_result.starts_with("Result of `read`:")
                && read_result.contains("written through text"),
            "{provider}: {third:?}"
        );
        let replayed = requests[2].json().to_string();
        assert!(
            replayed.contains(r#"\"action\":\"write\""#),
            "the earlier call is replayed as protocol text: {replayed}"
        );
    }
}

/// Runs the readable CLI `cmd` with `input` as the user's answers, and waits for it to end.
async fn answered(mut cmd: tokio::process::Command, input: &[u8]) -> std::process::Output {
    let mut child = cmd.spawn().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(input).await.unwrap();
    stdin.flush().await.unwrap();
    tokio::time::timeout(Duration::from_secs(60), child.wait_with_output())
        .await
        .expect("the CLI hung")
        .unwrap()
}

#[tokio::test]
async fn the_readable_prompt_shows_a_cut_diff_in_full_on_request() {
    let dir = tempfile::tempdir().unwrap();
    let content: String = (1..=3000).map(|n| format!("line {n}\n")).collect();
    let server = ScriptedServer::start(vec![
        body(
            "anthropic",
            &[call(
                "w",
                "write",
                json!({"path": "long.txt", "content": content}),
            )],
        ),
        body(
            "anthropic",
            &[call(
                "done",
                "attempt_completion",
                json!({"result": "Wrote it."}),
            )],
        ),
    ])
    .await
    .unwrap();
    let cmd = readable_command(
        &server,
        dir.path(),
        "anthropic",
        &["--approval", "ask"],
        "write a long file",
    );
    // The first prompt asks for the whole diff, the second (with it) approves.
    let output = answered(cmd, b"d\ny\n").await;
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let prompts: Vec<&str> = stdout.matches("Approve? ").collect();
    assert_eq!(prompts.len(), 2, "asked once cut, once whole:\n{stdout}");
    let first = stdout.find("Approve? ").unwrap();
    let (cut, whole) = stdout.split_at(first);
    assert!(cut.contains("more lines not sent"), "the first diff is cut");
    assert!(!cut.contains("+line 3000\n"));
    assert!(
        whole.contains("[d]iff in full (") && whole.contains("+line 3000\n"),
        "the second diff has the last line"
    );
    assert_eq!(
        whole.matches("Approve? ").count(),
        2,
        "the whole diff is asked about again"
    );
    assert!(
        !whole[whole.rfind("Approve? ").unwrap()..].contains("[d]iff in full"),
        "a whole diff offers no more"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("long.txt")).unwrap(),
        content
    );
}

#[tokio::test]
async fn the_readable_prompt_approves_the_hunks_named() {
    let dir = tempfile::tempdir().unwrap();
    let old: String = (1..=30).map(|n| format!("line {n}\n")).collect();
    std::fs::write(dir.path().join("a.txt"), &old).unwrap();
    let proposed = old
        .replace("line 2\n", "line two\n")
        .replace("line 28\n", "line twenty-eight\n");
    let server = ScriptedServer::start(vec![
        body(
            "anthropic",
            &[
                call("r", "read", json!({"path": "a.txt"})),
                call("w", "write", json!({"path": "a.txt", "content": proposed})),
            ],
        ),
        body(
            "anthropic",
            &[call("d", "attempt_completion", json!({"result": "done"}))],
        ),
    ])
    .await
    .unwrap();
    let cmd = readable_command(
        &server,
        dir.path(),
        "anthropic",
        &["--approval", "ask"],
        "rename two lines",
    );
    let output = answered(cmd, b"h 2\n").await;
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    assert!(
        stdout.contains("(hunk 1)") && stdout.contains("(hunk 2)"),
        "{stdout}"
    );
    assert!(stdout.contains("[h]unks, e.g. h 1,3 (of 2)"), "{stdout}");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("a.txt")).unwrap(),
        old.replace("line 28\n", "line twenty-eight\n"),
        "only the second hunk is written"
    );
    let told = String::from_utf8_lossy(&server.requests()[1].body).into_owned();
    assert!(told.contains("hunk 2 of 2 was written"), "{told}");
}
