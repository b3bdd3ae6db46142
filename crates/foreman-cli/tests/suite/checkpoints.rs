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

/// A git repository with an ignored `.env.local` (and whatever `extra` adds), committed.
fn repo_with_ignored(ws: &std::path::Path, ignore: &str, extra: &[(&str, &str)]) {
    std::fs::create_dir_all(ws).unwrap();
    let git = |args: &[&str]| {
        let ok = std::process::Command::new("git")
            .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
            .args(args)
            .current_dir(ws)
            .status()
            .unwrap()
            .success();
        assert!(ok, "git {args:?}");
    };
    git(&["init", "-q"]);
    std::fs::write(ws.join(".gitignore"), ignore).unwrap();
    std::fs::write(ws.join("app.py"), "print('hi')\n").unwrap();
    git(&["add", "-A"]);
    git(&["commit", "-q", "-m", "first"]);
    std::fs::write(ws.join(".env.local"), "SECRET_URL=http://localhost:5432\n").unwrap();
    for (path, text) in extra {
        let path = ws.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
}

fn git_clean_session(server_url: &str, dir: &std::path::Path, ws: &std::path::Path) -> Command {
    let mut cmd = exec_in(dir, ws);
    cmd.args([
        "--base-url",
        server_url,
        "--model",
        "m",
        "--json",
        "--approval",
        "auto",
    ])
    .arg("clean up")
    .env("ANTHROPIC_API_KEY", "test-key");
    cmd
}

#[tokio::test]
async fn git_clean_fdx_over_an_ignored_env_file_is_undone_by_a_rewind() {
    let dir = tempfile::tempdir().unwrap();
    let ws = dir.path().join("ws");
    repo_with_ignored(&ws, ".env.local\n", &[]);
    let server = ScriptedServer::start(vec![
        body(
            "anthropic",
            &[call("clean", "bash", json!({"command": "git clean -fdx"}))],
        ),
        body(
            "anthropic",
            &[call("d", "attempt_completion", json!({"result": "clean"}))],
        ),
    ])
    .await
    .unwrap();
    let out = run(git_clean_session(&server.url(), dir.path(), &ws), |e| {
        panic!("everything it removes is kept, so auto mode does not ask: {e}")
    })
    .await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(!ws.join(".env.local").exists(), "the command ran");
    // The command's card lists the ignored file it deleted.
    let changes = out
        .events
        .iter()
        .find(|e| e["type"] == "call_changes")
        .expect("what the command changed");
    assert!(
        changes["changes"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["path"] == ".env.local" && c["kind"] == "deleted"),
        "{changes}"
    );
    let session = out
        .events
        .iter()
        .find(|e| e["type"] == "session_started")
        .unwrap()["session_id"]
        .as_str()
        .unwrap()
        .to_owned();
    let rewound = cli(dir.path(), &["rewind", "--workspace"])
        .arg(&ws)
        .args(["--session", &session, "--before-message", "1", "--yes"])
        .output()
        .await
        .unwrap();
    let said = String::from_utf8_lossy(&rewound.stdout);
    assert!(rewound.status.success(), "{said}");
    assert_eq!(
        std::fs::read_to_string(ws.join(".env.local")).unwrap(),
        "SECRET_URL=http://localhost:5432\n"
    );
}

#[tokio::test]
async fn git_clean_fdx_that_would_delete_what_no_checkpoint_keeps_asks_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let ws = dir.path().join("ws");
    let big = "x".repeat(2 << 20);
    repo_with_ignored(
        &ws,
        ".env.local\nnode_modules/\n*.db\n",
        &[
            ("node_modules/left-pad/index.js", "module.exports = 1\n"),
            ("node_modules/left-pad/package.json", "{}\n"),
            ("data/local.db", &big),
        ],
    );
    let server = ScriptedServer::start(vec![
        body(
            "anthropic",
            &[call("clean", "bash", json!({"command": "git clean -fdx"}))],
        ),
        body(
            "anthropic",
            &[call("d", "attempt_completion", json!({"result": "left"}))],
        ),
    ])
    .await
    .unwrap();
    let out = run(
        git_clean_session(&server.url(), dir.path(), &ws),
        |e| json!({"op": "reject", "call_id": e["call_id"], "feedback": null}),
    )
    .await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    let asked = out
        .events
        .iter()
        .find(|e| e["type"] == "approval_requested" && e["call_id"] == "clean")
        .expect("auto mode asks before deleting what no checkpoint keeps");
    let reason = asked["reason"].as_str().unwrap_or_default();
    assert!(reason.contains("no checkpoint keeps"), "{asked}");
    assert!(reason.contains("node_modules/ (2 files"), "{reason}");
    assert!(reason.contains("data/local.db (2.0 MiB)"), "{reason}");
    assert!(!reason.contains(".env.local"), "it is kept: {reason}");
    // Rejected: nothing was deleted.
    assert!(ws.join("node_modules/left-pad/index.js").is_file());
    assert!(ws.join(".env.local").is_file());
}
