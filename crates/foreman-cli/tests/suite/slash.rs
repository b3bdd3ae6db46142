//! Claude Code's skills and custom commands through `foreman-cli exec`, end to end: a workspace
//! with `.claude/skills/` (one skill with a Python script the model runs, one without front
//! matter), a user-level skill in `~/.claude/skills/`, and `.claude/commands/` with commands that
//! use `$ARGUMENTS`, `$1`, `@path`, `model` and `allowed-tools`; the scripted model server
//! records what the model was sent.

use super::common::{BIN, body, exec_in, isolated_env};

use std::path::{Path, PathBuf};
use std::time::Duration;

use foreman_core::conversation::load_transcript;
use foreman_core::conversation::transcript::TranscriptItem;
use foreman_core::store::{DATABASE_FILE, Store};
use foreman_core::testing::scripts::{call, text};
use foreman_core::testing::sse_server::ScriptedServer;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::process::Command;

fn write(root: &Path, relative: &str, text: &str) {
    let path = root.join(relative);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// A workspace `ws` in `dir` with two skills, a broken one and two commands; a user skill in
/// the isolated HOME. Returns the workspace.
fn set_up(dir: &Path) -> PathBuf {
    let ws = dir.join("ws");
    write(
        &ws,
        ".claude/skills/hello/SKILL.md",
        "---\nname: hello\ndescription: Greets the user with the team's script.\nallowed-tools: Bash(python3:*)\n---\n# Hello\n\nRun `python3 scripts/hello.py` from this skill's folder and report what it prints.\n",
    );
    write(
        &ws,
        ".claude/skills/hello/scripts/hello.py",
        "print('hello from the skill script')\n",
    );
    write(
        &ws,
        ".claude/skills/notes/SKILL.md",
        "---\nname: notes\ndescription: >\n  Writes release notes\n  from the git log.\n---\nRead the log, then write NOTES.md.\n",
    );
    write(
        &ws,
        ".claude/skills/broken/SKILL.md",
        "Just instructions, no front matter.\n",
    );
    write(
        &ws,
        ".claude/commands/review.md",
        "---\ndescription: Review a pull request\nargument-hint: [pr-number]\n---\nReview pull request #$1 (all arguments: $ARGUMENTS), following @docs/STYLE.md.\n",
    );
    write(
        &ws,
        ".claude/commands/tidy.md",
        "---\nmodel: tidy-model\nallowed-tools: Read, Grep\n---\nTidy up $ARGUMENTS.\n",
    );
    write(&ws, "docs/STYLE.md", "Use short sentences in reviews.\n");
    let home = dir.join(".home");
    write(
        &home,
        ".claude/skills/userskill/SKILL.md",
        "---\nname: userskill\ndescription: The user's own skill.\n---\nSee ref.md.\n",
    );
    write(
        &home,
        ".claude/skills/userskill/ref.md",
        "the user skill's reference\n",
    );
    write(&home, ".claude/settings.json", "{\"private\": true}\n");
    ws
}

fn exec(server: &ScriptedServer, dir: &Path, ws: &Path, prompt: &str) -> Command {
    let mut cmd = exec_in(dir, ws);
    cmd.args([
        "--provider",
        "anthropic",
        "--base-url",
        &server.url(),
        "--model",
        "m",
    ])
    .arg("--json")
    .arg(prompt)
    .env("ANTHROPIC_API_KEY", "test-key");
    cmd
}

/// Runs `cmd`, approving every call and answering the first `queued_messages_returned` (the
/// refused prompt) with `then`; returns the events, the exit code and stderr.
async fn run_then(mut cmd: Command, then: &str) -> (Vec<Value>, i32, String) {
    let mut child = cmd.spawn().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut events = Vec::new();
    let mut answered = false;
    let read_all = async {
        while let Some(line) = lines.next_line().await.unwrap() {
            let event: Value = serde_json::from_str(&line).unwrap();
            let op = match event["type"].as_str() {
                Some("approval_requested") => Some(
                    json!({"op": "approve", "call_id": event["call_id"], "preview_hash": event["preview_hash"]}),
                ),
                Some("queued_messages_returned") if !answered => {
                    answered = true;
                    Some(json!({"op": "user_message", "text": then}))
                }
                _ => None,
            };
            if let Some(op) = op {
                stdin.write_all(format!("{op}\n").as_bytes()).await.unwrap();
                stdin.flush().await.unwrap();
            }
            events.push(event);
        }
    };
    tokio::time::timeout(Duration::from_secs(60), read_all)
        .await
        .expect("the CLI hung");
    let output = child.wait_with_output().await.unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    (events, output.status.code().unwrap_or(-1), stderr)
}

fn request(server: &ScriptedServer, n: usize) -> String {
    String::from_utf8_lossy(&server.requests()[n].body).into_owned()
}

#[tokio::test]
async fn skills_and_a_command_work_as_in_claude_code() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path().canonicalize().unwrap();
    let ws = set_up(&dir);
    let script = ws.join(".claude/skills/hello/scripts/hello.py");
    let user_ref = dir.join(".home/.claude/skills/userskill/ref.md");
    let settings = dir.join(".home/.claude/settings.json");
    let server = ScriptedServer::start(vec![
        body(
            "anthropic",
            &[call("s1", "skill", json!({"name": "hello"}))],
        ),
        body(
            "anthropic",
            &[call(
                "b1",
                "bash",
                json!({"command": format!("python3 {}", script.display())}),
            )],
        ),
        body(
            "anthropic",
            &[call(
                "r1",
                "read",
                json!({"path": user_ref.display().to_string()}),
            )],
        ),
        body(
            "anthropic",
            &[call(
                "r2",
                "read",
                json!({"path": settings.display().to_string()}),
            )],
        ),
        body("anthropic", &[text("Reviewed.")]),
    ])
    .await
    .unwrap();
    // The first prompt lacks its argument: refused, given back, and the session goes on with
    // the second.
    let (events, code, stderr) = run_then(exec(&server, &dir, &ws, "/review"), "/review 42").await;
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains(
            "warning: .claude/skills/broken/SKILL.md: no front matter: a skill starts with --- \
             name: … description: … ---"
        ),
        "{stderr}"
    );
    let of = |kind: &'static str| events.iter().filter(move |e| e["type"] == kind);
    let error = of("error").next().unwrap();
    assert_eq!(
        error["message"],
        "/review needs an argument: [pr-number]. Nothing was sent."
    );
    assert_eq!(
        of("queued_messages_returned").next().unwrap()["texts"],
        json!(["/review"])
    );
    let taken: Vec<_> = of("user_message_taken")
        .map(|e| e["text"].clone())
        .collect();
    assert_eq!(taken, [json!("/review 42")]);
    assert_eq!(server.requests().len(), 5);

    let first = server.requests()[0].json();
    let system = first["system"].to_string();
    for listed in [
        "- hello: Greets the user with the team's script.",
        "- notes: Writes release notes from the git log.",
        "- userskill: The user's own skill.",
    ] {
        assert!(system.contains(listed), "{system}");
    }
    assert!(!system.contains("broken"), "{system}");
    let tools: Vec<_> = first["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].clone())
        .collect();
    assert!(tools.contains(&json!("skill")), "{tools:?}");
    let sent = request(&server, 0);
    assert!(sent.contains("/review 42"), "{sent}");
    assert!(
        sent.contains("Review pull request #42 (all arguments: 42), following @docs/STYLE.md."),
        "{sent}"
    );
    assert!(
        sent.contains("Use short sentences in reviews."),
        "the @path was not attached: {sent}"
    );
    // The skill tool gives the body, the folder and its files.
    let loaded = request(&server, 1);
    assert!(
        loaded.contains("Run `python3 scripts/hello.py` from this skill's folder"),
        "{loaded}"
    );
    assert!(loaded.contains("scripts/hello.py"), "{loaded}");
    assert!(request(&server, 2).contains("hello from the skill script"));
    // `read` reaches the user's skill folder, and nothing else outside the workspace.
    assert!(request(&server, 3).contains("the user skill's reference"));
    let refused = request(&server, 4);
    assert!(refused.contains("PATH_NOT_IN_WORKSPACE"), "{refused}");
    assert!(!refused.contains("\\\"private\\\""), "{refused}");
    // A reopened session shows what the user typed, not the command's prompt.
    let db = dir.join(".xdg/dev.foreman.app").join(DATABASE_FILE);
    let store = Store::open(&db).await.unwrap();
    let sessions = store
        .list_sessions(&ws.display().to_string())
        .await
        .unwrap();
    let transcript = load_transcript(&store, &sessions[0].id).await.unwrap();
    let users: Vec<_> = transcript
        .items
        .iter()
        .filter_map(|item| match item {
            TranscriptItem::User { text, .. } => Some(text.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(users, ["/review 42"]);
    store.close().await;
}

#[tokio::test]
async fn a_commands_model_and_allowed_tools_hold_for_its_task() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path().canonicalize().unwrap();
    let ws = set_up(&dir);
    let server = ScriptedServer::start(vec![body("anthropic", &[text("Tidied.")])])
        .await
        .unwrap();
    let mut cmd = exec(&server, &dir, &ws, "/tidy src");
    let out = cmd.output().await.unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let sent = server.requests()[0].json();
    assert_eq!(sent["model"], "tidy-model");
    let tools: Vec<_> = sent["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].clone())
        .collect();
    assert_eq!(
        tools,
        [json!("read"), json!("grep"), json!("attempt_completion")]
    );
    assert!(sent.to_string().contains("Tidy up src."));
}

#[tokio::test]
async fn a_refused_prompt_ends_a_readable_run_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path().canonicalize().unwrap();
    let ws = set_up(&dir);
    let server = ScriptedServer::start(vec![]).await.unwrap();
    let mut cmd = exec_in(&dir, &ws);
    cmd.args([
        "--provider",
        "anthropic",
        "--base-url",
        &server.url(),
        "--model",
        "m",
    ])
    .arg("/revew 1")
    .env("ANTHROPIC_API_KEY", "test-key");
    let out = tokio::time::timeout(Duration::from_secs(60), cmd.output())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("/revew is not a command or a skill here (there are /review, /tidy, /hello, /notes, /userskill)."),
        "{stderr}"
    );
    assert!(server.requests().is_empty());
}

#[tokio::test]
async fn slash_list_shows_the_menu_and_the_warnings() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path().canonicalize().unwrap();
    let ws = set_up(&dir);
    let list = |json: bool| {
        let mut cmd = Command::new(BIN);
        cmd.args(["slash", "list", "--workspace"])
            .arg(&ws)
            .envs(isolated_env(&dir));
        if json {
            cmd.arg("--json");
        }
        cmd
    };
    let out = list(true).output().await.unwrap();
    assert!(out.status.success());
    let catalog: Value = serde_json::from_slice(&out.stdout).unwrap();
    let names: Vec<_> = catalog["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            format!(
                "{}:{}",
                e["kind"].as_str().unwrap(),
                e["name"].as_str().unwrap()
            )
        })
        .collect();
    assert_eq!(
        names,
        [
            "built_in:compact",
            "built_in:clear",
            "built_in:model",
            "built_in:mode",
            "built_in:retry",
            "command:review",
            "command:tidy",
            "skill:hello",
            "skill:notes",
            "skill:userskill",
        ]
    );
    assert_eq!(
        catalog["entries"][9]["source"],
        "~/.claude/skills/userskill/SKILL.md"
    );
    assert_eq!(catalog["warnings"].as_array().unwrap().len(), 1);
    let out = list(false).output().await.unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("/review [pr-number]          command   Review a pull request  (.claude/commands/review.md)"),
        "{text}"
    );
    assert!(
        text.contains("warning: .claude/skills/broken/SKILL.md: no front matter"),
        "{text}"
    );
}
