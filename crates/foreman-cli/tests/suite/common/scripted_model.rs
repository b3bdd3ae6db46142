//! A scripted model server of `tests/agents` (`fake_anthropic.py` for Claude Code,
//! `fake_openai.py`'s Responses API for Codex), run for one test and stopped when dropped.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::Value;

pub const AGENTS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/agents");

pub struct ScriptedModel {
    child: std::process::Child,
    pub port: u16,
    log: PathBuf,
}

impl Drop for ScriptedModel {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl ScriptedModel {
    /// `server` (a file of `tests/agents`) answering with `turns`, in `dir`.
    pub fn start(dir: &Path, server: &str, turns: Value) -> Self {
        let script = dir.join("turns.json");
        std::fs::write(&script, turns.to_string()).unwrap();
        let (port_file, log) = (dir.join("port"), dir.join("requests.jsonl"));
        let mut child = std::process::Command::new("python3")
            .arg(format!("{AGENTS}/{server}"))
            .arg("--script")
            .arg(&script)
            .arg("--port-file")
            .arg(&port_file)
            .arg("--log")
            .arg(&log)
            .spawn()
            .unwrap();
        for _ in 0..200 {
            if let Ok(port) = std::fs::read_to_string(&port_file) {
                return Self {
                    child,
                    port: port.trim().parse().unwrap(),
                    log,
                };
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = child.kill();
        let _ = child.wait();
        panic!("the scripted model server {server} did not start");
    }

    /// The agent's main requests (the ones that carry its tools), as the server logged them.
    pub fn main_requests(&self) -> Vec<Value> {
        std::fs::read_to_string(&self.log)
            .unwrap_or_default()
            .lines()
            .map(|l| serde_json::from_str::<Value>(l).unwrap())
            .filter(|r| r["kind"] == "main")
            .collect()
    }
}

/// A test's folder (its isolated environment) and a workspace in it holding `notes.txt`.
pub fn agent_workspace() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let ws = dir.path().join("ws");
    std::fs::create_dir_all(&ws).unwrap();
    std::fs::write(ws.join("notes.txt"), "old notes\n").unwrap();
    (dir, ws)
}

/// The approvals a run asked for.
pub fn asked(out: &super::Run) -> Vec<&Value> {
    out.events
        .iter()
        .filter(|e| e["type"] == "approval_requested")
        .collect()
}

/// Approves what was shown.
pub fn approve(e: &Value) -> Value {
    serde_json::json!({"op": "approve", "call_id": e["call_id"], "preview_hash": e["preview_hash"]})
}

/// Rejects, with no note.
pub fn reject(e: &Value) -> Value {
    serde_json::json!({"op": "reject", "call_id": e["call_id"], "feedback": null})
}

/// `foreman-cli rewind` of the run's session to before its first message; asserts it worked.
pub fn rewind_to_start(dir: &Path, ws: &Path, out: &super::Run) {
    let session = out
        .events
        .iter()
        .find(|e| e["type"] == "session_started")
        .unwrap()["session_id"]
        .as_str()
        .unwrap()
        .to_owned();
    let rewound = std::process::Command::new(super::BIN)
        .args(["rewind", "--workspace"])
        .arg(ws)
        .args(["--session", &session, "--before-message", "1", "--yes"])
        .envs(super::isolated_env(dir))
        .output()
        .unwrap();
    assert!(
        rewound.status.success(),
        "{}",
        String::from_utf8_lossy(&rewound.stderr)
    );
}

/// The run changed `notes.txt` as a call's change, measured from the checkpoints.
pub fn changed_notes(out: &super::Run) -> bool {
    out.events
        .iter()
        .any(|e| e["type"] == "call_changes" && e["changes"].to_string().contains("notes.txt"))
}

/// A command that writes inside and outside its place and prints `~/.aws/credentials` (which
/// the test puts in the isolated HOME with `secret`), and the file outside.
pub fn hostile_command(dir: &Path, secret: &str) -> (String, PathBuf) {
    let home = dir.join(".home");
    std::fs::create_dir_all(home.join(".aws")).unwrap();
    std::fs::write(home.join(".aws/credentials"), format!("{secret}\n")).unwrap();
    let outside = dir.join("outside.txt");
    let command = format!(
        "echo inside > made.txt; echo x > {}; cat ~/.aws/credentials; echo ran",
        outside.display()
    );
    (command, outside)
}

/// What `hostile_command` should have done: written inside only, ran, and the model never saw
/// the secret.
pub fn assert_confined(ws: &Path, outside: &Path, model: &ScriptedModel, secret: &str) {
    let sent: String = model.main_requests().iter().map(Value::to_string).collect();
    let made = std::fs::read_to_string(ws.join("made.txt"));
    assert_eq!(made.ok().as_deref(), Some("inside\n"), "{sent}");
    assert!(!outside.exists(), "the agent wrote outside its place");
    assert!(sent.contains("ran"), "{sent}");
    assert!(!sent.contains(secret), "the credentials reached the model");
}
