//! Issue 49's second finding: a deny rule on a path is about the file, not the tool. With
//! `deny read(secret.txt)` a command must not hand the file's content to the model either: in
//! the sandbox the file is hidden like a credential, and without one a command naming it asks.
//! Judged by what the scripted server received, the events and the files on disk.

use std::path::{Path, PathBuf};

use super::common::{BIN, Run, body, exec_in, isolated_env, run};
use foreman_core::testing::scripts::{Step, call};
use foreman_core::testing::sse_server::ScriptedServer;
use serde_json::{Value, json};

const SECRET: &str = "TOPSECRET-4711-do-not-send";
const PEM: &str = "PEMSECRET-0815-private-key";

fn workspace() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let ws = dir.path().join("ws");
    std::fs::create_dir_all(ws.join("keys/deep")).unwrap();
    std::fs::write(ws.join("secret.txt"), format!("{SECRET}\n")).unwrap();
    std::fs::write(ws.join("keys/deep/server.pem"), format!("{PEM}\n")).unwrap();
    std::fs::write(ws.join("notes.txt"), "plain notes\n").unwrap();
    std::fs::write(ws.join("locked.txt"), "as the user left it\n").unwrap();
    (dir, ws)
}

/// Adds the workspace rule `rule` with `action` through `foreman-cli rules add`.
fn add_rule(dir: &Path, ws: &Path, action: &str, rule: &str) {
    let out = std::process::Command::new(BIN)
        .args(["rules", "add", "--workspace", ws.to_str().unwrap()])
        .args(["--action", action, rule])
        .envs(isolated_env(dir))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Runs one bash call per `(id, command)` with `args`, answering every approval with `answer`.
async fn agent(
    dir: &Path,
    ws: &Path,
    calls: &[(&str, &str)],
    args: &[&str],
    answer: impl Fn(&Value) -> Value,
) -> (Run, ScriptedServer) {
    let mut steps: Vec<Vec<Step>> = calls
        .iter()
        .map(|(id, command)| vec![call(id, "bash", json!({ "command": command }))])
        .collect();
    steps.push(vec![call(
        "done",
        "attempt_completion",
        json!({"result": "done"}),
    )]);
    let server = ScriptedServer::start(steps.iter().map(|s| body("anthropic", s)).collect())
        .await
        .unwrap();
    let mut cmd = exec_in(dir, ws);
    cmd.args(["--base-url", &server.url(), "--model", "m", "--json"])
        .args(args)
        .arg("look around")
        .env("ANTHROPIC_API_KEY", "sk-ant-deny-0123456789");
    let out = run(cmd, answer).await;
    (out, server)
}

fn reject(e: &Value) -> Value {
    json!({"op": "reject", "call_id": e["call_id"], "feedback": null})
}

fn result(out: &Run, id: &str) -> String {
    out.events
        .iter()
        .find(|e| e["type"] == "tool_call_finished" && e["call_id"] == id)
        .and_then(|e| e["result"].as_str())
        .unwrap_or_else(|| panic!("no result for {id}: {}", out.stderr))
        .to_owned()
}

/// The last sandbox note of `id`'s card.
fn note(out: &Run, id: &str) -> Value {
    out.events
        .iter()
        .rfind(|e| e["type"] == "sandbox_changed" && e["call_id"] == id)
        .map(|e| e["sandbox"].clone())
        .unwrap_or_else(|| panic!("no sandbox note for {id}"))
}

fn asked(out: &Run, id: &str) -> Option<Value> {
    out.events
        .iter()
        .find(|e| e["type"] == "approval_requested" && e["call_id"] == id)
        .cloned()
}

/// Neither an event nor anything sent to the model carries `text`.
fn never_sent(out: &Run, server: &ScriptedServer, text: &str) {
    let events = serde_json::to_string(&out.events).unwrap();
    assert!(!events.contains(text), "an event carries {text}: {events}");
    for request in server.requests() {
        let sent = String::from_utf8_lossy(&request.body);
        assert!(!sent.contains(text), "the model was sent {text}: {sent}");
    }
}

#[tokio::test]
async fn a_read_deny_rule_hides_the_file_from_every_confined_command() {
    let (dir, ws) = workspace();
    add_rule(dir.path(), &ws, "deny", "read(secret.txt)");
    add_rule(dir.path(), &ws, "deny", "read(**/*.pem)");
    let calls: &[(&str, &str)] = &[
        ("cat", "cat secret.txt || echo refused"),
        ("grep", "grep -r SECRET . || echo refused"),
        (
            "python",
            "python3 -c \"print(open('secret.txt').read())\" || echo refused",
        ),
        ("group", "{ cat secret.txt; } || echo refused"),
        ("pem", "cat keys/*/*.pem || echo refused"),
        ("notes", "cat notes.txt"),
    ];
    let (out, server) = agent(dir.path(), &ws, calls, &["--approval", "auto"], reject).await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    never_sent(&out, &server, SECRET);
    never_sent(&out, &server, PEM);
    // Each ran confined without asking, and its card says it touched a denied path.
    for (id, path) in [
        ("cat", "secret.txt"),
        ("grep", "secret.txt"),
        ("python", "secret.txt"),
        ("group", "secret.txt"),
        ("pem", "keys/deep/server.pem"),
    ] {
        assert!(asked(&out, id).is_none(), "{id} asked");
        let note = note(&out, id);
        assert_eq!(note["level"], "workspace-write", "{id}: {note}");
        let denied: Vec<&str> = note["denied"]
            .as_array()
            .unwrap_or_else(|| panic!("{id}: {note}"))
            .iter()
            .filter_map(Value::as_str)
            .collect();
        assert!(denied.contains(&path), "{id}: {note}");
    }
    // What no rule denies still reads as before; the files themselves are untouched.
    assert!(result(&out, "notes").contains("plain notes"));
    assert!(
        result(&out, "grep").contains("Permission denied"),
        "{}",
        result(&out, "grep")
    );
    assert_eq!(
        std::fs::read_to_string(ws.join("secret.txt")).unwrap(),
        format!("{SECRET}\n")
    );
}

#[tokio::test]
async fn a_write_deny_rule_keeps_the_file_read_only_for_confined_commands() {
    let (dir, ws) = workspace();
    add_rule(dir.path(), &ws, "deny", "edit(locked.txt)");
    let calls: &[(&str, &str)] = &[
        ("append", "echo changed >> locked.txt || echo refused"),
        ("sed", "sed -i s/user/model/ locked.txt || echo refused"),
        ("rm", "rm -f locked.txt || echo refused"),
        (
            "move",
            "echo other > other.txt && mv other.txt locked.txt || echo refused",
        ),
        ("read", "cat locked.txt && echo fine > free.txt"),
    ];
    let (out, _server) = agent(dir.path(), &ws, calls, &["--approval", "auto"], reject).await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(
        std::fs::read_to_string(ws.join("locked.txt")).unwrap(),
        "as the user left it\n"
    );
    for id in ["append", "sed", "rm", "move"] {
        assert!(asked(&out, id).is_none(), "{id} asked to run outside");
        assert!(result(&out, id).contains("refused"), "{}", result(&out, id));
        assert_eq!(note(&out, id)["denied"], json!(["locked.txt"]), "{id}");
    }
    // Reading it and writing elsewhere still work.
    assert!(result(&out, "read").contains("as the user left it"));
    assert_eq!(
        std::fs::read_to_string(ws.join("free.txt")).unwrap(),
        "fine\n"
    );
}

#[tokio::test]
async fn without_a_sandbox_a_command_naming_a_denied_path_asks_even_in_yolo_mode() {
    let (dir, ws) = workspace();
    add_rule(dir.path(), &ws, "deny", "read(secret.txt)");
    let calls: &[(&str, &str)] = &[
        ("cat", "cat ./secret.txt"),
        ("python", "python3 -c \"print(open('secret.txt').read())\""),
        ("glob", "head -n 5 secr*"),
        ("notes", "cat notes.txt"),
    ];
    let args = ["--approval", "yolo", "--sandbox", "off"];
    let (out, server) = agent(dir.path(), &ws, calls, &args, reject).await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    never_sent(&out, &server, SECRET);
    for id in ["cat", "python", "glob"] {
        let request = asked(&out, id).unwrap_or_else(|| panic!("{id} ran without asking"));
        let reason = request["reason"].as_str().unwrap();
        assert!(
            reason.contains("secret.txt") && reason.contains("`read(secret.txt)`"),
            "{id}: {reason}"
        );
        assert!(reason.contains("only the sandbox"), "{id}: {reason}");
    }
    // A command that names no denied path runs as yolo mode runs it.
    assert!(asked(&out, "notes").is_none());
    assert!(result(&out, "notes").contains("plain notes"));
}
