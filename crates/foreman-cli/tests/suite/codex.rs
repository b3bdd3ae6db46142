//! Issue 51 with a real agent: Codex through its ACP adapter (`codex-acp` over `@openai/codex`,
//! pinned in `tests/agents`, installed by `make agents`), against the scripted Responses API
//! server of ours (`tests/agents/fake_openai.py`; Codex speaks only that API), supervised by
//! `foreman-cli exec --agent codex`. Codex edits files with its own `apply_patch` and runs its
//! own commands; it reports the diff with the call and then asks without it. Foreman puts it in
//! its asking mode (`read-only`: its default, "Auto review", lets a model of Codex's approve),
//! decides each request as for its own agent, and confines its process. Each test judges by the
//! disk, Foreman's events and what reached the model.

use std::path::{Path, PathBuf};

use super::common::scripted_model::{
    AGENTS, ScriptedModel, agent_workspace, approve, asked, assert_confined, changed_notes,
    hostile_command, reject, rewind_to_start,
};
use super::common::{Run, exec_in, run};
use serde_json::{Value, json};

const KEY: &str = "sk-openai-scripted-5120";
/// A model the pinned Codex knows, with the classic tools (`exec_command`, `apply_patch`).
const MODEL: &str = "gpt-5.5";

/// `agents.json` in `dir`'s isolated config folder (the `codex` preset's command and own
/// folder), and Codex's own config in its isolated HOME, pointing it at the scripted server.
fn configure(dir: &Path, port: u16) {
    let adapter = PathBuf::from(AGENTS).join("node_modules/.bin/codex-acp");
    assert!(adapter.exists(), "run `make agents` (tests/agents) first");
    let config = dir.join(".config/dev.foreman.app");
    std::fs::create_dir_all(&config).unwrap();
    let agents = json!({"agents": [{
        "name": "codex",
        "command": adapter,
        "ownPaths": ["~/.codex"],
        "keyEnv": "OPENAI_API_KEY",
        "env": {"NO_BROWSER": "1"}
    }]});
    std::fs::write(config.join("agents.json"), agents.to_string()).unwrap();
    let codex_home = dir.join(".home/.codex");
    std::fs::create_dir_all(&codex_home).unwrap();
    std::fs::write(
        codex_home.join("config.toml"),
        format!(
            "model = \"{MODEL}\"\nmodel_provider = \"scripted\"\n\
             check_for_update_on_startup = false\n\n\
             [model_providers.scripted]\nname = \"scripted\"\n\
             base_url = \"http://127.0.0.1:{port}/v1\"\nwire_api = \"responses\"\n\
             env_key = \"OPENAI_API_KEY\"\n"
        ),
    )
    .unwrap();
}

fn openai(dir: &Path, turns: Value) -> ScriptedModel {
    ScriptedModel::start(dir, "fake_openai.py", turns)
}

async fn codex(dir: &Path, ws: &Path, answer: impl Fn(&Value) -> Value) -> Run {
    let mut cmd = exec_in(dir, ws);
    // Taken out of foreman-cli's environment at start, and handed to the agent alone.
    cmd.env("OPENAI_API_KEY", KEY)
        .args(["--json", "--agent", "codex"])
        .arg("Do the scripted work.");
    run(cmd, answer).await
}

fn patch_turns() -> Value {
    json!([
        {"custom": "apply_patch", "input":
            "*** Begin Patch\n*** Update File: notes.txt\n@@\n-old notes\n+new notes\n*** End Patch\n"},
        {"text": "Finished."}
    ])
}

#[tokio::test]
async fn codex_s_patch_asks_with_its_diff_and_a_rejection_keeps_the_file() {
    let (dir, ws) = agent_workspace();
    let fake = openai(dir.path(), patch_turns());
    configure(dir.path(), fake.port);
    let out = codex(dir.path(), &ws, reject).await;
    let asked = asked(&out);
    assert_eq!(asked.len(), 1, "{}", out.stderr);
    // Asked as Foreman's own write of the file as it would become, with its diff.
    assert_eq!(asked[0]["tool"], "write", "{:?}", asked[0]);
    let diff = asked[0]["preview"]["diff"].to_string();
    assert!(
        diff.contains(r#""text":"new""#) && diff.contains("notes.txt"),
        "{diff}"
    );
    assert_eq!(
        std::fs::read_to_string(ws.join("notes.txt")).unwrap(),
        "old notes\n"
    );
    // Codex reached the model with the key it was handed; a rejection ends its turn (it waits
    // to be told what to do differently, which a note with the rejection would be).
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
async fn codex_s_approved_patch_lands_and_a_rewind_undoes_it() {
    let (dir, ws) = agent_workspace();
    let fake = openai(dir.path(), patch_turns());
    configure(dir.path(), fake.port);
    let out = codex(dir.path(), &ws, approve).await;
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
async fn codex_s_own_command_asks_and_runs_in_foreman_s_sandbox() {
    let (dir, ws) = agent_workspace();
    let (command, outside) = hostile_command(dir.path(), "AWS-SECRET-7731");
    let fake = openai(
        dir.path(),
        json!([
            // Outside Codex's own read-only sandbox, which it asks for.
            {"tool": "exec_command", "input": {
                "cmd": command,
                "sandbox_permissions": "require_escalated",
                "justification": "The scripted work writes a file."
            }},
            {"text": "Finished."}
        ]),
    );
    configure(dir.path(), fake.port);
    let out = codex(dir.path(), &ws, approve).await;
    let asked = asked(&out);
    assert_eq!(asked.len(), 1, "{}", out.stderr);
    assert_eq!(asked[0]["tool"], "bash", "{:?}", asked[0]);
    assert_confined(&ws, &outside, &fake, "AWS-SECRET-7731");
}
