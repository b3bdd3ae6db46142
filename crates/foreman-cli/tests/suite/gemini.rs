//! Issue 51 with a real agent: Gemini CLI, which speaks ACP itself (`gemini --acp`; pinned in
//! `tests/agents`, installed by `make agents`), against the scripted Gemini API server of ours
//! (`tests/agents/fake_gemini.py`, reached through `GOOGLE_GEMINI_BASE_URL`), supervised by
//! `foreman-cli exec --agent gemini`. Each test judges by the disk, Foreman's events and what
//! reached the model.

use std::path::{Path, PathBuf};

use super::common::scripted_model::{
    AGENTS, ScriptedModel, agent_workspace, approve, asked, assert_confined, changed_notes,
    hostile_command, reject, rewind_to_start,
};
use super::common::{Run, exec_in, run};
use serde_json::{Value, json};

const KEY: &str = "gm-scripted-6021";

/// `agents.json` in `dir`'s isolated config folder: the `gemini` preset's command and own
/// folder, pointed at the scripted server.
fn configure(dir: &Path, port: u16) {
    let gemini = PathBuf::from(AGENTS).join("node_modules/.bin/gemini");
    assert!(gemini.exists(), "run `make agents` (tests/agents) first");
    let config = dir.join(".config/dev.foreman.app");
    std::fs::create_dir_all(&config).unwrap();
    let agents = json!({"agents": [{
        "name": "gemini",
        "command": gemini,
        "args": ["--acp"],
        "ownPaths": ["~/.gemini"],
        "keyEnv": "GEMINI_API_KEY",
        "env": {
            "GOOGLE_GEMINI_BASE_URL": format!("http://127.0.0.1:{port}"),
            "GEMINI_CLI_NO_RELAUNCH": "true"
        }
    }]});
    std::fs::write(config.join("agents.json"), agents.to_string()).unwrap();
}

fn google(dir: &Path, turns: Value) -> ScriptedModel {
    ScriptedModel::start(dir, "fake_gemini.py", turns)
}

async fn gemini(dir: &Path, ws: &Path, answer: impl Fn(&Value) -> Value) -> Run {
    let mut cmd = exec_in(dir, ws);
    // Taken out of foreman-cli's environment at start, and handed to the agent alone.
    cmd.env("GEMINI_API_KEY", KEY)
        .args(["--json", "--agent", "gemini"])
        .arg("Do the scripted work.");
    run(cmd, answer).await
}

fn edit_turns(ws: &Path) -> Value {
    json!([
        {"tool": "replace", "input": {
            "file_path": ws.join("notes.txt"),
            "instruction": "Make the notes new.",
            "old_string": "old notes",
            "new_string": "new notes"
        }},
        {"text": "Finished."}
    ])
}

#[tokio::test]
async fn gemini_s_edit_asks_with_its_diff_and_a_rejection_keeps_the_file() {
    let (dir, ws) = agent_workspace();
    let fake = google(dir.path(), edit_turns(&ws));
    configure(dir.path(), fake.port);
    let out = gemini(dir.path(), &ws, reject).await;
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
    let requests = fake.main_requests();
    assert!(!requests.is_empty());
    assert!(requests.iter().all(|r| r["api_key"] == KEY), "{requests:?}");
    let end = out
        .events
        .iter()
        .find(|e| e["type"] == "task_ended")
        .unwrap();
    assert_eq!(end["reason"]["kind"], "final_answer", "{}", out.stderr);
}

#[tokio::test]
async fn gemini_s_approved_edit_lands_and_a_rewind_undoes_it() {
    let (dir, ws) = agent_workspace();
    let fake = google(dir.path(), edit_turns(&ws));
    configure(dir.path(), fake.port);
    let out = gemini(dir.path(), &ws, approve).await;
    assert_eq!(asked(&out).len(), 1, "{}", out.stderr);
    assert_eq!(
        std::fs::read_to_string(ws.join("notes.txt")).unwrap(),
        "new notes\n"
    );
    assert!(changed_notes(&out), "{}", out.stderr);
    rewind_to_start(dir.path(), &ws, &out);
    assert_eq!(
        std::fs::read_to_string(ws.join("notes.txt")).unwrap(),
        "old notes\n"
    );
}

#[tokio::test]
async fn gemini_s_shell_command_asks_and_runs_in_foreman_s_sandbox() {
    let (dir, ws) = agent_workspace();
    let (command, outside) = hostile_command(dir.path(), "AWS-SECRET-7732");
    let fake = google(
        dir.path(),
        json!([
            {"tool": "run_shell_command", "input": {"command": command, "description": "scripted"}},
            {"text": "Finished."}
        ]),
    );
    configure(dir.path(), fake.port);
    let out = gemini(dir.path(), &ws, approve).await;
    let asked = asked(&out);
    assert_eq!(asked.len(), 1, "{}", out.stderr);
    assert_eq!(asked[0]["tool"], "bash", "{:?}", asked[0]);
    assert_confined(&ws, &outside, &fake, "AWS-SECRET-7732");
}
