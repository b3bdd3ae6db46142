//! `foreman-cli exec --json` against a prompt-injected model: what the user allowed must not
//! let more through, the CLI's key must not reach a tool's output, and a fetch of this computer
//! or a private network must be flagged and asked about in every mode.

use std::path::{Path, PathBuf};

use super::common::{Run, body, exec_in, run};
use foreman_core::testing::scripts::{Step, call};
use foreman_core::testing::sse_server::ScriptedServer;
use serde_json::{Value, json};
use tokio::process::Command;

const KEY: &str = "sk-ant-leakcheck-0123456789abcdef";

/// A workspace one level down in its own temporary directory, so `../x` stays in the test's
/// directory.
fn workspace() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let ws = dir.path().join("ws");
    std::fs::create_dir(&ws).unwrap();
    (dir, ws)
}

fn exec(server: &ScriptedServer, dir: &Path, ws: &Path, extra: &[&str]) -> Command {
    let mut cmd = exec_in(dir, ws);
    cmd.args(["--base-url", &server.url(), "--model", "m", "--json"])
        .args(extra)
        .arg("do the task")
        .env("ANTHROPIC_API_KEY", KEY);
    cmd
}

fn script(steps: Vec<Vec<Step>>) -> Vec<foreman_core::testing::sse_server::ScriptedResponse> {
    steps.iter().map(|s| body("anthropic", s)).collect()
}

fn asked(out: &Run, call_id: &str) -> Option<Value> {
    out.events
        .iter()
        .find(|e| e["type"] == "approval_requested" && e["call_id"] == call_id)
        .cloned()
}

fn result(out: &Run, call_id: &str) -> String {
    out.events
        .iter()
        .find(|e| e["type"] == "tool_call_finished" && e["call_id"] == call_id)
        .and_then(|e| e["result"].as_str())
        .unwrap_or_else(|| panic!("no result for {call_id}"))
        .to_owned()
}

fn reject(e: &Value) -> Value {
    json!({"op": "reject", "call_id": e["call_id"], "feedback": null})
}

#[tokio::test]
async fn one_always_allow_does_not_let_substitutions_backgrounds_or_process_substitutions_through()
{
    let (dir, ws) = workspace();
    let attacks = [
        ("c2", "echo hello $(touch ../p3.txt)", "p3.txt"),
        ("c3", "echo hello `touch ../p4.txt`", "p4.txt"),
        ("c4", "echo hello & touch ../p7.txt", "p7.txt"),
        ("c5", "echo hello <(touch ../p6.txt)", "p6.txt"),
    ];
    let mut steps = vec![vec![call("c1", "bash", json!({"command": "echo hello"}))]];
    for (id, command, _) in attacks {
        steps.push(vec![call(id, "bash", json!({"command": command}))]);
    }
    steps.push(vec![call(
        "c6",
        "bash",
        json!({"command": "echo hello again"}),
    )]);
    steps.push(vec![call(
        "d",
        "attempt_completion",
        json!({"result": "done"}),
    )]);
    let server = ScriptedServer::start(script(steps)).await.unwrap();
    let out = run(
        exec(&server, dir.path(), &ws, &["--approval", "ask"]),
        |e| {
            if e["call_id"] == "c1" {
                // The user takes the rule the app suggests.
                let rule = e["suggested_rule"].as_str().unwrap();
                json!({"op": "approve", "call_id": "c1", "preview_hash": e["preview_hash"],
                   "scope": {"kind": "always", "rule": rule, "scope": "session"}})
            } else {
                reject(e)
            }
        },
    )
    .await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    let first = asked(&out, "c1").unwrap();
    assert_eq!(first["suggested_rule"], "bash(echo hello *)");
    for (id, command, file) in attacks {
        let request = asked(&out, id).unwrap_or_else(|| panic!("`{command}` ran without asking"));
        assert!(
            request["reason"]
                .as_str()
                .unwrap()
                .contains("no rule can allow it"),
            "{request}"
        );
        assert!(request["suggested_rule"].is_null(), "{request}");
        assert!(
            !dir.path().join(file).exists(),
            "`{command}` created {file}"
        );
    }
    assert!(asked(&out, "c6").is_none(), "the rule covers a plain echo");
    assert!(result(&out, "c6").contains("hello again"));
}

#[tokio::test]
async fn the_key_never_reaches_a_tool_output_the_model_the_store_or_the_events() {
    let (dir, ws) = workspace();
    std::fs::write(ws.join("key.txt"), format!("ANTHROPIC_API_KEY={KEY}\n")).unwrap();
    let everything = Path::new(env!("CARGO_MANIFEST_DIR")).join(
        "../../target/mcp-servers/node_modules/@modelcontextprotocol/server-everything/dist/index.js",
    );
    assert!(everything.is_file(), "run `make mcp-servers`");
    // A user's MCP server that was given the same key in its environment, and prints it.
    let mcp = dir.path().join("mcp.json");
    let config = json!({"mcpServers": {"everything": {
        "command": "node", "args": [everything, "stdio"], "env": {"SERVICE_KEY": KEY}}}});
    std::fs::write(&mcp, config.to_string()).unwrap();
    let steps = vec![
        vec![call(
            "env",
            "bash",
            json!({"command": "tr '\\0' '\\n' < /proc/$PPID/environ; env"}),
        )],
        vec![call("cat", "bash", json!({"command": "cat key.txt"}))],
        // Long enough that the full output is kept in a log file beside the store.
        vec![call(
            "long",
            "bash",
            json!({"command": "for i in $(seq 600); do cat key.txt; done"}),
        )],
        vec![call("read", "read", json!({"path": "key.txt"}))],
        vec![call("mcp", "everything__get-env", json!({}))],
        vec![call("d", "attempt_completion", json!({"result": "done"}))],
    ];
    let server = ScriptedServer::start(script(steps)).await.unwrap();
    let db = dir.path().join("state").join("foreman.db");
    let out = run(
        exec(
            &server,
            dir.path(),
            &ws,
            &[
                "--approval",
                "yolo",
                "--db",
                db.to_str().unwrap(),
                "--mcp-config",
                mcp.to_str().unwrap(),
            ],
        ),
        reject,
    )
    .await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    // The tools ran and printed the environments and the file, with the key scrubbed.
    assert!(
        result(&out, "env").contains("ANTHROPIC_API_KEY") || result(&out, "env").contains("HOME=")
    );
    assert!(
        result(&out, "cat").contains("ANTHROPIC_API_KEY=[REDACTED]"),
        "{}",
        result(&out, "cat")
    );
    assert!(result(&out, "read").contains("[REDACTED]"));
    assert!(
        result(&out, "long").contains("full output"),
        "{}",
        result(&out, "long")
    );
    assert!(
        result(&out, "mcp").contains("\"SERVICE_KEY\": \"[REDACTED]\""),
        "{}",
        result(&out, "mcp")
    );
    // Not in any event…
    let events = serde_json::to_string(&out.events).unwrap();
    assert!(!events.contains(KEY), "an event carries the key");
    // …nor in what the model was sent (the request header carries it, as it must)…
    for request in server.requests() {
        assert!(
            !String::from_utf8_lossy(&request.body).contains(KEY),
            "a request body carries the key"
        );
    }
    // …nor in the store or anything else the CLI wrote.
    for file in files_under(&dir.path().join("state")) {
        let bytes = std::fs::read(&file).unwrap();
        assert!(
            !bytes.windows(KEY.len()).any(|w| w == KEY.as_bytes()),
            "{} holds the key",
            file.display()
        );
    }
}

fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(files_under(&path));
        } else {
            files.push(path);
        }
    }
    files
}

#[tokio::test]
async fn a_fetch_of_this_computer_or_the_metadata_service_asks_even_in_yolo_mode() {
    let (dir, ws) = workspace();
    let steps = vec![
        vec![call(
            "local",
            "http_fetch",
            json!({"url": "http://127.0.0.1:9/admin"}),
        )],
        vec![call(
            "meta",
            "http_fetch",
            json!({"url": "http://169.254.169.254/latest/meta-data/"}),
        )],
        vec![call(
            "name",
            "http_fetch",
            json!({"url": "http://localhost:9/"}),
        )],
        vec![call("d", "attempt_completion", json!({"result": "done"}))],
    ];
    let server = ScriptedServer::start(script(steps)).await.unwrap();
    let out = run(
        exec(&server, dir.path(), &ws, &["--approval", "yolo"]),
        reject,
    )
    .await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    for (id, kind) in [
        ("local", "loopback"),
        ("meta", "cloud_metadata"),
        ("name", "loopback"),
    ] {
        let request = asked(&out, id).unwrap_or_else(|| panic!("{id} ran without asking"));
        assert_eq!(request["private_target"]["kind"], kind, "{request}");
        assert!(
            request["reason"]
                .as_str()
                .unwrap()
                .contains("private address"),
            "{request}"
        );
    }
    assert_eq!(
        asked(&out, "local").unwrap()["private_target"]["address"],
        "127.0.0.1"
    );
}
