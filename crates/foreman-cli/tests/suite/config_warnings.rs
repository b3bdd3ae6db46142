//! Broken configuration is never silent in `foreman-cli exec` (issue 49): a settings file with a
//! syntax error (its guard hook then does not run), a skill without front matter, an MCP entry
//! that cannot start and a rule file that links out of the workspace are each told once, on
//! stderr and as a `config_warning` event, before the task works.

use std::path::Path;

use foreman_core::testing::scripts::{call, text};
use foreman_core::testing::sse_server::ScriptedServer;
use serde_json::{Value, json};

use super::common::{body, exec_in, run};

/// A guard the person relies on, in a settings file with a syntax error (a missing `}`).
const BROKEN_SETTINGS: &str = r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
  {"type": "command", "command": "exit 2"}]}]}"#;

async fn scripted() -> ScriptedServer {
    ScriptedServer::start(vec![
        body(
            "anthropic",
            &[call("c", "bash", json!({"command": "echo ran"}))],
        ),
        body("anthropic", &[text("Done.")]),
    ])
    .await
    .unwrap()
}

fn exec(dir: &Path, ws: &Path, server: &ScriptedServer, json: bool) -> tokio::process::Command {
    let mut cmd = exec_in(dir, ws);
    cmd.args(["--base-url", &server.url(), "--model", "m"])
        .args(["--approval", "yolo"])
        .args(if json { &["--json"][..] } else { &[][..] })
        .arg("run it")
        .env("ANTHROPIC_API_KEY", "test-key");
    cmd
}

fn warnings(events: &[Value]) -> Vec<&Value> {
    events
        .iter()
        .filter(|e| e["type"] == "config_warning")
        .collect()
}

#[tokio::test]
async fn a_malformed_settings_file_is_told_once_on_stderr_and_as_an_event() {
    let dir = tempfile::tempdir().unwrap();
    let ws = dir.path().join("ws");
    std::fs::create_dir_all(ws.join(".claude")).unwrap();
    std::fs::write(ws.join(".claude/settings.json"), BROKEN_SETTINGS).unwrap();

    let server = scripted().await;
    let out = run(exec(dir.path(), &ws, &server, true), |_| json!({})).await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    let told = warnings(&out.events);
    // Once, though the hooks' files were read again for the call.
    assert_eq!(told.len(), 1, "{told:?}");
    assert_eq!(told[0]["area"], "hooks");
    let message = told[0]["message"].as_str().unwrap();
    assert!(
        message.starts_with(".claude/settings.json: not valid JSON (line 2")
            && message.ends_with("its hooks do not run."),
        "{message}"
    );
    let at = |kind: &str| out.events.iter().position(|e| e["type"] == kind).unwrap();
    assert!(at("config_warning") < at("task_started"));
    let line = format!("foreman-cli: warning: {message}");
    assert_eq!(out.stderr.matches(&line).count(), 1, "{}", out.stderr);
    // The guard did not run: the command did (which is what the person has to know).
    let result = out
        .events
        .iter()
        .find(|e| e["type"] == "tool_call_finished" && e["call_id"] == "c")
        .unwrap();
    assert_eq!(result["state"], "succeeded");

    // Without --json, stderr says it just the same.
    let server = scripted().await;
    let readable = exec(dir.path(), &ws, &server, false)
        .output()
        .await
        .unwrap();
    let stderr = String::from_utf8_lossy(&readable.stderr);
    assert_eq!(readable.status.code(), Some(0), "{stderr}");
    assert_eq!(stderr.matches(&line).count(), 1, "{stderr}");
}

#[cfg(unix)]
#[tokio::test]
async fn skills_mcp_and_rule_files_are_told_each_in_its_area() {
    let dir = tempfile::tempdir().unwrap();
    let ws = dir.path().join("ws");
    std::fs::create_dir_all(ws.join(".claude/skills/broken")).unwrap();
    std::fs::write(
        ws.join(".claude/skills/broken/SKILL.md"),
        "no front matter\n",
    )
    .unwrap();
    std::fs::create_dir_all(ws.join(".foreman")).unwrap();
    std::fs::write(
        ws.join(".foreman/mcp.json"),
        r#"{"mcpServers": {"half": {"args": []}}}"#,
    )
    .unwrap();
    let outside = dir.path().join("notes.md");
    std::fs::write(&outside, "private\n").unwrap();
    std::os::unix::fs::symlink(&outside, ws.join("AGENTS.md")).unwrap();

    let server = scripted().await;
    let out = run(exec(dir.path(), &ws, &server, true), |_| json!({})).await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    let told: Vec<(&str, &str)> = warnings(&out.events)
        .iter()
        .map(|w| (w["area"].as_str().unwrap(), w["message"].as_str().unwrap()))
        .collect();
    let area = |name: &str| -> Vec<&str> {
        told.iter()
            .filter(|(a, _)| *a == name)
            .map(|(_, m)| *m)
            .collect()
    };
    assert_eq!(area("hooks"), Vec::<&str>::new());
    let slash = area("slash");
    assert!(
        slash.len() == 1 && slash[0].starts_with(".claude/skills/broken/SKILL.md: no front matter"),
        "{told:?}"
    );
    let mcp = area("mcp");
    assert!(mcp.len() == 1 && mcp[0].contains("`half`"), "{told:?}");
    let rules = area("rules");
    assert!(
        rules.len() == 1 && rules[0].starts_with("AGENTS.md points outside the workspace"),
        "{told:?}"
    );
    for (_, message) in &told {
        let line = format!("foreman-cli: warning: {message}");
        assert_eq!(out.stderr.matches(&line).count(), 1, "{}", out.stderr);
    }
}
