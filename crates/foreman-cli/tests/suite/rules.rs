//! `foreman-cli rules`: rules of a workspace and of the user, listed with their scope, checked
//! before they are stored, removed by id; and what an allow rule cannot let through.

use foreman_core::testing::scripts::call;
use foreman_core::testing::sse_server::ScriptedServer;
use serde_json::{Value, json};
use tokio::process::Command;

use super::common::{BIN, body, exec_in, isolated_env, run};

async fn rules(
    dir: &std::path::Path,
    ws: &std::path::Path,
    args: &[&str],
) -> (bool, String, String) {
    let out = Command::new(BIN)
        .arg("rules")
        .arg(args[0])
        .arg("--workspace")
        .arg(ws)
        .args(&args[1..])
        .envs(isolated_env(dir))
        .output()
        .await
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[tokio::test]
async fn rules_are_added_with_their_scope_checked_and_removed() {
    let dir = tempfile::tempdir().unwrap();
    let ws = dir.path().join("ws");
    std::fs::create_dir(&ws).unwrap();
    let (ok, _, err) = rules(dir.path(), &ws, &["add", "--action", "deny", "bash(rm *)"]).await;
    assert!(ok, "{err}");
    let (ok, out, err) = rules(
        dir.path(),
        &ws,
        &["add", "--scope", "user", "bash(cargo test *)"],
    )
    .await;
    assert!(ok, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(
        lines[0].ends_with("\tuser\tallow\tbash(cargo test *)"),
        "{out}"
    );
    assert!(lines[1].ends_with("\tworkspace\tdeny\tbash(rm *)"), "{out}");
    let (ok, _, err) = rules(dir.path(), &ws, &["add", "bash(cargo test"]).await;
    assert!(!ok);
    assert!(err.contains("bash(cargo test"), "{err}");
    let id = lines[1].split('\t').next().unwrap();
    let (ok, out, err) = rules(dir.path(), &ws, &["remove", id]).await;
    assert!(ok, "{err}");
    assert_eq!(out.lines().count(), 1, "{out}");
    let (ok, _, err) = rules(dir.path(), &ws, &["remove", "9999"]).await;
    assert!(!ok && err.contains("there is no rule 9999"), "{err}");
}

/// Issue 38's report: "Always allow" on `git diff --no-index a.txt b.txt` added the rule
/// `bash(git diff *)`, and with no sandbox the model's next
/// `git diff --no-index --output=../x a.txt b.txt` wrote outside the workspace unasked.
#[tokio::test]
async fn an_allowed_git_diff_still_asks_before_its_output_option_writes_outside() {
    let dir = tempfile::tempdir().unwrap();
    let ws = dir.path().join("ws");
    std::fs::create_dir(&ws).unwrap();
    std::fs::write(ws.join("a.txt"), "a\n").unwrap();
    std::fs::write(ws.join("b.txt"), "b\n").unwrap();
    let steps = [
        vec![call(
            "c1",
            "bash",
            json!({"command": "git diff --no-index a.txt b.txt"}),
        )],
        vec![call(
            "c2",
            "bash",
            json!({"command": "git diff --no-index --output=../x a.txt b.txt"}),
        )],
        vec![call("d", "attempt_completion", json!({"result": "done"}))],
    ];
    let server = ScriptedServer::start(steps.iter().map(|s| body("anthropic", s)).collect())
        .await
        .unwrap();
    let mut cmd = exec_in(dir.path(), &ws);
    cmd.args(["--base-url", &server.url(), "--model", "m", "--json"])
        .args(["--approval", "ask", "--sandbox", "off", "compare the files"])
        .env("ANTHROPIC_API_KEY", "sk-ant-test-0123456789");
    let out = run(cmd, |e| {
        if e["call_id"] == "c1" {
            // The user takes the rule the app suggests.
            json!({"op": "approve", "call_id": "c1", "preview_hash": e["preview_hash"],
                   "scope": {"kind": "always", "rule": e["suggested_rule"], "scope": "session"}})
        } else {
            json!({"op": "reject", "call_id": e["call_id"], "feedback": null})
        }
    })
    .await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    let asked = |id: &str| -> Option<Value> {
        out.events
            .iter()
            .find(|e| e["type"] == "approval_requested" && e["call_id"] == id)
            .cloned()
    };
    let first = asked("c1").unwrap();
    assert_eq!(first["suggested_rule"], "bash(git diff *)");
    let request = asked("c2").expect("`git diff --output=../x` ran without asking");
    let reason = request["reason"].as_str().unwrap();
    assert!(reason.contains("no rule can allow it"), "{request}");
    assert!(reason.contains("../x"), "{request}");
    assert!(
        !dir.path().join("x").exists(),
        "`git diff --output=../x` wrote outside the workspace"
    );
}
