//! Checkpoints through the CLI: `exec --approval auto` runs a command in the sandbox and lists
//! what it changed; `checkpoints list` shows the session's checkpoints; `rewind` puts the
//! workspace back to before the message.

use foreman_core::testing::scripts::call;
use foreman_core::testing::sse_server::ScriptedServer;
use serde_json::{Value, json};
use tokio::process::Command;

use super::common::{BIN, body, exec_in, isolated_env, run};

fn cli(dir: &std::path::Path, args: &[&str]) -> Command {
    let mut cmd = Command::new(BIN);
    cmd.args(args).envs(isolated_env(dir)).kill_on_drop(true);
    cmd
}

#[tokio::test]
async fn a_command_in_auto_mode_is_listed_checkpointed_and_rewound() {
    let dir = tempfile::tempdir().unwrap();
    let ws = dir.path().join("ws");
    std::fs::create_dir(&ws).unwrap();
    std::fs::write(ws.join("notes.txt"), "alpha\n").unwrap();
    let server = ScriptedServer::start(vec![
        body(
            "openai",
            &[call(
                "b",
                "bash",
                json!({"command": "echo beta >> notes.txt && echo new > made.txt"}),
            )],
        ),
        body(
            "openai",
            &[call("d", "attempt_completion", json!({"result": "done"}))],
        ),
    ])
    .await
    .unwrap();
    let mut cmd = exec_in(dir.path(), &ws);
    cmd.args(["--provider", "openai", "--base-url"])
        .arg(format!("{}/v1", server.url()))
        .args(["--model", "m", "--json", "--approval", "auto"])
        .arg("change the notes")
        .env("OPENAI_API_KEY", "test-key");
    let out = run(cmd, |e| panic!("auto mode asks nothing here: {e}")).await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    let sandbox = out
        .events
        .iter()
        .find(|e| e["type"] == "sandbox_changed")
        .expect("the command's card says how it runs");
    assert_eq!(sandbox["sandbox"]["level"], "workspace-write");
    let changes = out
        .events
        .iter()
        .find(|e| e["type"] == "call_changes")
        .expect("what the command changed");
    let paths: Vec<&str> = changes["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["path"].as_str().unwrap())
        .collect();
    assert_eq!(paths, ["made.txt", "notes.txt"]);
    let session = out
        .events
        .iter()
        .find(|e| e["type"] == "session_started")
        .unwrap()["session_id"]
        .as_str()
        .unwrap()
        .to_owned();

    let listed = cli(dir.path(), &["checkpoints", "list", "--workspace"])
        .arg(&ws)
        .args(["--session", &session, "--json"])
        .output()
        .await
        .unwrap();
    assert!(
        listed.status.success(),
        "{}",
        String::from_utf8_lossy(&listed.stderr)
    );
    let kinds: Vec<String> = String::from_utf8_lossy(&listed.stdout)
        .lines()
        .map(|l| {
            serde_json::from_str::<Value>(l).unwrap()["kind"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    assert_eq!(kinds, ["message", "call", "after", "task_end"]);

    let rewound = cli(dir.path(), &["rewind", "--workspace"])
        .arg(&ws)
        .args(["--session", &session, "--before-message", "1", "--yes"])
        .output()
        .await
        .unwrap();
    let said = String::from_utf8_lossy(&rewound.stdout);
    assert!(
        rewound.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&rewound.stderr)
    );
    assert!(said.contains("Rewound 2 file(s)"), "{said}");
    assert_eq!(
        std::fs::read_to_string(ws.join("notes.txt")).unwrap(),
        "alpha\n"
    );
    assert!(!ws.join("made.txt").exists());
    let refused = cli(dir.path(), &["rewind", "--workspace"])
        .arg(&ws)
        .args(["--session", &session, "--before-message", "7", "--yes"])
        .output()
        .await
        .unwrap();
    assert!(!refused.status.success());
    assert!(
        String::from_utf8_lossy(&refused.stderr).contains("no checkpoint from before message 7")
    );
}
