//! Claude Code hooks through `foreman-cli exec`, with real scripts: a Python `PreToolUse` guard
//! that blocks `rm -rf` (exit 2), a `PostToolUse` formatter that rewrites what `write` wrote, a
//! `UserPromptSubmit` hook that adds context, a `Stop` hook that makes the agent go on, a JSON
//! `permissionDecision` (which never beats a deny rule); consent before a workspace's hooks run
//! and again when a script changes; bad settings, a hook that hangs and one that prints 10 MB.

use std::path::Path;

use foreman_core::testing::scripts::{call, text};
use foreman_core::testing::sse_server::ScriptedServer;
use serde_json::{Value, json};

use super::common::{BIN, body, exec_in, isolated_env, run};

/// Writes `.claude/settings.json` with `hooks`, and each `(path, text)` script.
fn claude_setup(ws: &Path, hooks: Value, scripts: &[(&str, &str)]) {
    std::fs::create_dir_all(ws.join(".claude/hooks")).unwrap();
    std::fs::write(
        ws.join(".claude/settings.json"),
        json!({ "hooks": hooks }).to_string(),
    )
    .unwrap();
    for (path, text) in scripts {
        std::fs::write(ws.join(path), text).unwrap();
    }
}

fn exec(
    dir: &Path,
    ws: &Path,
    server: &ScriptedServer,
    mode: &str,
    extra: &[&str],
) -> tokio::process::Command {
    let mut cmd = exec_in(dir, ws);
    cmd.args(["--base-url", &server.url(), "--model", "m", "--json"])
        .args(["--approval", mode])
        .args(extra)
        .arg("do the work")
        .env("ANTHROPIC_API_KEY", "test-key");
    cmd
}

/// What `foreman-cli hooks list --workspace WS` prints in `dir`'s environment.
async fn hooks_list(dir: &Path, ws: &Path) -> String {
    let out = tokio::process::Command::new(BIN)
        .args(["hooks", "list", "--workspace"])
        .arg(ws)
        .envs(isolated_env(dir))
        .output()
        .await
        .unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn of_type<'a>(events: &'a [Value], kind: &str) -> Vec<&'a Value> {
    events.iter().filter(|e| e["type"] == kind).collect()
}

fn finished<'a>(events: &'a [Value], id: &str) -> &'a Value {
    events
        .iter()
        .find(|e| e["type"] == "tool_call_finished" && e["call_id"] == id)
        .unwrap_or_else(|| panic!("no result for {id}"))
}

fn request_text(server: &ScriptedServer, n: usize) -> String {
    String::from_utf8_lossy(&server.requests()[n].body).into_owned()
}

const GUARD: &str = r#"import json, sys
data = json.load(sys.stdin)
if data["tool_name"] == "Bash" and "rm -rf" in data["tool_input"]["command"]:
    print("rm -rf is not allowed here; delete files one by one", file=sys.stderr)
    sys.exit(2)
"#;

fn guard_hooks() -> Value {
    json!({"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": "python3 \"$CLAUDE_PROJECT_DIR\"/.claude/hooks/guard.py"}]}]})
}

#[tokio::test]
async fn a_python_pre_tool_use_hook_blocks_rm_rf() {
    let dir = tempfile::tempdir().unwrap();
    let ws = dir.path().join("ws");
    std::fs::create_dir_all(ws.join("victim")).unwrap();
    std::fs::write(ws.join("victim/keep.txt"), "mine").unwrap();
    claude_setup(&ws, guard_hooks(), &[(".claude/hooks/guard.py", GUARD)]);
    let server = ScriptedServer::start(vec![
        body(
            "anthropic",
            &[call("rm", "bash", json!({"command": "rm -rf victim"}))],
        ),
        body(
            "anthropic",
            &[call(
                "ok",
                "bash",
                json!({"command": "echo fine > out.txt"}),
            )],
        ),
        body("anthropic", &[text("Done.")]),
    ])
    .await
    .unwrap();
    let done = run(
        exec(dir.path(), &ws, &server, "yolo", &["--approve-hooks"]),
        |_| json!({}),
    )
    .await;
    assert_eq!(done.code, 0, "{}", done.stderr);
    assert!(
        ws.join("victim/keep.txt").is_file(),
        "the hook kept the folder"
    );
    assert_eq!(
        std::fs::read_to_string(ws.join("out.txt")).unwrap(),
        "fine\n"
    );
    let blocked = finished(&done.events, "rm");
    assert_eq!(blocked["state"], "rejected", "{blocked}");
    assert!(
        request_text(&server, 1).contains("rm -rf is not allowed here"),
        "the model reads the hook's reason"
    );
    let runs = of_type(&done.events, "hook_ran");
    assert_eq!(runs.len(), 2, "{runs:?}");
    assert_eq!(runs[0]["call_id"], "rm");
    assert_eq!(runs[0]["run"]["verdict"], "blocked");
    assert_eq!(runs[0]["run"]["event"], "PreToolUse");
    assert_eq!(runs[0]["run"]["source"], ".claude/settings.json");
    assert_eq!(runs[1]["run"]["verdict"], "continued");
}

#[tokio::test]
async fn workspace_hooks_wait_for_consent_and_ask_again_when_a_script_changes() {
    let dir = tempfile::tempdir().unwrap();
    let ws = dir.path().join("ws");
    std::fs::create_dir_all(&ws).unwrap();
    let marker = "import pathlib, os\npathlib.Path(os.environ['CLAUDE_PROJECT_DIR'], 'ran.txt').write_text('1')\n";
    claude_setup(
        &ws,
        json!({"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "python3 .claude/hooks/mark.py"}]}]}),
        &[(".claude/hooks/mark.py", marker)],
    );
    let script = || async {
        ScriptedServer::start(vec![
            body(
                "anthropic",
                &[call("c", "bash", json!({"command": "true"}))],
            ),
            body("anthropic", &[text("Done.")]),
        ])
        .await
        .unwrap()
    };
    // Not allowed yet: the session says so, and the hook does not run.
    let server = script().await;
    let first = run(exec(dir.path(), &ws, &server, "yolo", &[]), |_| json!({})).await;
    assert_eq!(first.code, 0, "{}", first.stderr);
    let asked = of_type(&first.events, "hooks_await_consent");
    assert_eq!(asked.len(), 1, "asked once");
    let view = &asked[0]["view"];
    assert_eq!(view["hooks"][0]["command"], "python3 .claude/hooks/mark.py");
    assert_eq!(view["hooks"][0]["consent"], "waiting");
    let asked_at = first
        .events
        .iter()
        .position(|e| e["type"] == "hooks_await_consent");
    let first_tool = first
        .events
        .iter()
        .position(|e| e["type"] == "tool_call_created");
    assert!(
        asked_at < first_tool,
        "the consent request comes before any hook would run"
    );
    assert!(of_type(&first.events, "hook_ran").is_empty());
    assert!(!ws.join("ran.txt").exists());

    // `hooks list` shows it waiting, with where it comes from.
    let listed = hooks_list(dir.path(), &ws).await;
    assert!(
        listed
            .contains("PreToolUse [Bash]: python3 .claude/hooks/mark.py  — .claude/settings.json"),
        "{listed}"
    );
    assert!(listed.contains("waits for your consent"), "{listed}");

    // Allowed as it is: it runs.
    let server = script().await;
    let second = run(
        exec(dir.path(), &ws, &server, "yolo", &["--approve-hooks"]),
        |_| json!({}),
    )
    .await;
    assert_eq!(second.code, 0, "{}", second.stderr);
    assert!(ws.join("ran.txt").exists());
    assert!(of_type(&second.events, "hooks_await_consent").is_empty());

    // The script changed (as a prompt-injected agent might change it): asked again, not run.
    std::fs::remove_file(ws.join("ran.txt")).unwrap();
    std::fs::write(
        ws.join(".claude/hooks/mark.py"),
        format!("{marker}\nprint('changed')\n"),
    )
    .unwrap();
    let server = script().await;
    let third = run(exec(dir.path(), &ws, &server, "yolo", &[]), |_| json!({})).await;
    assert_eq!(of_type(&third.events, "hooks_await_consent").len(), 1);
    assert!(
        !ws.join("ran.txt").exists(),
        "a changed script does not run without consent"
    );
}

#[tokio::test]
async fn a_post_tool_use_formatter_rewrites_a_write_and_the_guard_knows() {
    let dir = tempfile::tempdir().unwrap();
    let ws = dir.path().join("ws");
    std::fs::create_dir_all(&ws).unwrap();
    let formatter = r#"import json, sys
data = json.load(sys.stdin)
path = data["tool_input"]["file_path"]
text = open(path).read().replace("\t", "    ")
open(path, "w").write(text if text.endswith("\n") else text + "\n")
"#;
    claude_setup(
        &ws,
        json!({"PostToolUse": [{"matcher": "Write|Edit", "hooks": [
            {"type": "command", "command": "python3 .claude/hooks/fmt.py"}]}]}),
        &[(".claude/hooks/fmt.py", formatter)],
    );
    let server = ScriptedServer::start(vec![
        body(
            "anthropic",
            &[call(
                "w",
                "write",
                json!({"path": "a.py", "content": "if x:\n\ty = 1"}),
            )],
        ),
        // Against the formatted text, without reading the file again.
        body(
            "anthropic",
            &[call(
                "e",
                "edit",
                json!({"path": "a.py", "old_string": "    y = 1", "new_string": "    y = 2"}),
            )],
        ),
        body("anthropic", &[text("Done.")]),
    ])
    .await
    .unwrap();
    let done = run(
        exec(dir.path(), &ws, &server, "yolo", &["--approve-hooks"]),
        |_| json!({}),
    )
    .await;
    assert_eq!(done.code, 0, "{}", done.stderr);
    assert_eq!(
        std::fs::read_to_string(ws.join("a.py")).unwrap(),
        "if x:\n    y = 2\n"
    );
    assert_eq!(
        finished(&done.events, "e")["state"],
        "succeeded",
        "{:?}",
        finished(&done.events, "e")
    );
    let told = request_text(&server, 1);
    assert!(
        told.contains("A PostToolUse hook changed a.py after your change"),
        "{told}"
    );
    let runs = of_type(&done.events, "hook_ran");
    assert_eq!(runs.len(), 2);
    assert!(runs.iter().all(|r| r["run"]["event"] == "PostToolUse"));
}

#[tokio::test]
async fn prompt_hooks_add_context_and_stop_hooks_make_the_agent_go_on() {
    let dir = tempfile::tempdir().unwrap();
    let ws = dir.path().join("ws");
    std::fs::create_dir_all(&ws).unwrap();
    // The user's own hooks (Foreman's config folder) need no consent.
    let config = dir.path().join(".config/dev.foreman.app");
    std::fs::create_dir_all(&config).unwrap();
    let stop = r#"import json, os, sys
data = json.load(sys.stdin)
if not os.path.exists(os.path.join(data["cwd"], "done.txt")):
    print(json.dumps({"decision": "block", "reason": "write done.txt before you stop"}))
"#;
    std::fs::write(config.join("stop.py"), stop).unwrap();
    std::fs::write(
        config.join("hooks.json"),
        json!({"hooks": {
            "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "echo 'Ticket: ABC-123'"}]}],
            "Stop": [{"hooks": [{"type": "command", "command": format!("python3 {}", config.join("stop.py").display())}]}]
        }})
        .to_string(),
    )
    .unwrap();
    let server = ScriptedServer::start(vec![
        body("anthropic", &[text("All done.")]),
        body(
            "anthropic",
            &[call(
                "w",
                "write",
                json!({"path": "done.txt", "content": "yes"}),
            )],
        ),
        body("anthropic", &[text("Now it is done.")]),
    ])
    .await
    .unwrap();
    let done = run(exec(dir.path(), &ws, &server, "yolo", &[]), |_| json!({})).await;
    assert_eq!(done.code, 0, "{}", done.stderr);
    assert!(
        request_text(&server, 0).contains("Ticket: ABC-123"),
        "the context reaches the model"
    );
    assert!(request_text(&server, 1).contains("write done.txt before you stop"));
    assert_eq!(server.requests().len(), 3);
    assert!(ws.join("done.txt").is_file());
    let stops: Vec<&Value> = of_type(&done.events, "hook_ran")
        .into_iter()
        .filter(|r| r["run"]["event"] == "Stop")
        .collect();
    assert_eq!(stops.len(), 2);
    assert_eq!(stops[0]["run"]["verdict"], "blocked");
    assert_eq!(stops[1]["run"]["verdict"], "continued");
    assert!(of_type(&done.events, "hooks_await_consent").is_empty());
}

#[tokio::test]
async fn a_json_permission_decision_allows_but_never_beats_a_deny_rule() {
    let dir = tempfile::tempdir().unwrap();
    let ws = dir.path().join("ws");
    std::fs::create_dir_all(&ws).unwrap();
    let allow = r#"{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow", "permissionDecisionReason": "reviewed"}}"#;
    claude_setup(
        &ws,
        json!({"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": format!("echo '{allow}'")}]}]}),
        &[],
    );
    let rules = tokio::process::Command::new(BIN)
        .args(["rules", "add", "--action", "deny", "--workspace"])
        .arg(&ws)
        .arg("bash(touch denied*)")
        .envs(isolated_env(dir.path()))
        .output()
        .await
        .unwrap();
    assert!(
        rules.status.success(),
        "{}",
        String::from_utf8_lossy(&rules.stderr)
    );
    let server = ScriptedServer::start(vec![
        body(
            "anthropic",
            &[call("a", "bash", json!({"command": "touch allowed.txt"}))],
        ),
        body(
            "anthropic",
            &[call("d", "bash", json!({"command": "touch denied.txt"}))],
        ),
        body("anthropic", &[text("Done.")]),
    ])
    .await
    .unwrap();
    let done = run(
        exec(dir.path(), &ws, &server, "ask", &["--approve-hooks"]),
        |e| panic!("nothing should ask: {e}"),
    )
    .await;
    assert_eq!(done.code, 0, "{}", done.stderr);
    assert!(
        ws.join("allowed.txt").is_file(),
        "the hook's allow ran it without asking"
    );
    assert!(
        !ws.join("denied.txt").exists(),
        "the deny rule wins over the hook"
    );
    assert_eq!(finished(&done.events, "d")["state"], "rejected");
}

#[tokio::test]
async fn bad_settings_a_hanging_hook_and_a_loud_one_leave_the_session_going() {
    let dir = tempfile::tempdir().unwrap();
    let ws = dir.path().join("ws");
    std::fs::create_dir_all(ws.join(".foreman")).unwrap();
    std::fs::write(
        ws.join(".foreman/settings.json"),
        "{\"hooks\": {\"Stop\": [",
    )
    .unwrap();
    claude_setup(
        &ws,
        json!({"PreToolUse": [{"hooks": [
            {"type": "command", "command": "sleep 30", "timeout": 1},
            {"type": "command", "command": "head -c 10000000 /dev/zero | tr '\\0' x; exit 1"}]}]}),
        &[],
    );
    let listed = hooks_list(dir.path(), &ws).await;
    assert!(
        listed.contains("warning: .foreman/settings.json: not valid JSON"),
        "{listed}"
    );
    let server = ScriptedServer::start(vec![
        body(
            "anthropic",
            &[call("c", "bash", json!({"command": "echo hi"}))],
        ),
        body("anthropic", &[text("Done.")]),
    ])
    .await
    .unwrap();
    let started = std::time::Instant::now();
    let done = run(
        exec(dir.path(), &ws, &server, "yolo", &["--approve-hooks"]),
        |_| json!({}),
    )
    .await;
    assert_eq!(done.code, 0, "{}", done.stderr);
    assert!(started.elapsed() < std::time::Duration::from_secs(20));
    assert_eq!(finished(&done.events, "c")["state"], "succeeded");
    let verdicts: Vec<&Value> = of_type(&done.events, "hook_ran")
        .iter()
        .map(|r| &r["run"]["verdict"])
        .collect();
    assert!(verdicts.contains(&&json!("timed_out")), "{verdicts:?}");
    assert!(verdicts.contains(&&json!("failed")), "{verdicts:?}");
    for run in of_type(&done.events, "hook_ran") {
        assert!(
            run.to_string().len() < 10_000,
            "a loud hook's output is cut for the card"
        );
    }
}

#[tokio::test]
async fn hooks_run_in_the_sandbox_unless_the_user_says_otherwise() {
    let dir = tempfile::tempdir().unwrap();
    let ws = dir.path().join("ws");
    std::fs::create_dir_all(&ws).unwrap();
    let home = isolated_env(dir.path())[0].1.clone();
    claude_setup(
        &ws,
        json!({"PreToolUse": [{"hooks": [
            {"type": "command", "command": "touch \"$HOME/escaped.txt\"; touch inside.txt"}]}]}),
        &[],
    );
    let script = || async {
        ScriptedServer::start(vec![
            body(
                "anthropic",
                &[call("r", "read", json!({"path": ".claude/settings.json"}))],
            ),
            body("anthropic", &[text("Done.")]),
        ])
        .await
        .unwrap()
    };
    let server = script().await;
    let done = run(
        exec(dir.path(), &ws, &server, "ask", &["--approve-hooks"]),
        |_| json!({}),
    )
    .await;
    assert_eq!(done.code, 0, "{}", done.stderr);
    assert!(ws.join("inside.txt").exists(), "the hook ran");
    assert!(
        !home.join("escaped.txt").exists(),
        "confined as bash is: nothing outside the workspace"
    );
    let server = script().await;
    let done = run(
        exec(
            dir.path(),
            &ws,
            &server,
            "ask",
            &["--hooks-outside-sandbox"],
        ),
        |_| json!({}),
    )
    .await;
    assert_eq!(done.code, 0, "{}", done.stderr);
    assert!(home.join("escaped.txt").exists(), "the user let hooks out");
}

#[tokio::test]
async fn stop_ends_a_hook_that_hangs() {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
    let dir = tempfile::tempdir().unwrap();
    let ws = dir.path().join("ws");
    std::fs::create_dir_all(&ws).unwrap();
    claude_setup(
        &ws,
        json!({"PreToolUse": [{"hooks": [{"type": "command", "command": "sleep 60"}]}]}),
        &[],
    );
    let server = ScriptedServer::start(vec![body(
        "anthropic",
        &[call("c", "bash", json!({"command": "touch ran.txt"}))],
    )])
    .await
    .unwrap();
    let mut child = exec(dir.path(), &ws, &server, "yolo", &["--approve-hooks"])
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let started = std::time::Instant::now();
    let mut ended = None;
    let read = async {
        while let Some(line) = lines.next_line().await.unwrap() {
            let event: Value = serde_json::from_str(&line).unwrap();
            if event["type"] == "tool_call_updated" && event["state"] == "validating" {
                // The hook starts now; give it a moment, then stop.
                tokio::time::sleep(std::time::Duration::from_millis(500)).await;
                stdin.write_all(b"{\"op\":\"cancel\"}\n").await.unwrap();
                stdin.flush().await.unwrap();
            }
            if event["type"] == "task_ended" {
                ended = Some(event["reason"]["kind"].clone());
            }
        }
    };
    tokio::time::timeout(std::time::Duration::from_secs(30), read)
        .await
        .expect("Stop did not end the hook");
    assert!(started.elapsed() < std::time::Duration::from_secs(20));
    assert_eq!(ended, Some(json!("cancelled")));
    assert!(!ws.join("ran.txt").exists());
}
