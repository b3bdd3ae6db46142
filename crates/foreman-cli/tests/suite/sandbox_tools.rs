//! The tools people run every day still work in the sandbox (`auto` mode: `workspace-write`,
//! no network), through `foreman-cli exec --json`: git, cargo, pytest, npm, a node server on a
//! unix socket in the workspace, and make.

use std::path::Path;

use super::common::{Run, body, exec_in, run};
use foreman_core::testing::scripts::{Step, call};
use foreman_core::testing::sse_server::ScriptedServer;
use serde_json::{Value, json};

fn write(root: &Path, path: &str, text: &str) {
    let file = root.join(path);
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(file, text).unwrap();
}

fn git(ws: &Path, args: &[&str]) {
    let status = std::process::Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
        .args(args)
        .current_dir(ws)
        .status()
        .unwrap();
    assert!(status.success(), "git {args:?}");
}

/// A workspace with a git repository, a crate, a pytest suite, an npm package and a Makefile.
fn projects(ws: &Path) {
    write(ws, "a.txt", "one\n");
    git(ws, &["init", "-q", "-b", "main"]);
    git(ws, &["add", "a.txt"]);
    git(ws, &["commit", "-q", "-m", "first"]);
    write(ws, "a.txt", "one\ntwo\n");
    write(
        ws,
        "crate/Cargo.toml",
        "[package]\nname = \"small\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[workspace]\n",
    );
    write(
        ws,
        "crate/src/lib.rs",
        "pub fn add(a: u32, b: u32) -> u32 { a + b }\n\n#[test]\nfn adds() { assert_eq!(add(2, 2), 4); }\n",
    );
    write(
        ws,
        "py/test_small.py",
        "def test_adds():\n    assert 2 + 2 == 4\n",
    );
    write(
        ws,
        "pkg/package.json",
        r#"{"name": "small", "version": "1.0.0", "private": true, "scripts": {"test": "node test.js"}}"#,
    );
    write(
        ws,
        "pkg/test.js",
        "const assert = require('assert');\nassert.strictEqual(2 + 2, 4);\nconsole.log('npm-test-ok');\n",
    );
    write(
        ws,
        "Makefile",
        "out.txt:\n\techo made > out.txt\n\tcat out.txt\n",
    );
}

fn result(out: &Run, id: &str) -> (String, String) {
    let e = out
        .events
        .iter()
        .find(|e| e["type"] == "tool_call_finished" && e["call_id"] == id)
        .unwrap_or_else(|| panic!("no result for {id}"));
    (
        e["state"].as_str().unwrap_or_default().to_owned(),
        e["result"].as_str().unwrap_or_default().to_owned(),
    )
}

#[tokio::test]
async fn git_cargo_pytest_npm_node_sockets_and_make_work_confined() {
    let dir = tempfile::tempdir().unwrap();
    let ws = dir.path().join("ws");
    std::fs::create_dir(&ws).unwrap();
    projects(&ws);
    let node_server = "node -e \"const net = require('net'); const s = net.createServer(c => c.end('pong')); s.listen('node.sock', () => net.connect('node.sock').on('data', d => { console.log('got ' + d); s.close(); }));\"";
    let calls: &[(&str, &str, &str)] = &[
        (
            "git",
            "git status --short && git diff && git log --oneline",
            "first",
        ),
        (
            "cargo",
            "cd crate && cargo build --offline && cargo test --offline",
            "test result: ok. 1 passed",
        ),
        (
            "pytest",
            "cd py && python3 -m pytest -q -p no:cacheprovider",
            "1 passed",
        ),
        ("npm", "cd pkg && npm test", "npm-test-ok"),
        ("node", node_server, "got pong"),
        ("make", "make", "made"),
    ];
    let mut steps: Vec<Vec<Step>> = calls
        .iter()
        .map(|(id, command, _)| vec![call(id, "bash", json!({ "command": command }))])
        .collect();
    steps.push(vec![call(
        "done",
        "attempt_completion",
        json!({"result": "ok"}),
    )]);
    let server = ScriptedServer::start(steps.iter().map(|s| body("anthropic", s)).collect())
        .await
        .unwrap();
    let home = std::env::var("HOME").unwrap();
    let mut cmd = exec_in(dir.path(), &ws);
    cmd.args(["--base-url", &server.url(), "--model", "m", "--json"])
        .args(["--approval", "auto"])
        .arg("run the checks")
        .env("ANTHROPIC_API_KEY", "sk-ant-tools")
        // The toolchains where this machine keeps them (HOME is the test's own).
        .env(
            "RUSTUP_HOME",
            std::env::var("RUSTUP_HOME").unwrap_or(format!("{home}/.rustup")),
        )
        .env(
            "CARGO_HOME",
            std::env::var("CARGO_HOME").unwrap_or(format!("{home}/.cargo")),
        )
        .env_remove("CARGO_TARGET_DIR");
    let out = run(
        cmd,
        |e: &Value| json!({"op": "reject", "call_id": e["call_id"], "feedback": null}),
    )
    .await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    let mut failures = Vec::new();
    for (id, _, expected) in calls {
        let (state, text) = result(&out, id);
        if state != "succeeded" || !text.contains(expected) {
            failures.push(format!("{id}: {state}\n{text}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    let (_, git) = result(&out, "git");
    assert!(git.contains("M a.txt") && git.contains("+two"), "{git}");
    assert_eq!(
        std::fs::read_to_string(ws.join("out.txt")).unwrap(),
        "made\n"
    );
}
