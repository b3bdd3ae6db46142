//! Tasks from the command line, with real repositories, real worktrees and a real sandbox:
//! `exec --worktree`, `tasks list`, `merge`, `discard`, `restore` and `tasks hand-back`, and
//! the bad inputs each must refuse with a clear error and nothing lost.

use std::path::{Path, PathBuf};

use super::common::{BIN, Run, body, exec_in, isolated_env, run};
use foreman_core::testing::scripts::{Step, call};
use foreman_core::testing::sse_server::ScriptedServer;
use serde_json::{Value, json};

fn git(dir: &Path, args: &[&str]) -> String {
    let out = std::process::Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
        .args(args)
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

/// A repository on `main`: `app.txt` of ten numbered lines and a README.
fn repo(dir: &Path) -> PathBuf {
    let ws = dir.join("repo");
    std::fs::create_dir_all(&ws).unwrap();
    git(&ws, &["init", "-q", "-b", "main"]);
    let lines: String = (1..=10).map(|n| format!("line {n}\n")).collect();
    std::fs::write(ws.join("app.txt"), lines).unwrap();
    std::fs::write(ws.join("README.md"), "hello\n").unwrap();
    git(&ws, &["add", "-A"]);
    git(&ws, &["commit", "-q", "-m", "first"]);
    ws
}

/// Runs an agent whose turns are `turns` (each a list of calls), in `auto` mode, with `args`.
async fn agent(dir: &Path, ws: &Path, turns: &[Vec<Step>], args: &[&str]) -> Run {
    // The agent reads app.txt first, as edits ask.
    let mut steps: Vec<Vec<Step>> = vec![vec![call("read", "read", json!({"path": "app.txt"}))]];
    steps.extend(turns.iter().cloned());
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
        .args(["--approval", "auto"])
        .args(args)
        .env("ANTHROPIC_API_KEY", "sk-ant-tasks");
    run(cmd, |e: &Value| {
        json!({"op": "approve", "call_id": e["call_id"], "preview_hash": e["preview_hash"]})
    })
    .await
}

/// A CLI command in `dir`'s environment: (exit code, stdout, stderr).
fn cli(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = std::process::Command::new(BIN)
        .args(args)
        .envs(isolated_env(dir))
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn tasks(dir: &Path, ws: &Path) -> Vec<Value> {
    let (code, out, err) = cli(
        dir,
        &[
            "tasks",
            "list",
            "--json",
            "--workspace",
            ws.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 0, "{err}");
    out.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn task<'a>(list: &'a [Value], name: &str) -> &'a Value {
    list.iter()
        .find(|t| t["name"] == name)
        .unwrap_or_else(|| panic!("no task {name} in {list:?}"))
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

fn edit_line(id: &str, n: u32, text: &str) -> Step {
    call(
        id,
        "edit",
        json!({"path": "app.txt", "old_string": format!("line {n}\n"), "new_string": format!("{text}\n")}),
    )
}

fn ws_arg(ws: &Path) -> &str {
    ws.to_str().unwrap()
}

/// What a prompt-injected agent in a worktree tries with git: each line says `refused` when
/// it failed and `ALLOWED` when it got through.
const GIT_ATTACK: &str = r#"try() { if eval "$1" >/dev/null 2>&1; then echo "ALLOWED: $1"; else echo "refused: $1"; fi; }
gd=$(git rev-parse --git-dir)
try 'git update-ref refs/heads/main HEAD'
try 'git config core.hooksPath /tmp'
try 'echo /tmp > "$gd/commondir"'
try 'printf "[core]
	fsmonitor = touch /tmp/owned
" > "$gd/config.worktree"'
try 'rm "$gd/commondir"'"#;

#[tokio::test]
async fn a_worktree_task_works_on_its_branch_confined_and_merges_with_a_passing_check() {
    let dir = tempfile::tempdir().unwrap();
    let ws = repo(dir.path());
    let before = std::fs::read_to_string(ws.join("app.txt")).unwrap();
    let main_before = git(&ws, &["rev-parse", "main"]);
    let db = dir.path().join(".xdg/dev.foreman.app/foreman.db");
    let attack = format!(
        "echo pwned > {}/pwned.txt; echo $?; cat {} | head -c 20; echo \"port=$FOREMAN_PORT\"",
        ws.display(),
        db.display()
    );
    let out = agent(
        dir.path(),
        &ws,
        &[
            vec![edit_line("e", 2, "line two, fixed")],
            vec![call("w", "write", json!({"path": "notes.txt", "content": "new\n"}))],
            vec![call(
                "git",
                "bash",
                json!({"command": "git add -A && git -c user.name=a -c user.email=a@a commit -q -m 'fix line two' && git status --short --branch && git log --oneline -1"}),
            )],
            vec![call("attack", "bash", json!({ "command": attack }))],
            vec![call("git-attack", "bash", json!({ "command": GIT_ATTACK }))],
        ],
        &["--worktree", "fix-two", "fix line two"],
    )
    .await;
    // None of what would move the user's branch or make the engine's git run something
    // outside the sandbox got through.
    let (_, text) = result(&out, "git-attack");
    assert_eq!(text.matches("refused").count(), 5, "{text}");
    assert!(!text.contains("ALLOWED"), "{text}");
    assert_eq!(git(&ws, &["rev-parse", "main"]), main_before);
    assert!(
        !std::fs::read_to_string(ws.join(".git/config"))
            .unwrap()
            .contains("hooksPath")
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stderr.contains("on the branch foreman/fix-two"),
        "{}",
        out.stderr
    );
    let (state, text) = result(&out, "git");
    assert_eq!(state, "succeeded", "{text}");
    assert!(
        text.contains("## foreman/fix-two") && text.contains("fix line two"),
        "{text}"
    );
    let (_, text) = result(&out, "attack");
    assert!(
        !text.contains("SQLite"),
        "the app's database is hidden: {text}"
    );
    // The user's checkout is untouched until a merge.
    assert!(!ws.join("pwned.txt").exists());
    assert_eq!(std::fs::read_to_string(ws.join("app.txt")).unwrap(), before);
    assert_eq!(git(&ws, &["status", "--porcelain"]), "");
    let list = tasks(dir.path(), &ws);
    let t = task(&list, "fix-two");
    assert_eq!(t["state"], "ready");
    assert_eq!(t["branch"], "foreman/fix-two");
    assert_eq!(t["base"], "main");
    assert_eq!(
        (t["added"].as_u64(), t["removed"].as_u64()),
        (Some(2), Some(1))
    );
    let path = PathBuf::from(t["path"].as_str().unwrap());
    assert!(!path.starts_with(&ws));
    // The agent's commit is on its branch; merge it with a check that passes.
    let (code, stdout, stderr) = cli(
        dir.path(),
        &[
            "merge",
            "fix-two",
            "--workspace",
            ws_arg(&ws),
            "--check",
            "grep -q fixed app.txt",
        ],
    );
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stdout.contains("Landed on main"), "{stdout}");
    assert!(
        stdout.contains("your checkout was brought up to date"),
        "{stdout}"
    );
    assert!(stderr.contains("running the check, confined"), "{stderr}");
    assert!(
        std::fs::read_to_string(ws.join("app.txt"))
            .unwrap()
            .contains("line two, fixed")
    );
    assert!(ws.join("notes.txt").is_file());
    assert_eq!(git(&ws, &["status", "--porcelain"]), "");
    let list = tasks(dir.path(), &ws);
    assert_eq!(task(&list, "fix-two")["state"], "merged");
    // Merged tasks are cleaned up on request; the disk is freed.
    let (code, stdout, _) = cli(
        dir.path(),
        &["tasks", "clean-up", "--workspace", ws_arg(&ws)],
    );
    assert_eq!(code, 0);
    assert!(stdout.starts_with("Freed"), "{stdout}");
    assert!(!path.exists());
}

#[tokio::test]
async fn two_tasks_on_one_file_see_each_other_and_the_second_conflicts_until_fixed() {
    let dir = tempfile::tempdir().unwrap();
    let ws = repo(dir.path());
    let one = agent(
        dir.path(),
        &ws,
        &[vec![edit_line("e", 5, "five by one")]],
        &["--worktree", "one", "x"],
    )
    .await;
    assert_eq!(one.code, 0, "{}", one.stderr);
    let two = agent(
        dir.path(),
        &ws,
        &[vec![edit_line("e", 5, "five by two")]],
        &["--worktree", "two", "x"],
    )
    .await;
    assert_eq!(two.code, 0, "{}", two.stderr);
    let list = tasks(dir.path(), &ws);
    for (me, other) in [("one", "two"), ("two", "one")] {
        let overlaps = task(&list, me)["overlaps"].as_array().unwrap().clone();
        assert_eq!(overlaps.len(), 1, "{overlaps:?}");
        assert_eq!(overlaps[0]["path"], "app.txt");
        assert_eq!(overlaps[0]["task_name"], other);
        assert_eq!(overlaps[0]["likely_conflict"], true);
    }
    let (code, _, _) = cli(dir.path(), &["merge", "one", "--workspace", ws_arg(&ws)]);
    assert_eq!(code, 0);
    let main_after_one = git(&ws, &["rev-parse", "main"]);
    let (code, stdout, stderr) = cli(
        dir.path(),
        &["merge", "two", "--workspace", ws_arg(&ws), "--json"],
    );
    assert_eq!(code, 1, "{stdout}{stderr}");
    let progress: Value = serde_json::from_str(stdout.trim()).unwrap();
    assert_eq!(progress["step"], "conflict");
    assert_eq!(progress["conflicts"], json!(["app.txt"]));
    assert_eq!(
        git(&ws, &["rev-parse", "main"]),
        main_after_one,
        "nothing landed"
    );
    let list = tasks(dir.path(), &ws);
    assert_eq!(task(&list, "two")["state"], "failed");
    // Its agent fixes it: resolves onto main's line, then it merges.
    let id = task(&list, "two")["id"].as_str().unwrap().to_owned();
    let path = PathBuf::from(task(&list, "two")["path"].as_str().unwrap());
    let fix = "git -c user.name=a -c user.email=a@a rebase -q main || (printf 'line 1\\nline 2\\nline 3\\nline 4\\nfive by one and two\\nline 6\\nline 7\\nline 8\\nline 9\\nline 10\\n' > app.txt && git add app.txt && GIT_EDITOR=true git -c user.name=a -c user.email=a@a rebase --continue); git log --oneline -2";
    let fixed = agent(
        dir.path(),
        &ws,
        &[vec![call("fix", "bash", json!({ "command": fix }))]],
        &["--resume", &id, "fix the conflict"],
    )
    .await;
    assert_eq!(fixed.code, 0, "{}", fixed.stderr);
    let (state, text) = result(&fixed, "fix");
    assert_eq!(state, "succeeded", "{text}");
    assert!(path.join("app.txt").is_file());
    let (code, stdout, stderr) = cli(dir.path(), &["merge", "two", "--workspace", ws_arg(&ws)]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(
        std::fs::read_to_string(ws.join("app.txt"))
            .unwrap()
            .contains("five by one and two")
    );
}

#[tokio::test]
async fn a_failing_check_refuses_the_merge_and_the_target_stays() {
    let dir = tempfile::tempdir().unwrap();
    let ws = repo(dir.path());
    std::fs::create_dir_all(ws.join(".foreman")).unwrap();
    std::fs::write(
        ws.join(".foreman/worktree.toml"),
        "check = \"grep -q 'line 1$' app.txt && echo checked\"\n",
    )
    .unwrap();
    git(&ws, &["add", "-A"]);
    git(&ws, &["commit", "-q", "-m", "check"]);
    // The agent breaks line 1 and rewrites the check to pass; the target's check is the one run.
    let out = agent(
        dir.path(),
        &ws,
        &[
            vec![edit_line("e", 1, "broken")],
            vec![call(
                "w",
                "write",
                json!({"path": ".foreman/worktree.toml", "content": "check = \"true\"\n"}),
            )],
        ],
        &["--worktree", "breaks", "x"],
    )
    .await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    let main_before = git(&ws, &["rev-parse", "main"]);
    let (code, stdout, stderr) = cli(dir.path(), &["merge", "breaks", "--workspace", ws_arg(&ws)]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(
        stdout.contains("The check `grep -q 'line 1$' app.txt && echo checked` failed"),
        "{stdout}"
    );
    assert_eq!(git(&ws, &["rev-parse", "main"]), main_before);
    assert_eq!(git(&ws, &["status", "--porcelain"]), "");
    let list = tasks(dir.path(), &ws);
    let t = task(&list, "breaks");
    assert_eq!(t["state"], "failed");
    assert_eq!(t["merge"]["step"], "check_failed");
}

#[tokio::test]
async fn discarding_unmerged_work_asks_first_and_restore_brings_it_back() {
    let dir = tempfile::tempdir().unwrap();
    let ws = repo(dir.path());
    let out = agent(
        dir.path(),
        &ws,
        &[vec![call(
            "w",
            "write",
            json!({"path": "draft.txt", "content": "precious\n"}),
        )]],
        &["--worktree", "drafty", "x"],
    )
    .await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    let list = tasks(dir.path(), &ws);
    let path = PathBuf::from(task(&list, "drafty")["path"].as_str().unwrap());
    let (code, _, stderr) = cli(
        dir.path(),
        &["discard", "drafty", "--workspace", ws_arg(&ws)],
    );
    assert_eq!(code, 1);
    assert!(
        stderr.contains("never merged") && stderr.contains("--yes"),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read_to_string(path.join("draft.txt")).unwrap(),
        "precious\n"
    );
    let (code, stdout, stderr) = cli(
        dir.path(),
        &["discard", "drafty", "--yes", "--workspace", ws_arg(&ws)],
    );
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("restore drafty"), "{stdout}");
    assert!(!path.exists());
    let list = tasks(dir.path(), &ws);
    assert_eq!(task(&list, "drafty")["state"], "discarded");
    assert!(task(&list, "drafty")["restorable_until"].as_i64().is_some());
    let (code, stdout, stderr) = cli(
        dir.path(),
        &["restore", "drafty", "--workspace", ws_arg(&ws)],
    );
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert_eq!(
        std::fs::read_to_string(path.join("draft.txt")).unwrap(),
        "precious\n"
    );
    // Uncommitted, as it was.
    assert_eq!(git(&path, &["status", "--porcelain"]), "?? draft.txt");
    assert_eq!(task(&tasks(dir.path(), &ws), "drafty")["state"], "ready");
}

#[tokio::test]
async fn a_worktree_deleted_by_hand_is_noticed_refused_and_restored_from_its_branch() {
    let dir = tempfile::tempdir().unwrap();
    let ws = repo(dir.path());
    let out = agent(
        dir.path(),
        &ws,
        &[vec![call("c", "bash", json!({"command": "echo kept > kept.txt && git add kept.txt && git -c user.name=a -c user.email=a@a commit -qm kept"}))]],
        &["--worktree", "gone", "x"],
    )
    .await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    let list = tasks(dir.path(), &ws);
    let id = task(&list, "gone")["id"].as_str().unwrap().to_owned();
    let path = PathBuf::from(task(&list, "gone")["path"].as_str().unwrap());
    std::fs::remove_dir_all(&path).unwrap();
    let list = tasks(dir.path(), &ws);
    assert_eq!(task(&list, "gone")["missing"], true);
    assert!(
        task(&list, "gone")["note"]
            .as_str()
            .unwrap()
            .contains("deleted by hand")
    );
    let resumed = agent(dir.path(), &ws, &[], &["--resume", &id, "go on"]).await;
    assert_eq!(resumed.code, 1);
    assert!(
        resumed.stderr.contains("worktree is gone"),
        "{}",
        resumed.stderr
    );
    let (code, _, stderr) = cli(dir.path(), &["merge", "gone", "--workspace", ws_arg(&ws)]);
    assert_eq!(code, 1);
    assert!(stderr.contains("worktree is gone"), "{stderr}");
    let (code, stdout, stderr) = cli(dir.path(), &["restore", "gone", "--workspace", ws_arg(&ws)]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stdout.contains("Restored from its branch"), "{stdout}");
    assert_eq!(
        std::fs::read_to_string(path.join("kept.txt")).unwrap(),
        "kept\n"
    );
}

#[tokio::test]
async fn a_base_that_moved_is_rebased_onto_and_a_dirty_checkout_is_never_overwritten() {
    let dir = tempfile::tempdir().unwrap();
    let ws = repo(dir.path());
    let out = agent(
        dir.path(),
        &ws,
        &[vec![edit_line("e", 9, "nine by task")]],
        &["--worktree", "moving", "x"],
    )
    .await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    // main moves on meanwhile.
    std::fs::write(ws.join("README.md"), "hello again\n").unwrap();
    git(&ws, &["commit", "-qam", "readme"]);
    // The user's uncommitted change to the same file the task changes.
    let mine = std::fs::read_to_string(ws.join("app.txt"))
        .unwrap()
        .replace("line 9\n", "line 9 (mine, unsaved)\n");
    std::fs::write(ws.join("app.txt"), &mine).unwrap();
    let main_before = git(&ws, &["rev-parse", "main"]);
    let (code, stdout, stderr) = cli(dir.path(), &["merge", "moving", "--workspace", ws_arg(&ws)]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(stdout.contains("uncommitted changes"), "{stdout}");
    assert_eq!(
        std::fs::read_to_string(ws.join("app.txt")).unwrap(),
        mine,
        "the user's work is intact"
    );
    assert_eq!(git(&ws, &["rev-parse", "main"]), main_before);
    // On another branch, the target moves and the checkout is not touched.
    git(&ws, &["stash", "-q"]);
    git(&ws, &["checkout", "-q", "-b", "mine"]);
    let (code, stdout, stderr) = cli(dir.path(), &["merge", "moving", "--workspace", ws_arg(&ws)]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(
        stdout.contains("your checkout is on the branch mine and was not touched"),
        "{stdout}"
    );
    let log = git(&ws, &["log", "--format=%s", "main"]);
    assert!(
        log.starts_with("fix line") || log.contains("readme"),
        "{log}"
    );
    assert_eq!(
        git(&ws, &["rev-parse", "main~1"]),
        main_before,
        "rebased onto the moved main"
    );
    assert!(git(&ws, &["show", "main:app.txt"]).contains("nine by task"));
}

#[tokio::test]
async fn a_detached_head_needs_a_target_and_a_folder_without_git_has_no_worktree() {
    let dir = tempfile::tempdir().unwrap();
    let ws = repo(dir.path());
    git(&ws, &["checkout", "-q", "--detach"]);
    let out = agent(
        dir.path(),
        &ws,
        &[vec![edit_line("e", 3, "three")]],
        &["--worktree", "detached", "x"],
    )
    .await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    let (code, _, stderr) = cli(
        dir.path(),
        &["merge", "detached", "--workspace", ws_arg(&ws)],
    );
    assert_eq!(code, 1);
    assert!(
        stderr.contains("detached HEAD") && stderr.contains("--into"),
        "{stderr}"
    );
    let (code, stdout, stderr) = cli(
        dir.path(),
        &[
            "merge",
            "detached",
            "--into",
            "main",
            "--workspace",
            ws_arg(&ws),
        ],
    );
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(
        stdout.contains("your checkout is on a detached HEAD and was not touched"),
        "{stdout}"
    );

    let plain = dir.path().join("plain");
    std::fs::create_dir_all(&plain).unwrap();
    let out = agent(dir.path(), &plain, &[], &["--worktree", "nope", "x"]).await;
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.contains("is not a git repository with a commit"),
        "{}",
        out.stderr
    );
    assert!(!plain.join(".git").exists());
    let (code, _, stderr) = cli(
        dir.path(),
        &["merge", "nope", "--workspace", plain.to_str().unwrap()],
    );
    assert_eq!(code, 1);
    assert!(stderr.contains("there is no task nope"), "{stderr}");
}

#[tokio::test]
async fn a_repository_with_submodules_gets_them_in_the_worktree() {
    let dir = tempfile::tempdir().unwrap();
    let sub = dir.path().join("sub");
    std::fs::create_dir_all(&sub).unwrap();
    git(&sub, &["init", "-q", "-b", "main"]);
    std::fs::write(sub.join("lib.txt"), "from the submodule\n").unwrap();
    git(&sub, &["add", "-A"]);
    git(&sub, &["commit", "-q", "-m", "sub"]);
    let ws = repo(dir.path());
    git(
        &ws,
        &[
            "-c",
            "protocol.file.allow=always",
            "submodule",
            "add",
            "-q",
            sub.to_str().unwrap(),
            "vendor/sub",
        ],
    );
    git(&ws, &["commit", "-q", "-m", "submodule"]);
    let out = agent(
        dir.path(),
        &ws,
        &[vec![call(
            "r",
            "bash",
            json!({"command": "cat vendor/sub/lib.txt"}),
        )]],
        &["--worktree", "with-sub", "x"],
    )
    .await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    let (state, text) = result(&out, "r");
    assert_eq!(state, "succeeded");
    assert!(text.contains("from the submodule"), "{text}");
}

#[tokio::test]
async fn a_second_task_in_a_folder_waits_and_says_why() {
    let dir = tempfile::tempdir().unwrap();
    let plain = dir.path().join("plain");
    std::fs::create_dir_all(&plain).unwrap();
    // The first task waits for an approval (ask mode) and so holds the folder.
    let server = ScriptedServer::start(vec![
        body(
            "anthropic",
            &[call(
                "w",
                "write",
                json!({"path": "a.txt", "content": "a\n"}),
            )],
        ),
        body(
            "anthropic",
            &[call("done", "attempt_completion", json!({"result": "ok"}))],
        ),
        body(
            "anthropic",
            &[call("done2", "attempt_completion", json!({"result": "ok"}))],
        ),
    ])
    .await
    .unwrap();
    let mut first = exec_in(dir.path(), &plain);
    first
        .args([
            "--base-url",
            &server.url(),
            "--model",
            "m",
            "--json",
            "first task",
        ])
        .env("ANTHROPIC_API_KEY", "sk-ant-tasks");
    let mut first = first.spawn().unwrap();
    let mut first_out = tokio::io::BufReader::new(first.stdout.take().unwrap());
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt};
    let mut line = String::new();
    let approval: Value = loop {
        line.clear();
        first_out.read_line(&mut line).await.unwrap();
        assert!(!line.is_empty(), "the first task ended early");
        if line.contains("approval_requested") {
            break serde_json::from_str(&line).unwrap();
        }
    };
    // Its output is read to the end, so it never waits on a full pipe.
    tokio::spawn(async move {
        let mut rest = String::new();
        while first_out.read_line(&mut rest).await.unwrap_or(0) > 0 {
            rest.clear();
        }
    });
    let mut second = exec_in(dir.path(), &plain);
    second
        .args([
            "--base-url",
            &server.url(),
            "--model",
            "m",
            "--json",
            "--approval",
            "auto",
            "second task",
        ])
        .env("ANTHROPIC_API_KEY", "sk-ant-tasks");
    let mut second = second.spawn().unwrap();
    let mut second_out = tokio::io::BufReader::new(second.stdout.take().unwrap());
    let waiting: Value = tokio::time::timeout(std::time::Duration::from_secs(20), async {
        let mut line = String::new();
        loop {
            line.clear();
            if second_out.read_line(&mut line).await.unwrap() == 0 {
                panic!("the second task ended without waiting");
            }
            let event: Value = serde_json::from_str(&line).unwrap();
            assert_ne!(
                event["type"], "tool_call_created",
                "it must not work meanwhile"
            );
            if event["type"] == "waiting" {
                return event;
            }
        }
    })
    .await
    .unwrap();
    let said = waiting["message"].as_str().unwrap();
    assert!(
        said.contains("Waiting: the task first-task is working in this folder"),
        "{said}"
    );
    tokio::spawn(async move {
        let mut rest = String::new();
        while second_out.read_line(&mut rest).await.unwrap_or(0) > 0 {
            rest.clear();
        }
    });
    // The first finishes; the second goes on.
    let mut stdin = first.stdin.take().unwrap();
    let op = json!({"op": "approve", "call_id": "w", "preview_hash": approval["preview_hash"]});
    stdin.write_all(format!("{op}\n").as_bytes()).await.unwrap();
    let first = tokio::time::timeout(std::time::Duration::from_secs(30), first.wait())
        .await
        .unwrap()
        .unwrap();
    assert!(first.success());
    drop(stdin);
    let second = tokio::time::timeout(std::time::Duration::from_secs(30), second.wait())
        .await
        .unwrap()
        .unwrap();
    assert!(second.success());
    assert_eq!(std::fs::read_to_string(plain.join("a.txt")).unwrap(), "a\n");
}

#[tokio::test]
async fn hand_back_applies_the_change_to_a_clean_checkout_only() {
    let dir = tempfile::tempdir().unwrap();
    let ws = repo(dir.path());
    let out = agent(
        dir.path(),
        &ws,
        &[vec![edit_line("e", 4, "four")]],
        &["--worktree", "back", "x"],
    )
    .await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    std::fs::write(ws.join("README.md"), "dirty\n").unwrap();
    let (code, _, stderr) = cli(
        dir.path(),
        &["tasks", "hand-back", "back", "--workspace", ws_arg(&ws)],
    );
    assert_eq!(code, 1);
    assert!(
        stderr.contains("uncommitted changes (README.md)"),
        "{stderr}"
    );
    git(&ws, &["checkout", "-q", "README.md"]);
    let (code, stdout, stderr) = cli(
        dir.path(),
        &["tasks", "hand-back", "back", "--workspace", ws_arg(&ws)],
    );
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(
        std::fs::read_to_string(ws.join("app.txt"))
            .unwrap()
            .contains("four\n")
    );
    let list = tasks(dir.path(), &ws);
    assert_eq!(task(&list, "back")["place"], "folder");
}

#[tokio::test]
async fn a_task_whose_agent_answered_is_ready_for_review() {
    let dir = tempfile::tempdir().unwrap();
    let ws = repo(dir.path());
    let server = ScriptedServer::start(vec![
        body(
            "anthropic",
            &[call("r", "read", json!({"path": "app.txt"}))],
        ),
        body("anthropic", &[edit_line("e", 7, "seven")]),
        body(
            "anthropic",
            &[foreman_core::testing::scripts::text(
                "Line 7 says seven now.",
            )],
        ),
    ])
    .await
    .unwrap();
    let mut cmd = exec_in(dir.path(), &ws);
    cmd.args([
        "--base-url",
        &server.url(),
        "--model",
        "m",
        "--json",
        "--approval",
        "auto",
    ])
    .args(["--worktree", "answered", "change line 7"])
    .env("ANTHROPIC_API_KEY", "sk-ant-tasks");
    let out = run(cmd, |_| json!({})).await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    let list = tasks(dir.path(), &ws);
    let t = task(&list, "answered");
    assert_eq!(t["state"], "ready", "{t}");
    assert_eq!(t["files"], 1);
}
