//! Issue 51 with a real agent: Claude Code through its ACP adapter (`tests/agents`, pinned,
//! installed by `make agents`), against a scripted Anthropic server of ours
//! (`tests/agents/fake_anthropic.py`), supervised by `foreman-cli exec --agent claude`. Claude
//! Code edits files and runs commands itself (it never calls `fs/*` or `terminal/*`), so what
//! holds it is the permission it asks for, Foreman's sandbox around its process, and the
//! checkpoints; each test judges by the disk, Foreman's events and what reached the model.

use std::path::{Path, PathBuf};

use super::common::scripted_model::{
    AGENTS, ScriptedModel, agent_workspace, approve, asked, assert_confined, changed_notes,
    hostile_command, reject, rewind_to_start,
};
use super::common::{Run, exec_in, run};
use serde_json::{Value, json};

const KEY: &str = "sk-ant-scripted-4402";

/// The scripted Anthropic server of `tests/agents`.
fn anthropic(dir: &Path, turns: Value) -> ScriptedModel {
    ScriptedModel::start(dir, "fake_anthropic.py", turns)
}

/// `agents.json` in `dir`'s isolated config folder: the `claude` preset's command and own
/// folders, pointed at the scripted server.
fn configure(dir: &Path, port: u16) {
    let adapter = PathBuf::from(AGENTS).join("node_modules/.bin/claude-agent-acp");
    assert!(adapter.exists(), "run `make agents` (tests/agents) first");
    let config = dir.join(".config/dev.foreman.app");
    std::fs::create_dir_all(&config).unwrap();
    let agents = json!({"agents": [{
        "name": "claude",
        "command": adapter,
        "ownPaths": ["~/.claude", "~/.claude.json"],
        "keyEnv": "ANTHROPIC_API_KEY",
        "env": {
            "ANTHROPIC_BASE_URL": format!("http://127.0.0.1:{port}"),
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
            "CLAUDE_CODE_ENABLE_PROMPT_SUGGESTION": "false",
            "DISABLE_AUTOUPDATER": "1",
            // The tests run as root, where Claude Code refuses a session without it.
            "IS_SANDBOX": "1"
        }
    }]});
    std::fs::write(config.join("agents.json"), agents.to_string()).unwrap();
}

async fn claude(dir: &Path, ws: &Path, args: &[&str], answer: impl Fn(&Value) -> Value) -> Run {
    let mut cmd = exec_in(dir, ws);
    // Taken out of foreman-cli's environment at start, and handed to the agent alone.
    cmd.env("ANTHROPIC_API_KEY", KEY)
        .args(["--json", "--agent", "claude"])
        .args(args)
        .arg("Do the scripted work.");
    run(cmd, answer).await
}

fn edit_turns(ws: &Path) -> Value {
    json!([
        {"tool": "Edit", "input": {
            "file_path": ws.join("notes.txt"),
            "old_string": "old notes",
            "new_string": "new notes"
        }},
        {"text": "Finished."}
    ])
}

#[tokio::test]
async fn claude_code_s_edit_asks_with_its_diff_and_a_rejection_keeps_the_file() {
    let (dir, ws) = agent_workspace();
    let fake = anthropic(dir.path(), edit_turns(&ws));
    configure(dir.path(), fake.port);
    let out = claude(dir.path(), &ws, &[], reject).await;
    let asked = asked(&out);
    assert_eq!(asked.len(), 1, "{}", out.stderr);
    let diff = asked[0]["preview"]["diff"].to_string();
    assert!(
        diff.contains(r#""text":"new""#) && diff.contains("notes.txt"),
        "{diff}"
    );
    assert_eq!(
        std::fs::read_to_string(ws.join("notes.txt")).unwrap(),
        "old notes\n"
    );
    // Claude Code was told, and its card came while the call was written.
    let results = fake.main_requests();
    assert!(
        results
            .iter()
            .any(|r| r["tool_results"].to_string().contains("is_error")),
        "{results:?}"
    );
    assert!(
        out.events
            .iter()
            .any(|e| e["type"] == "tool_call_created" && e["kind"] == "edit")
    );
    // Its settings are there for the composer, in the mode that asks; its commands for `/`.
    let offered: Vec<&serde_json::Value> = out
        .events
        .iter()
        .filter(|e| e["type"] == "agent_settings")
        .collect();
    let settings = offered[0]["settings"].as_array().unwrap();
    let kind = |k: &str| settings.iter().find(|s| s["kind"] == k);
    assert_eq!(kind("mode").unwrap()["current"], "default");
    assert!(kind("model").is_some_and(|m| m["choices"].as_array().unwrap().len() > 1));
    assert!(
        offered
            .iter()
            .any(|e| e["commands"].as_array().is_some_and(|c| !c.is_empty())),
        "{offered:?}"
    );
    let end = out
        .events
        .iter()
        .find(|e| e["type"] == "task_ended")
        .unwrap();
    assert_eq!(end["reason"]["kind"], "final_answer", "{}", out.stderr);
}

#[tokio::test]
async fn claude_code_s_approved_edit_lands_and_a_rewind_undoes_it() {
    let (dir, ws) = agent_workspace();
    let fake = anthropic(dir.path(), edit_turns(&ws));
    configure(dir.path(), fake.port);
    let out = claude(dir.path(), &ws, &[], approve).await;
    assert_eq!(asked(&out).len(), 1, "{}", out.stderr);
    assert_eq!(
        std::fs::read_to_string(ws.join("notes.txt")).unwrap(),
        "new notes\n"
    );
    // The card shows what the call changed, measured from the checkpoints.
    assert!(changed_notes(&out), "{}", out.stderr);
    rewind_to_start(dir.path(), &ws, &out);
    assert_eq!(
        std::fs::read_to_string(ws.join("notes.txt")).unwrap(),
        "old notes\n"
    );
}

#[tokio::test]
async fn claude_code_s_own_bash_runs_in_foreman_s_sandbox() {
    let (dir, ws) = agent_workspace();
    let (command, outside) = hostile_command(dir.path(), "AWS-SECRET-7730");
    let fake = anthropic(
        dir.path(),
        json!([
            {"tool": "Bash", "input": {"command": command, "description": "scripted"}},
            {"text": "Finished."}
        ]),
    );
    configure(dir.path(), fake.port);
    let out = claude(dir.path(), &ws, &[], approve).await;
    // Asked as Foreman asks for a command, then run by Claude Code inside the sandbox.
    assert_eq!(asked(&out).len(), 1, "{}", out.stderr);
    assert_confined(&ws, &outside, &fake, "AWS-SECRET-7730");
}
