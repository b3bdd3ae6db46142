//! The sandbox's other doors, tried through `foreman-cli exec --json` in `auto` mode (commands
//! confined at `workspace-write`, no network) as a prompt-injected model would: the keychain
//! over the session bus, other programs' unix sockets, signals to the app, credentials on disk
//! and the app's own database. Judged by real effects: what reached the model, the events, a
//! listener, a process. Then the tools people run every day, confined.

use std::io::ErrorKind;
use std::os::linux::net::SocketAddrExt;
use std::os::unix::net::{SocketAddr, UnixListener};
use std::path::{Path, PathBuf};

use super::common::{Run, body, exec_in, run};
use foreman_core::testing::scripts::{Step, call};
use foreman_core::testing::sse_server::ScriptedServer;
use serde_json::{Value, json};
use tokio::process::Command;

const KEY: &str = "sk-ant-doorstest-0123456789abcdef";

fn workspace() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let ws = dir.path().join("ws");
    std::fs::create_dir(&ws).unwrap();
    (dir, ws)
}

/// The model's turns: one bash call per `(id, command)`, then the end of the task.
fn commands(calls: &[(&str, &str)]) -> Vec<foreman_core::testing::sse_server::ScriptedResponse> {
    let mut steps: Vec<Vec<Step>> = calls
        .iter()
        .map(|(id, command)| vec![call(id, "bash", json!({ "command": command }))])
        .collect();
    steps.push(vec![call(
        "done",
        "attempt_completion",
        json!({"result": "done"}),
    )]);
    steps.iter().map(|s| body("anthropic", s)).collect()
}

fn exec(server: &ScriptedServer, dir: &Path, ws: &Path) -> Command {
    let mut cmd = exec_in(dir, ws);
    cmd.args(["--base-url", &server.url(), "--model", "m", "--json"])
        .args(["--approval", "auto"])
        .arg("do the task")
        .env("ANTHROPIC_API_KEY", KEY);
    cmd
}

/// Keeps every command in the sandbox: an offer to run one outside is rejected.
fn keep_inside(e: &Value) -> Value {
    json!({"op": "reject", "call_id": e["call_id"], "feedback": null})
}

fn result(out: &Run, id: &str) -> String {
    out.events
        .iter()
        .find(|e| e["type"] == "tool_call_finished" && e["call_id"] == id)
        .and_then(|e| e["result"].as_str())
        .unwrap_or_else(|| panic!("no result for {id}: {:?}", out.events))
        .to_owned()
}

fn state(out: &Run, id: &str) -> String {
    out.events
        .iter()
        .find(|e| e["type"] == "tool_call_finished" && e["call_id"] == id)
        .map(|e| e["state"].to_string())
        .unwrap_or_default()
}

/// The last sandbox note of `id`'s card.
fn note(out: &Run, id: &str) -> Value {
    out.events
        .iter()
        .rfind(|e| e["type"] == "sandbox_changed" && e["call_id"] == id)
        .map(|e| e["sandbox"].clone())
        .unwrap_or_else(|| panic!("no sandbox note for {id}"))
}

/// Everything the model was sent and every event, as text.
fn seen(server: &ScriptedServer, out: &Run) -> String {
    let mut all = serde_json::to_string(&out.events).unwrap();
    for request in server.requests() {
        all.push_str(&String::from_utf8_lossy(&request.body));
    }
    all
}

fn reversed(text: &str) -> String {
    text.chars().rev().collect()
}

#[tokio::test]
async fn the_keychain_is_not_one_dbus_call_away() {
    if std::env::var_os("FOREMAN_KEYRING_TESTS").is_none() {
        eprintln!("skipped: run under scripts/with-keyring.sh (make test does)");
        return;
    }
    let bus = std::env::var("DBUS_SESSION_BUS_ADDRESS").unwrap();
    let account = format!("doors-{}", std::process::id());
    let stored = "sk-ant-stored-in-the-keychain-9f8e7d6c";
    let mut store = std::process::Command::new("secret-tool")
        .args([
            "store", "--label", "test", "service", "foreman", "username", &account,
        ])
        .stdin(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    store
        .stdin
        .take()
        .unwrap()
        .write_all(stored.as_bytes())
        .unwrap();
    assert!(store.wait().unwrap().success());
    // Outside the sandbox the key is one call away: the attack is real.
    let lookup = format!("secret-tool lookup service foreman username {account}");
    let plain = std::process::Command::new("sh")
        .args(["-c", &lookup])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&plain.stdout), stored);

    let (dir, ws) = workspace();
    let server = ScriptedServer::start(commands(&[
        ("env", &format!("{lookup} | rev")),
        ("addr", &format!("DBUS_SESSION_BUS_ADDRESS='{bus}' {lookup} | rev")),
        (
            "busctl",
            &format!(
                "DBUS_SESSION_BUS_ADDRESS='{bus}' python3 -c \"import socket; s = socket.socket(socket.AF_UNIX); a = '{bus}'.split('=', 1)[1].split(',')[0]; s.connect(('\\0' + a) if 'abstract=' in '{bus}' else a); print('bus reached')\""
            ),
        ),
    ]))
    .await
    .unwrap();
    let out = run(exec(&server, dir.path(), &ws), keep_inside).await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    let all = seen(&server, &out);
    assert!(
        !all.contains(stored) && !all.contains(&reversed(stored)),
        "the key got out"
    );
    assert!(
        !result(&out, "busctl").contains("bus reached"),
        "{}",
        result(&out, "busctl")
    );
    std::process::Command::new("secret-tool")
        .args(["clear", "service", "foreman", "username", &account])
        .status()
        .unwrap();
}

#[tokio::test]
async fn other_programs_unix_sockets_cannot_be_reached() {
    let (dir, ws) = workspace();
    let path = dir.path().join("outside").join("agent.sock");
    std::fs::create_dir(path.parent().unwrap()).unwrap();
    let pathname = UnixListener::bind(&path).unwrap();
    pathname.set_nonblocking(true).unwrap();
    let name = format!("foreman-doors-{}", std::process::id());
    let abstract_ =
        UnixListener::bind_addr(&SocketAddr::from_abstract_name(name.as_bytes()).unwrap()).unwrap();
    abstract_.set_nonblocking(true).unwrap();
    let connect = |address: &str| {
        format!(
            "python3 -c \"import socket; s = socket.socket(socket.AF_UNIX); s.connect({address}); s.send(b'x'); print('connected')\""
        )
    };
    let server = ScriptedServer::start(commands(&[
        ("path", &connect(&format!("'{}'", path.display()))),
        ("abstract", &connect(&format!("'\\0{name}'"))),
    ]))
    .await
    .unwrap();
    let out = run(exec(&server, dir.path(), &ws), keep_inside).await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    for id in ["path", "abstract"] {
        assert!(
            !result(&out, id).contains("connected"),
            "{id}: {}",
            result(&out, id)
        );
    }
    for listener in [&pathname, &abstract_] {
        let accepted = listener.accept();
        assert!(
            matches!(&accepted, Err(e) if e.kind() == ErrorKind::WouldBlock),
            "a confined command reached a listener: {accepted:?}"
        );
    }
}

#[tokio::test]
async fn a_confined_command_cannot_kill_foreman_and_the_card_says_it_tried() {
    let (dir, ws) = workspace();
    let server = ScriptedServer::start(commands(&[
        ("parent", "kill -9 $PPID"),
        ("all", "kill -9 -1"),
        ("pkill", "pkill foreman"),
    ]))
    .await
    .unwrap();
    let out = run(exec(&server, dir.path(), &ws), keep_inside).await;
    // The CLI lived to the end of the task.
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.events
            .iter()
            .any(|e| e["type"] == "tool_call_finished" && e["call_id"] == "done"),
        "the task did not reach its end"
    );
    for id in ["parent", "pkill"] {
        assert!(
            result(&out, id).contains("Operation not permitted"),
            "{id}: {}",
            result(&out, id)
        );
        assert_eq!(note(&out, id)["signalled_outside"], true, "{id}");
        // A refused signal is not offered to run outside the sandbox.
        assert!(
            !out.events
                .iter()
                .any(|e| e["type"] == "approval_requested" && e["call_id"] == id),
            "{id} asked to run outside"
        );
    }
}

#[tokio::test]
async fn credentials_on_disk_and_the_apps_own_database_stay_hidden() {
    let (dir, ws) = workspace();
    let home = dir.path().join(".home");
    let planted: &[(&str, &str)] = &[
        (".ssh/id_ed25519", "SECRET-ssh-key-7f3a"),
        (".aws/credentials", "SECRET-aws-7f3a"),
        (".config/gh/hosts.yml", "SECRET-gh-7f3a"),
        (".netrc", "SECRET-netrc-7f3a"),
        (".git-credentials", "SECRET-git-credentials-7f3a"),
        (".docker/config.json", "SECRET-docker-7f3a"),
        (".kube/config", "SECRET-kube-7f3a"),
        (".cargo/credentials.toml", "SECRET-cargo-7f3a"),
    ];
    for (path, secret) in planted {
        let file = home.join(path);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(&file, format!("token = {secret}\n")).unwrap();
    }
    // Another workspace's conversation, in the app's database.
    let other = dir.path().join("other");
    std::fs::create_dir(&other).unwrap();
    let first = ScriptedServer::start(commands(&[])).await.unwrap();
    let mut cmd = exec_in(dir.path(), &other);
    cmd.args(["--base-url", &first.url(), "--model", "m", "--json"])
        .arg("the launch code is OTHER-WORKSPACE-SECRET-1234")
        .env("ANTHROPIC_API_KEY", KEY);
    assert_eq!(run(cmd, keep_inside).await.code, 0);
    let db = dir.path().join(".xdg/dev.foreman.app/foreman.db");
    assert!(db.exists());

    let files: Vec<String> = planted.iter().map(|(p, _)| format!("~/{p}")).collect();
    let server = ScriptedServer::start(commands(&[
        ("cat", &format!("cat {}", files.join(" "))),
        ("grep", "grep -r -a -h -o 'SECRET-[a-z-]*' ~ | rev"),
        (
            "db",
            "grep -r -a -o 'OTHER-WORKSPACE-[A-Z]*-[0-9]*' \"$XDG_DATA_HOME\" | rev; ls -la \"$XDG_DATA_HOME/dev.foreman.app\"",
        ),
    ]))
    .await
    .unwrap();
    let out = run(exec(&server, dir.path(), &ws), keep_inside).await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    let all = seen(&server, &out);
    for (path, secret) in planted {
        assert!(
            !all.contains(secret) && !all.contains(&reversed(secret)),
            "{path} got out"
        );
        // Untouched on disk.
        assert!(
            std::fs::read_to_string(home.join(path))
                .unwrap()
                .contains(secret)
        );
    }
    assert!(
        !all.contains(&reversed("OTHER-WORKSPACE-SECRET-1234")),
        "another workspace's conversation got out"
    );
    let cat = result(&out, "cat");
    assert!(cat.contains("Permission denied"), "{cat}");
    let hidden = note(&out, "cat")["hidden"].clone();
    for shown in ["~/.ssh", "~/.aws", "~/.config/gh", "~/.netrc", "~/.kube"] {
        assert!(
            hidden.as_array().unwrap().iter().any(|h| h == shown),
            "{shown} not on the card: {hidden}"
        );
    }
    assert_ne!(state(&out, "cat"), "\"succeeded\"");
}

/// A confined command that fails for want of a credential the sandbox hides (`gh` needs
/// `~/.config/gh`) says so on its card and asks to run outside, naming it; run there, it reads it.
#[tokio::test]
async fn a_command_that_needs_a_hidden_credential_asks_to_run_outside_naming_it() {
    let (dir, ws) = workspace();
    let hosts = dir.path().join(".home/.config/gh/hosts.yml");
    std::fs::create_dir_all(hosts.parent().unwrap()).unwrap();
    std::fs::write(&hosts, "github.com:\n  user: someone\n").unwrap();
    // A stand-in for gh that fails the way it does when it cannot read its login.
    let gh = ws.join("gh");
    std::fs::write(
        &gh,
        "#!/bin/sh\ngrep -q user \"$HOME/.config/gh/hosts.yml\" 2>/dev/null && echo 'Logged in' && exit 0\necho 'You are not logged into any GitHub hosts.' >&2\nexit 1\n",
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&gh, std::fs::Permissions::from_mode(0o755)).unwrap();
    let server = ScriptedServer::start(commands(&[("gh", "./gh auth status")]))
        .await
        .unwrap();
    let asked = std::sync::Mutex::new(Vec::new());
    let out = run(exec(&server, dir.path(), &ws), |e| {
        asked
            .lock()
            .unwrap()
            .push(e["reason"].as_str().unwrap_or_default().to_owned());
        json!({"op": "approve", "call_id": e["call_id"], "preview_hash": e["preview_hash"]})
    })
    .await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    let asked = asked.into_inner().unwrap();
    assert_eq!(asked.len(), 1, "{asked:?}");
    assert!(
        asked[0].contains("~/.config/gh") && asked[0].contains("hides"),
        "{}",
        asked[0]
    );
    let notes: Vec<Value> = out
        .events
        .iter()
        .filter(|e| e["type"] == "sandbox_changed" && e["call_id"] == "gh")
        .map(|e| e["sandbox"].clone())
        .collect();
    assert!(
        notes.iter().any(|n| n["hidden"] == json!(["~/.config/gh"])),
        "{notes:?}"
    );
    // Approved, it ran outside the sandbox and read the login.
    assert!(
        result(&out, "gh").contains("Logged in"),
        "{}",
        result(&out, "gh")
    );
    assert_eq!(note(&out, "gh")["level"], Value::Null);
}
