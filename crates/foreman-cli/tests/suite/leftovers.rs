//! Nothing outlives its session: what hooks, commands and a merge's check start (background
//! jobs, `setsid`, `nohup`, `setsid -f`, double forks) is ended when the hook returns, the
//! command ends, the session ends, and when the CLI is killed; a hook that keeps its children
//! keeps them until the session ends. Judged by the real processes in `/proc`.

use std::path::Path;
use std::time::Duration;

use foreman_core::testing::scripts::{call, text};
use foreman_core::testing::sse_server::ScriptedServer;
use serde_json::{Value, json};

use super::common::{BIN, body, exec_in, isolated_env, run};

/// A `sleep` argument no other test uses: `<base>.<this test process>`.
fn marker(base: u32) -> String {
    format!("{base}.{}", std::process::id())
}

/// The markers whose `sleep` still runs (zombies are dead).
fn alive(markers: &[String]) -> Vec<String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let dir = entry.path();
        let Ok(cmdline) = std::fs::read(dir.join("cmdline")) else {
            continue;
        };
        let stat = std::fs::read_to_string(dir.join("stat")).unwrap_or_default();
        if stat
            .rsplit_once(") ")
            .is_some_and(|(_, r)| r.starts_with('Z'))
        {
            continue;
        }
        let args: Vec<String> = cmdline
            .split(|&b| b == 0)
            .map(|a| String::from_utf8_lossy(a).into_owned())
            .collect();
        let is_sleep = args.first().is_some_and(|a| a.ends_with("sleep"));
        if let Some(arg) = args.get(1)
            && is_sleep
            && markers.contains(arg)
        {
            found.push(arg.clone());
        }
    }
    found
}

/// Waits until every one of `markers` runs (a command started them).
async fn until_alive(markers: &[String]) {
    for _ in 0..400 {
        if alive(markers).len() == markers.len() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("never started: {markers:?} (alive: {:?})", alive(markers));
}

/// Waits up to 10 s for every one of `markers` to be gone; those still running.
async fn until_gone(markers: &[String]) -> Vec<String> {
    for _ in 0..200 {
        if alive(markers).is_empty() {
            return Vec::new();
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    alive(markers)
}

/// A shell line that prints `ALIVE <m>` for each of `markers` still running (pgrep anchored
/// at the start of the command line, so the shell that asks is not counted).
fn report_alive(markers: &[String]) -> String {
    markers
        .iter()
        .map(|m| format!("pgrep -f '^sleep {m}$' >/dev/null && echo 'ALIVE {m}';"))
        .collect::<String>()
        + " echo checked"
}

fn settings(ws: &Path, hooks: Value, scripts: &[(&str, String)]) {
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

fn result<'a>(events: &'a [Value], id: &str) -> &'a str {
    events
        .iter()
        .find(|e| e["type"] == "tool_call_finished" && e["call_id"] == id)
        .and_then(|e| e["result"].as_str())
        .unwrap_or_else(|| panic!("no result for {id}"))
}

#[tokio::test]
async fn daemons_a_hook_or_a_command_starts_end_with_it() {
    let dir = tempfile::tempdir().unwrap();
    let ws = dir.path().join("ws");
    std::fs::create_dir_all(&ws).unwrap();
    let hook: Vec<String> = (1..=5).map(|n| marker(4100 + n)).collect();
    let command: Vec<String> = (6..=7).map(|n| marker(4100 + n)).collect();
    // The five ways a hook's process outlived it: a background subshell, setsid, nohup,
    // setsid -f, and a double fork.
    let script = format!(
        "(sleep {} ; true) >/dev/null 2>&1 &\n\
         setsid sleep {} >/dev/null 2>&1 &\n\
         nohup sleep {} >/dev/null 2>&1 &\n\
         setsid -f sleep {} >/dev/null 2>&1\n\
         sh -c 'sleep {} >/dev/null 2>&1 &'\n\
         exit 0\n",
        hook[0], hook[1], hook[2], hook[3], hook[4]
    );
    settings(
        &ws,
        json!({"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "sh \"$CLAUDE_PROJECT_DIR\"/.claude/hooks/daemons.sh"}]}]}),
        &[(".claude/hooks/daemons.sh", script)],
    );
    // The two ways a command's process outlived it, then a look at what still runs.
    let daemons = format!(
        "setsid sh -c 'sleep {}' >/dev/null 2>&1 & setsid -f sleep {} >/dev/null 2>&1; echo started",
        command[0], command[1]
    );
    let all: Vec<String> = hook.iter().chain(&command).cloned().collect();
    let server = ScriptedServer::start(vec![
        body(
            "anthropic",
            &[call("daemons", "bash", json!({ "command": daemons }))],
        ),
        body(
            "anthropic",
            &[call(
                "look",
                "bash",
                json!({ "command": report_alive(&all) }),
            )],
        ),
        body("anthropic", &[text("Done.")]),
    ])
    .await
    .unwrap();
    let mut cmd = exec_in(dir.path(), &ws);
    cmd.args(["--base-url", &server.url(), "--model", "m", "--json"])
        .args(["--approval", "auto", "--approve-hooks"])
        .arg("start things")
        .env("ANTHROPIC_API_KEY", "test-key");
    let out = run(
        cmd,
        |e| json!({"op": "approve", "call_id": e["call_id"], "preview_hash": e["preview_hash"]}),
    )
    .await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    // While the session still ran, nothing of the earlier hook or command was left.
    let look = result(&out.events, "look");
    assert!(look.contains("checked"), "{look}");
    assert!(!look.contains("ALIVE"), "left running: {look}");
    // The card and the model are told what was ended.
    let said = result(&out.events, "daemons");
    assert!(
        said.contains("processes it left running were ended"),
        "{said}"
    );
    let hook_ended: Vec<&Value> = out
        .events
        .iter()
        .filter(|e| e["type"] == "hook_ran")
        .filter(|e| {
            e["run"]["ended"]
                .as_str()
                .is_some_and(|s| s.contains("left running were ended"))
        })
        .collect();
    assert!(!hook_ended.is_empty(), "no hook run says what it ended");
    assert_eq!(until_gone(&all).await, Vec::<String>::new());
}

#[tokio::test]
async fn a_killed_cli_leaves_no_process_of_its_session() {
    let dir = tempfile::tempdir().unwrap();
    let ws = dir.path().join("ws");
    std::fs::create_dir_all(&ws).unwrap();
    let (daemon, foreground) = (marker(4201), marker(4202));
    let line = format!("setsid sleep {daemon} >/dev/null 2>&1 & sleep {foreground}");
    let server = ScriptedServer::start(vec![body(
        "anthropic",
        &[call("long", "bash", json!({ "command": line }))],
    )])
    .await
    .unwrap();
    let mut cmd = exec_in(dir.path(), &ws);
    cmd.args(["--base-url", &server.url(), "--model", "m", "--json"])
        .args(["--approval", "auto"])
        .arg("run it")
        .env("ANTHROPIC_API_KEY", "test-key");
    let mut child = cmd.spawn().unwrap();
    let markers = vec![daemon, foreground];
    until_alive(&markers).await;
    child.start_kill().unwrap();
    child.wait().await.unwrap();
    assert_eq!(until_gone(&markers).await, Vec::<String>::new());
}

#[tokio::test]
async fn a_hook_that_keeps_its_children_keeps_them_until_the_session_ends() {
    let dir = tempfile::tempdir().unwrap();
    let ws = dir.path().join("ws");
    std::fs::create_dir_all(&ws).unwrap();
    let kept = marker(4301);
    settings(
        &ws,
        json!({"SessionStart": [{"hooks": [{"type": "command", "keepChildren": true,
            "command": format!("setsid sleep {kept} >/dev/null 2>&1 & echo watching")}]}]}),
        &[],
    );
    let server = ScriptedServer::start(vec![
        body(
            "anthropic",
            &[call(
                "look",
                "bash",
                json!({ "command": report_alive(std::slice::from_ref(&kept)) }),
            )],
        ),
        body("anthropic", &[text("Done.")]),
    ])
    .await
    .unwrap();
    let mut cmd = exec_in(dir.path(), &ws);
    cmd.args(["--base-url", &server.url(), "--model", "m", "--json"])
        .args(["--approval", "auto", "--approve-hooks"])
        .arg("look")
        .env("ANTHROPIC_API_KEY", "test-key");
    let out = run(
        cmd,
        |e| json!({"op": "approve", "call_id": e["call_id"], "preview_hash": e["preview_hash"]}),
    )
    .await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    let look = result(&out.events, "look");
    assert!(
        look.contains(&format!("ALIVE {kept}")),
        "the kept child was ended early: {look}"
    );
    assert_eq!(until_gone(&[kept]).await, Vec::<String>::new());
}

/// `git args…` in `dir`, which must succeed.
fn git(dir: &Path, args: &[&str]) {
    let out = std::process::Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "git {args:?}: {out:?}");
}

#[tokio::test]
async fn a_merge_check_ends_when_the_cli_that_runs_it_is_killed() {
    let dir = tempfile::tempdir().unwrap();
    let ws = dir.path().join("repo");
    std::fs::create_dir_all(&ws).unwrap();
    git(&ws, &["init", "-q", "-b", "main"]);
    std::fs::write(ws.join("app.txt"), "one\n").unwrap();
    git(&ws, &["add", "-A"]);
    git(&ws, &["commit", "-q", "-m", "first"]);
    let commit = "echo two >> app.txt && git add -A && \
                  git -c user.name=a -c user.email=a@a commit -q -m two";
    let server = ScriptedServer::start(vec![
        body(
            "anthropic",
            &[call("c", "bash", json!({ "command": commit }))],
        ),
        body("anthropic", &[text("Done.")]),
    ])
    .await
    .unwrap();
    let mut cmd = exec_in(dir.path(), &ws);
    cmd.args(["--base-url", &server.url(), "--model", "m", "--json"])
        .args(["--approval", "auto", "--worktree", "slow", "add a line"])
        .env("ANTHROPIC_API_KEY", "test-key");
    let out = run(
        cmd,
        |e| json!({"op": "approve", "call_id": e["call_id"], "preview_hash": e["preview_hash"]}),
    )
    .await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    let (daemon, foreground) = (marker(4401), marker(4402));
    let check = format!("setsid sleep {daemon} >/dev/null 2>&1 & sleep {foreground}");
    let mut merge = tokio::process::Command::new(BIN)
        .args(["merge", "slow", "--workspace"])
        .arg(&ws)
        .args(["--check", &check])
        .envs(isolated_env(dir.path()))
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let markers = vec![daemon, foreground];
    until_alive(&markers).await;
    merge.start_kill().unwrap();
    merge.wait().await.unwrap();
    assert_eq!(until_gone(&markers).await, Vec::<String>::new());
}

#[tokio::test]
async fn a_killed_cli_ends_a_running_hook_and_what_it_started() {
    let dir = tempfile::tempdir().unwrap();
    let ws = dir.path().join("ws");
    std::fs::create_dir_all(&ws).unwrap();
    let (daemon, foreground) = (marker(4501), marker(4502));
    settings(
        &ws,
        json!({"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command",
            "command": format!("setsid sleep {daemon} >/dev/null 2>&1 & sleep {foreground}")}]}]}),
        &[],
    );
    let server = ScriptedServer::start(vec![body(
        "anthropic",
        &[call("c", "bash", json!({"command": "echo hi"}))],
    )])
    .await
    .unwrap();
    let mut cmd = exec_in(dir.path(), &ws);
    cmd.args(["--base-url", &server.url(), "--model", "m", "--json"])
        .args(["--approval", "auto", "--approve-hooks"])
        .arg("run it")
        .env("ANTHROPIC_API_KEY", "test-key");
    let mut child = cmd.spawn().unwrap();
    let markers = vec![daemon, foreground];
    until_alive(&markers).await;
    child.start_kill().unwrap();
    child.wait().await.unwrap();
    assert_eq!(until_gone(&markers).await, Vec::<String>::new());
}

#[tokio::test]
async fn a_formatter_hook_whose_helpers_end_before_it_returns_works_and_ends_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let ws = dir.path().join("ws");
    std::fs::create_dir_all(&ws).unwrap();
    // A formatter that runs helpers in parallel and waits for them, as `prettier` or `black`
    // with workers do, then rewrites the file.
    let format = "f=\"$CLAUDE_PROJECT_DIR/notes.txt\"; \
                  (tr a-z A-Z < \"$f\" > \"$f.up\") & (sleep 0.2) & wait; mv \"$f.up\" \"$f\"";
    settings(
        &ws,
        json!({"PostToolUse": [{"matcher": "Write", "hooks": [
            {"type": "command", "command": format}]}]}),
        &[],
    );
    let server = ScriptedServer::start(vec![
        body(
            "anthropic",
            &[call(
                "w",
                "write",
                json!({"path": "notes.txt", "content": "shout\n"}),
            )],
        ),
        body("anthropic", &[text("Done.")]),
    ])
    .await
    .unwrap();
    let mut cmd = exec_in(dir.path(), &ws);
    cmd.args(["--base-url", &server.url(), "--model", "m", "--json"])
        .args(["--approval", "yolo", "--approve-hooks"])
        .arg("write it")
        .env("ANTHROPIC_API_KEY", "test-key");
    let out = run(cmd, |e| panic!("nothing asks in yolo: {e}")).await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(
        std::fs::read_to_string(ws.join("notes.txt")).unwrap(),
        "SHOUT\n"
    );
    let ran: Vec<&Value> = out
        .events
        .iter()
        .filter(|e| e["type"] == "hook_ran" && e["run"]["event"] == "PostToolUse")
        .collect();
    assert_eq!(ran.len(), 1, "{ran:?}");
    assert!(ran[0]["run"].get("ended").is_none(), "{}", ran[0]);
}
