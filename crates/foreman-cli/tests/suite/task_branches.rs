//! Issue 49's fourth finding: a task's confined commands could move another task's branch
//! (`refs/heads/foreman/` was writable as a whole). A task writes only its own branch: each
//! attack on another task's branch leaves it where it was, checked with real git, while the
//! task's own `git add` and `git commit` still work; and the engine's own git on a task (the
//! merge) acts on the task's branch only, whatever its worktree's HEAD says.

use std::path::{Path, PathBuf};

use super::common::{BIN, Run, body, exec_in, isolated_env, run};
use foreman_core::testing::scripts::{Step, call};
use foreman_core::testing::sse_server::ScriptedServer;
use serde_json::{Value, json};

/// `git args…` in `dir`, seeing also the objects the repository's tasks made in their private
/// stores (`.git/worktrees/*/foreman-objects`), which the engine copies in only when it acts.
fn git(dir: &Path, args: &[&str]) -> String {
    let private: Vec<String> = std::fs::read_dir(dir.join(".git/worktrees"))
        .map(|entries| {
            entries
                .map(|e| {
                    e.unwrap()
                        .path()
                        .join("foreman-objects")
                        .display()
                        .to_string()
                })
                .collect()
        })
        .unwrap_or_default();
    let out = std::process::Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
        .args(args)
        .env("GIT_ALTERNATE_OBJECT_DIRECTORIES", private.join(":"))
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

fn repo(dir: &Path) -> PathBuf {
    let ws = dir.join("repo");
    std::fs::create_dir_all(&ws).unwrap();
    git(&ws, &["init", "-q", "-b", "main"]);
    std::fs::write(ws.join("app.txt"), "one\n").unwrap();
    git(&ws, &["add", "-A"]);
    git(&ws, &["commit", "-q", "-m", "first"]);
    ws
}

/// Runs a task `name` whose agent runs one bash call per `(id, command)`, in `auto` mode.
async fn task(dir: &Path, ws: &Path, name: &str, calls: &[(&str, &str)]) -> Run {
    let mut steps: Vec<Vec<Step>> = calls
        .iter()
        .map(|(id, command)| vec![call(id, "bash", json!({ "command": command }))])
        .collect();
    steps.push(vec![call(
        "done",
        "attempt_completion",
        json!({"result": "ok"}),
    )]);
    let server = ScriptedServer::start(steps.iter().map(|s| body("anthropic", s)).collect())
        .await
        .unwrap();
    let mut cmd = exec_in(dir, ws);
    cmd.args(["--base-url", &server.url(), "--model", "m", "--json"])
        .args(["--approval", "auto", "--worktree", name, "work"])
        .env("ANTHROPIC_API_KEY", "sk-ant-branches");
    // An offer to run a command outside the sandbox is refused.
    let out = run(
        cmd,
        |e: &Value| json!({"op": "reject", "call_id": e["call_id"], "feedback": null}),
    )
    .await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    out
}

fn result(out: &Run, id: &str) -> (String, String) {
    let e = out
        .events
        .iter()
        .find(|e| e["type"] == "tool_call_finished" && e["call_id"] == id)
        .unwrap_or_else(|| panic!("no result for {id}: {}", out.stderr));
    (
        e["state"].as_str().unwrap_or_default().to_owned(),
        e["result"].as_str().unwrap_or_default().to_owned(),
    )
}

fn merge(dir: &Path, ws: &Path, name: &str) -> (i32, String) {
    let out = std::process::Command::new(BIN)
        .args(["merge", name, "--workspace", ws.to_str().unwrap()])
        .envs(isolated_env(dir))
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
    )
}

const COMMIT: &str = "echo {} > {}.txt && git add -A && git -c user.name=a -c user.email=a@a commit -qm {} && git log --format=%s -1";

fn commit(name: &str) -> String {
    COMMIT.replace("{}", name)
}

#[tokio::test]
async fn a_task_moves_only_its_own_branch_and_the_merge_acts_on_it_only() {
    let dir = tempfile::tempdir().unwrap();
    let ws = repo(dir.path());
    let two = task(dir.path(), &ws, "t2", &[("c", &commit("two"))]).await;
    assert_eq!(result(&two, "c").0, "succeeded", "{}", result(&two, "c").1);
    let t2 = git(&ws, &["rev-parse", "foreman/t2"]);
    // Only in packed-refs, as `git gc` leaves it: a new loose file could shadow it.
    git(&ws, &["pack-refs", "--all"]);
    assert!(!ws.join(".git/refs/heads/foreman/t2").exists());
    let refs = "$(git rev-parse --path-format=absolute --git-common-dir)/refs/heads/foreman";
    let logs = "$(git rev-parse --path-format=absolute --git-common-dir)/logs/refs/heads/foreman";
    // After each, the branch as the task's own git sees it.
    let then = "; git rev-parse refs/heads/foreman/t2";
    let attacks = [
        (
            "update-ref",
            "git update-ref refs/heads/foreman/t2 HEAD~1".to_owned(),
        ),
        ("write", format!("git rev-parse HEAD > {refs}/t2")),
        ("rm", format!("rm -f {refs}/t2 {logs}/t2")),
        (
            "own-commit",
            "git update-ref refs/heads/foreman/t2 HEAD".to_owned(),
        ),
        ("branch-f", "git branch -f foreman/t2 HEAD".to_owned()),
        ("delete", "git branch -D foreman/t2".to_owned()),
    ];
    let mut calls: Vec<(String, String)> = vec![("own".into(), commit("one"))];
    calls.extend(
        attacks
            .iter()
            .map(|(id, c)| ((*id).to_owned(), format!("{c}{then}"))),
    );
    // Then it points its worktree, and its own branch, at t2 for the engine's git to follow.
    calls.push((
        "redirect".into(),
        "git symbolic-ref HEAD refs/heads/foreman/t2; git symbolic-ref HEAD".into(),
    ));
    let calls: Vec<(&str, &str)> = calls
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    let one = task(dir.path(), &ws, "t1", &calls).await;
    // Its own work commits on its own branch.
    let (state, text) = result(&one, "own");
    assert_eq!(state, "succeeded", "{text}");
    assert_eq!(git(&ws, &["log", "--format=%s", "-1", "foreman/t1"]), "one");
    for (id, _) in &attacks {
        let (_, text) = result(&one, id);
        assert!(
            text.trim_end().ends_with(&t2),
            "{id} moved foreman/t2 (was {t2}): {text}"
        );
        assert_eq!(git(&ws, &["rev-parse", "foreman/t2"]), t2, "after {id}");
    }
    assert!(result(&one, "redirect").1.contains("refs/heads/foreman/t2"));
    // The merge of t1 refuses to follow a HEAD that leads to another branch.
    let (code, said) = merge(dir.path(), &ws, "t1");
    assert_eq!(code, 1, "{said}");
    assert!(said.contains("not on its branch foreman/t1"), "{said}");
    assert_eq!(git(&ws, &["rev-parse", "foreman/t2"]), t2);
    assert_eq!(git(&ws, &["log", "--format=%s", "-1", "main"]), "first");
    // Nor a branch of its own that was made a pointer to t2.
    let wt = PathBuf::from(
        git(&ws, &["worktree", "list", "--porcelain"])
            .lines()
            .filter_map(|l| l.strip_prefix("worktree "))
            .find(|p| p.ends_with("t1"))
            .unwrap(),
    );
    git(&wt, &["symbolic-ref", "HEAD", "refs/heads/foreman/t1"]);
    git(
        &ws,
        &[
            "symbolic-ref",
            "refs/heads/foreman/t1",
            "refs/heads/foreman/t2",
        ],
    );
    let (code, said) = merge(dir.path(), &ws, "t1");
    assert_eq!(code, 1, "{said}");
    assert!(said.contains("not on its branch foreman/t1"), "{said}");
    assert_eq!(git(&ws, &["rev-parse", "foreman/t2"]), t2);
    assert_eq!(git(&ws, &["log", "--format=%s", "-1", "main"]), "first");
}
