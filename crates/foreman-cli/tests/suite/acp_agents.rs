//! Issue 51: an external agent over ACP, supervised as Foreman's own. A scripted agent of ours
//! (`tests/acp/scripted_agent.py`, stdlib Python) plays a clumsy or hostile agent through
//! `foreman-cli exec --agent-command`, and says what it observed as `RESULT key value` lines;
//! each test judges by those, by Foreman's events and by the files on disk.

use std::path::{Path, PathBuf};
use std::time::Duration;

use super::common::{BIN, Run, exec_in, isolated_env, run};
use serde_json::{Value, json};

const AGENT: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../tests/acp/scripted_agent.py"
);

fn workspace() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let ws = dir.path().join("ws");
    std::fs::create_dir_all(&ws).unwrap();
    std::fs::write(ws.join("notes.txt"), "old notes\n").unwrap();
    (dir, ws)
}

/// Runs the scripted agent on `prompt` in `ws` with `args`, answering approvals with `answer`.
async fn agent(
    dir: &Path,
    ws: &Path,
    args: &[&str],
    prompt: &str,
    answer: impl Fn(&Value) -> Value,
) -> Run {
    let mut cmd = exec_in(dir, ws);
    cmd.arg("--json")
        .arg("--agent-command")
        .arg(format!("python3 {AGENT}"))
        .args(args)
        .arg(prompt);
    run(cmd, answer).await
}

/// What the agent reported for `key` (its `RESULT key value` lines).
pub(super) fn reported(run: &Run, key: &str) -> Option<Value> {
    let said: String = run
        .events
        .iter()
        .filter(|e| e["type"] == "text_delta")
        .filter_map(|e| e["text"].as_str())
        .collect();
    said.lines().find_map(|line| {
        let rest = line.strip_prefix("RESULT ")?;
        let (k, v) = rest.split_once(' ')?;
        (k == key).then(|| serde_json::from_str(v).unwrap())
    })
}

fn ended(run: &Run) -> Value {
    run.events
        .iter()
        .find(|e| e["type"] == "task_ended")
        .unwrap_or_else(|| panic!("no task_ended: {}", run.stderr))["reason"]
        .clone()
}

fn approvals(run: &Run) -> Vec<&Value> {
    run.events
        .iter()
        .filter(|e| e["type"] == "approval_requested")
        .collect()
}

fn reject(e: &Value) -> Value {
    json!({"op": "reject", "call_id": e["call_id"], "feedback": "not like that"})
}

fn approve(e: &Value) -> Value {
    json!({"op": "approve", "call_id": e["call_id"], "preview_hash": e["preview_hash"]})
}

fn never(e: &Value) -> Value {
    panic!("nothing should ask: {e}")
}

#[tokio::test]
async fn an_agent_s_edit_shows_as_a_card_asks_with_its_diff_and_a_reject_leaves_the_disk() {
    let (dir, ws) = workspace();
    let out = agent(dir.path(), &ws, &[], "edit notes.txt new notes", reject).await;
    assert_eq!(
        reported(&out, "permission"),
        Some(json!("reject")),
        "{}",
        out.stderr
    );
    assert_eq!(
        std::fs::read_to_string(ws.join("notes.txt")).unwrap(),
        "old notes\n"
    );
    // The card came at the first report and its arguments grew with the agent's updates.
    let created = out
        .events
        .iter()
        .position(|e| e["type"] == "tool_call_created" && e["call_id"] == "edit-1")
        .expect("the agent's call has a card");
    assert_eq!(out.events[created]["kind"], "edit");
    let patches: Vec<&Value> = out
        .events
        .iter()
        .filter(|e| e["type"] == "tool_call_updated" && e["call_id"] == "edit-1")
        .flat_map(|e| e["args"].as_array().unwrap())
        .collect();
    assert!(
        patches
            .iter()
            .any(|p| p["op"] == "append" && p["text"] == " notes\n"),
        "the new text grew by appending: {patches:?}"
    );
    let asked = approvals(&out);
    assert_eq!(asked.len(), 1);
    assert_eq!(asked[0]["call_id"], "edit-1");
    let diff = &asked[0]["preview"]["diff"];
    assert_eq!(diff["path"], "notes.txt", "{diff}");
    assert_eq!(
        (diff["added"].as_u64(), diff["removed"].as_u64()),
        (Some(1), Some(1))
    );
    assert!(diff.to_string().contains(r#""text":"new""#), "{diff}");
    let finished = out
        .events
        .iter()
        .find(|e| e["type"] == "tool_call_finished" && e["call_id"] == "edit-1")
        .unwrap();
    assert_eq!(finished["state"], "rejected");
    // The person's note is their next message to the agent.
    let taken: Vec<&str> = out
        .events
        .iter()
        .filter(|e| e["type"] == "user_message_taken")
        .filter_map(|e| e["text"].as_str())
        .collect();
    assert_eq!(taken.last().copied(), Some("not like that"), "{taken:?}");
}

#[tokio::test]
async fn an_approved_edit_is_written_once_through_foreman_and_a_rewind_undoes_it() {
    let (dir, ws) = workspace();
    let out = agent(dir.path(), &ws, &[], "edit notes.txt new notes", approve).await;
    assert_eq!(
        reported(&out, "permission"),
        Some(json!("allow")),
        "{}",
        out.stderr
    );
    assert_eq!(reported(&out, "write"), Some(json!("ok")));
    assert_eq!(
        std::fs::read_to_string(ws.join("notes.txt")).unwrap(),
        "new notes\n"
    );
    // Approved once: the agent's write of exactly what was shown did not ask again.
    assert_eq!(approvals(&out).len(), 1);
    let finished = out
        .events
        .iter()
        .find(|e| e["type"] == "tool_call_finished" && e["call_id"] == "edit-1")
        .unwrap();
    assert_eq!(finished["state"], "succeeded", "{finished}");
    let errors: Vec<&Value> = out.events.iter().filter(|e| e["type"] == "error").collect();
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(ended(&out)["kind"], "final_answer");
    let session = out
        .events
        .iter()
        .find(|e| e["type"] == "session_started")
        .unwrap()["session_id"]
        .as_str()
        .unwrap()
        .to_owned();
    let rewound = tokio::process::Command::new(BIN)
        .args(["rewind", "--workspace"])
        .arg(&ws)
        .args(["--session", &session, "--before-message", "1", "--yes"])
        .envs(isolated_env(dir.path()))
        .output()
        .await
        .unwrap();
    assert!(
        rewound.status.success(),
        "{}",
        String::from_utf8_lossy(&rewound.stderr)
    );
    assert_eq!(
        std::fs::read_to_string(ws.join("notes.txt")).unwrap(),
        "old notes\n"
    );
}

#[tokio::test]
async fn writing_outside_the_place_fails_through_fs_and_by_the_agent_itself() {
    let (dir, ws) = workspace();
    let outside = dir.path().join("outside.txt");
    let prompt = format!("fs-write {} hello", outside.display());
    let out = agent(dir.path(), &ws, &["--approval", "yolo"], &prompt, never).await;
    assert_eq!(
        reported(&out, "fs-write"),
        Some(json!("error")),
        "{}",
        out.stderr
    );
    assert!(!outside.exists());

    let prompt = format!("self-write {}", outside.display());
    let out = agent(dir.path(), &ws, &["--approval", "yolo"], &prompt, never).await;
    let said = reported(&out, "self-write").unwrap();
    assert!(said.as_str().unwrap().starts_with("error"), "{said}");
    assert!(!outside.exists());
    // Its own place it may write.
    let inside = ws.join("inside.txt");
    let prompt = format!("self-write {}", inside.display());
    let out = agent(dir.path(), &ws, &["--approval", "yolo"], &prompt, never).await;
    assert_eq!(
        reported(&out, "self-write"),
        Some(json!("ok")),
        "{}",
        out.stderr
    );
}

#[tokio::test]
async fn the_agent_cannot_read_ssh_keys_through_fs_or_by_itself() {
    let (dir, ws) = workspace();
    let home = dir.path().join(".home");
    std::fs::create_dir_all(home.join(".ssh")).unwrap();
    let key = home.join(".ssh/id_ed25519");
    std::fs::write(&key, "PRIVATE-KEY-8841\n").unwrap();
    let out = agent(
        dir.path(),
        &ws,
        &["--approval", "yolo"],
        &format!("fs-read {}", key.display()),
        never,
    )
    .await;
    assert_eq!(
        reported(&out, "fs-read"),
        Some(json!("error")),
        "{}",
        out.stderr
    );
    let out = agent(
        dir.path(),
        &ws,
        &["--approval", "yolo"],
        &format!("self-read {}", key.display()),
        never,
    )
    .await;
    let all: String = out.events.iter().map(Value::to_string).collect();
    assert!(
        !all.contains("PRIVATE-KEY-8841"),
        "the key reached Foreman's events"
    );
    // A file of the place reads as it is.
    let out = agent(
        dir.path(),
        &ws,
        &[],
        &format!("fs-read {}", ws.join("notes.txt").display()),
        never,
    )
    .await;
    assert_eq!(
        reported(&out, "fs-read-content"),
        Some(json!("old notes\n"))
    );
}

#[tokio::test]
async fn a_terminal_runs_as_foreman_s_confined_command_and_cannot_print_credentials() {
    let (dir, ws) = workspace();
    let home = dir.path().join(".home");
    std::fs::create_dir_all(home.join(".aws")).unwrap();
    std::fs::write(home.join(".aws/credentials"), "AWS-SECRET-5521\n").unwrap();
    let outside = dir.path().join("from-terminal.txt");
    let line = format!(
        "echo made > {} ; cat ~/.aws/credentials ; echo inside > made.txt ; echo ran",
        outside.display()
    );
    let out = agent(
        dir.path(),
        &ws,
        &["--approval", "auto"],
        &format!("terminal {line}"),
        never,
    )
    .await;
    assert_eq!(
        reported(&out, "terminal"),
        Some(json!("ok")),
        "{}",
        out.stderr
    );
    let output = reported(&out, "terminal-output").unwrap();
    assert!(output.as_str().unwrap().contains("ran"), "{output}");
    let all: String = out.events.iter().map(Value::to_string).collect();
    assert!(
        !all.contains("AWS-SECRET-5521"),
        "the credentials reached Foreman's events"
    );
    assert!(!outside.exists(), "the terminal wrote outside its place");
    assert_eq!(
        std::fs::read_to_string(ws.join("made.txt")).unwrap(),
        "inside\n"
    );
    // Its command ran as a call of Foreman's command tool, with its own card.
    assert!(
        out.events
            .iter()
            .any(|e| e["type"] == "tool_call_created" && e["name"] == "bash")
    );
}

#[tokio::test]
async fn a_terminal_asks_in_ask_mode_and_a_rejection_runs_nothing() {
    let (dir, ws) = workspace();
    let out = agent(dir.path(), &ws, &[], "terminal echo x > made.txt", reject).await;
    assert_eq!(
        reported(&out, "terminal"),
        Some(json!("error")),
        "{}",
        out.stderr
    );
    assert_eq!(approvals(&out).len(), 1);
    assert!(!ws.join("made.txt").exists());
}

#[tokio::test]
async fn the_agent_s_own_command_asks_in_auto_mode_and_a_deny_rule_refuses_it_unasked() {
    let (dir, ws) = workspace();
    // Its own commands reach the network from its sandbox: "Auto, sandboxed" asks for them.
    let out = agent(
        dir.path(),
        &ws,
        &["--approval", "auto"],
        "ask-run make deploy",
        reject,
    )
    .await;
    assert_eq!(approvals(&out).len(), 1, "{}", out.stderr);
    assert_eq!(reported(&out, "permission"), Some(json!("reject")));
    // "Run everything" lets it through unasked.
    let out = agent(
        dir.path(),
        &ws,
        &["--approval", "yolo"],
        "ask-run make deploy",
        never,
    )
    .await;
    assert_eq!(
        reported(&out, "permission"),
        Some(json!("allow")),
        "{}",
        out.stderr
    );
    // A deny rule answers for the person, in any mode.
    let (code, _, err) = cli(
        dir.path(),
        &[
            "rules",
            "add",
            "--workspace",
            ws.to_str().unwrap(),
            "--action",
            "deny",
            "bash(make deploy)",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let out = agent(
        dir.path(),
        &ws,
        &["--approval", "yolo"],
        "ask-run make deploy",
        never,
    )
    .await;
    assert_eq!(
        reported(&out, "permission"),
        Some(json!("reject")),
        "{}",
        out.stderr
    );
}

#[tokio::test]
async fn killing_its_parents_leaves_the_cli_running() {
    let (dir, ws) = workspace();
    let out = agent(
        dir.path(),
        &ws,
        &["--approval", "yolo"],
        "kill-parent",
        never,
    )
    .await;
    let parent = reported(&out, "kill-parent").unwrap();
    assert!(parent.as_str().unwrap().starts_with("error"), "{parent}");
    assert_eq!(ended(&out)["kind"], "final_answer", "{}", out.stderr);
    assert_eq!(out.code, 0, "{}", out.stderr);
}

#[tokio::test]
async fn an_agent_that_exits_mid_turn_ends_the_task_with_its_code_and_last_words() {
    let (dir, ws) = workspace();
    let out = agent(dir.path(), &ws, &[], "exit 3", never).await;
    let reason = ended(&out);
    assert_eq!(reason["kind"], "error", "{reason}");
    let message = reason["message"].as_str().unwrap();
    assert!(message.contains("exit code 3"), "{message}");
    assert!(message.contains("boom"), "{message}");
    assert_eq!(reason["retryable"], true);
    assert_ne!(out.code, 0);
}

#[tokio::test]
async fn a_line_that_is_not_json_rpc_is_skipped() {
    let (dir, ws) = workspace();
    let out = agent(dir.path(), &ws, &[], "garbage", never).await;
    let said: String = out
        .events
        .iter()
        .filter(|e| e["type"] == "text_delta")
        .filter_map(|e| e["text"].as_str())
        .collect();
    assert!(said.contains("still here"), "{said}");
    assert_eq!(ended(&out)["kind"], "final_answer");
}

#[tokio::test]
async fn twenty_thousand_updates_in_a_burst_all_arrive_in_order() {
    let (dir, ws) = workspace();
    let out = tokio::time::timeout(
        Duration::from_secs(60),
        agent(dir.path(), &ws, &[], "flood 20000", never),
    )
    .await
    .unwrap();
    let said: String = out
        .events
        .iter()
        .filter(|e| e["type"] == "text_delta")
        .filter_map(|e| e["text"].as_str())
        .collect();
    assert_eq!(said, format!("{}\nflood done\n", "x".repeat(20_000)));
}

#[tokio::test]
async fn a_permission_pending_at_stop_is_answered_cancelled_and_the_turn_ends_cancelled() {
    let (dir, ws) = workspace();
    let out = agent(
        dir.path(),
        &ws,
        &[],
        "wait-permission",
        |_| json!({"op": "cancel"}),
    )
    .await;
    assert_eq!(approvals(&out).len(), 1);
    assert_eq!(
        reported(&out, "permission"),
        Some(json!("cancelled")),
        "{}",
        out.stderr
    );
    assert_eq!(ended(&out)["kind"], "cancelled");
}

#[tokio::test]
async fn the_agent_s_plan_is_the_task_list() {
    let (dir, ws) = workspace();
    let out = agent(dir.path(), &ws, &[], "plan", never).await;
    let todos = out
        .events
        .iter()
        .find(|e| e["type"] == "todos_changed")
        .unwrap()["todos"]
        .clone();
    assert_eq!(todos[1]["content"], "change");
    assert_eq!(todos[1]["status"], "in_progress");
    // The turn's tokens, as the agent counted them, reach the status bar.
    let usage = out.events.iter().find(|e| e["type"] == "usage").unwrap();
    assert_eq!(
        (usage["input"].as_u64(), usage["output"].as_u64()),
        (Some(12), Some(3))
    );
}

fn git(dir: &Path, args: &[&str]) -> String {
    let out = std::process::Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

/// `foreman-cli ARGS…` in `dir`'s environment: (exit code, stdout, stderr).
fn cli(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = std::process::Command::new(BIN)
        .args(args)
        .envs(isolated_env(dir))
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[tokio::test]
async fn a_task_of_an_external_agent_works_in_its_worktree_and_merges_through_the_queue() {
    let dir = tempfile::tempdir().unwrap();
    let ws = dir.path().join("repo");
    std::fs::create_dir_all(&ws).unwrap();
    git(&ws, &["init", "-q", "-b", "main"]);
    std::fs::write(ws.join("notes.txt"), "old notes\n").unwrap();
    git(&ws, &["add", "-A"]);
    git(&ws, &["commit", "-q", "-m", "first"]);
    let out = agent(
        dir.path(),
        &ws,
        &["--approval", "auto-edit", "--worktree", "agent-edit"],
        "edit notes.txt new notes",
        never,
    )
    .await;
    assert_eq!(reported(&out, "write"), Some(json!("ok")), "{}", out.stderr);
    // The person's checkout is untouched; the agent worked in the task's worktree.
    assert_eq!(
        std::fs::read_to_string(ws.join("notes.txt")).unwrap(),
        "old notes\n"
    );
    let (code, listed, err) = cli(
        dir.path(),
        &[
            "tasks",
            "list",
            "--json",
            "--workspace",
            ws.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 0, "{err}");
    let task: Value = listed
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .find(|t| t["name"] == "agent-edit")
        .unwrap();
    let place = PathBuf::from(task["path"].as_str().unwrap());
    assert!(!place.starts_with(&ws));
    assert_eq!(
        std::fs::read_to_string(place.join("notes.txt")).unwrap(),
        "new notes\n"
    );
    assert_eq!(task["state"], "ready", "{task}");

    // From its worktree, the agent itself cannot write the person's checkout.
    let target = ws.join("notes.txt");
    let out = agent(
        dir.path(),
        &ws,
        &["--approval", "yolo", "--worktree", "agent-attack"],
        &format!("self-write {}", target.display()),
        never,
    )
    .await;
    let said = reported(&out, "self-write").unwrap();
    assert!(said.as_str().unwrap().starts_with("error"), "{said}");
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "old notes\n");

    let (code, stdout, stderr) = cli(
        dir.path(),
        &["merge", "agent-edit", "--workspace", ws.to_str().unwrap()],
    );
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert_eq!(
        std::fs::read_to_string(ws.join("notes.txt")).unwrap(),
        "new notes\n"
    );
}

#[tokio::test]
async fn a_resumed_session_starts_its_agent_again_and_loads_the_agent_s_own_session() {
    let (dir, ws) = workspace();
    // In its place: the only folder the confined agent may write.
    let log = ws.join("agent-log.jsonl");
    let first = agent(dir.path(), &ws, &[], "plan", never).await;
    let session = first
        .events
        .iter()
        .find(|e| e["type"] == "session_started")
        .unwrap()["session_id"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(
        first
            .events
            .iter()
            .find(|e| e["type"] == "session_started")
            .unwrap()["model"],
        "python3"
    );
    // Resumed without naming the agent: the session's own comes back and loads its session.
    let mut cmd = exec_in(dir.path(), &ws);
    cmd.arg("--json")
        .args(["--resume", &session])
        .env("SCRIPTED_AGENT_LOG", &log)
        .arg("plan");
    let named = run(cmd, never).await;
    assert!(
        named.code != 0,
        "python3 is not an agent Foreman knows by name"
    );
    assert!(named.stderr.contains("--agent-command"), "{}", named.stderr);
    let mut cmd = exec_in(dir.path(), &ws);
    cmd.arg("--json")
        .args(["--resume", &session])
        .arg("--agent-command")
        .arg(format!("python3 {AGENT}"))
        .env("SCRIPTED_AGENT_LOG", &log)
        .arg("plan");
    let again = run(cmd, never).await;
    assert_eq!(ended(&again)["kind"], "final_answer", "{}", again.stderr);
    let methods: Vec<String> = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .map(|l| {
            serde_json::from_str::<Value>(l).unwrap()["method"]
                .as_str()
                .unwrap_or("")
                .to_owned()
        })
        .collect();
    assert!(methods.contains(&"session/load".to_owned()), "{methods:?}");
    assert!(!methods.contains(&"session/new".to_owned()), "{methods:?}");
}
