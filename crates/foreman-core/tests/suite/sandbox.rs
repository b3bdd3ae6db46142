//! The command sandbox with real commands on this machine's kernel (Landlock, seccomp, user
//! namespaces): what a confined command may write and reach, at each level.

use std::net::TcpListener;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

use foreman_core::protocol::{ApprovalMode, ApprovalScope, CallState, EventMsg, Op};
use foreman_core::sandbox::{SandboxLevel, SandboxPolicy, availability, confine};
use foreman_core::testing::scripts::call;
use serde_json::json;

use super::common::*;

struct Run {
    ok: bool,
    output: String,
}

/// Runs `script` with bash, confined to `level` in `workspace`.
fn run(workspace: &Path, level: SandboxLevel, network: bool, script: &str) -> Run {
    run_hiding(workspace, level, network, &[], script)
}

/// Runs `script` with bash, confined to `level` in `workspace`, with `hidden` hidden.
fn run_hiding(
    workspace: &Path,
    level: SandboxLevel,
    network: bool,
    hidden: &[&Path],
    script: &str,
) -> Run {
    let mut policy = SandboxPolicy::new(
        level,
        network,
        workspace.to_path_buf(),
        workspace.join(".foreman-tmp-test"),
    );
    policy.hidden = hidden.iter().map(|p| p.to_path_buf()).collect();
    let mut command = Command::new("bash");
    command.args(["-c", script]).current_dir(workspace);
    confine(&mut command, &policy).unwrap();
    let out = command.output().unwrap();
    Run {
        ok: out.status.success(),
        output: format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
    }
}

fn workspace() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join(".git/hooks")).unwrap();
    std::fs::write(dir.path().join(".git/HEAD"), "ref: refs/heads/main\n").unwrap();
    std::fs::write(dir.path().join("a.txt"), "a\n").unwrap();
    dir
}

#[test]
fn this_machine_can_confine_commands_at_both_levels() {
    for level in [SandboxLevel::WorkspaceWrite, SandboxLevel::ReadOnly] {
        let found = availability(level);
        assert!(found.is_available(), "{level:?}: {}", found.describe());
    }
}

#[test]
fn workspace_write_writes_the_workspace_and_its_temp_dir_only() {
    let ws = workspace();
    let outside = tempfile::tempdir().unwrap();
    let level = SandboxLevel::WorkspaceWrite;
    let inside = run(
        ws.path(),
        level,
        false,
        "echo b > a.txt && mkdir -p src && echo x > src/new.rs",
    );
    assert!(inside.ok, "{}", inside.output);
    assert_eq!(
        std::fs::read_to_string(ws.path().join("a.txt")).unwrap(),
        "b\n"
    );
    assert!(ws.path().join("src/new.rs").exists());
    let temp = run(
        ws.path(),
        level,
        false,
        "echo t > \"$TMPDIR/t\" && cat \"$TMPDIR/t\"",
    );
    assert!(temp.ok && temp.output.contains('t'), "{}", temp.output);

    let target = outside.path().join("escaped.txt");
    let escape = run(
        ws.path(),
        level,
        false,
        &format!("echo x > {}", target.display()),
    );
    assert!(!escape.ok, "{}", escape.output);
    assert!(
        escape.output.contains("Permission denied"),
        "{}",
        escape.output
    );
    assert!(!target.exists());
    let home = run(
        ws.path(),
        level,
        false,
        "touch \"$HOME/.foreman-sandbox-escape\"",
    );
    assert!(!home.ok, "{}", home.output);
}

#[test]
fn git_and_foreman_stay_read_only_inside_the_workspace() {
    let ws = workspace();
    std::fs::create_dir(ws.path().join(".foreman")).unwrap();
    let level = SandboxLevel::WorkspaceWrite;
    for script in [
        "echo x > .git/HEAD",
        "echo '#!/bin/sh' > .git/hooks/pre-commit",
        "rm .git/HEAD",
        "echo x > .foreman/mcp.json",
    ] {
        let refused = run(ws.path(), level, false, script);
        assert!(!refused.ok, "{script}: {}", refused.output);
        assert!(
            refused.output.contains("Read-only file system"),
            "{script}: {}",
            refused.output
        );
    }
    assert_eq!(
        std::fs::read_to_string(ws.path().join(".git/HEAD")).unwrap(),
        "ref: refs/heads/main\n"
    );
    assert!(!ws.path().join(".git/hooks/pre-commit").exists());
    // Reading them is fine.
    let read = run(ws.path(), level, false, "cat .git/HEAD");
    assert!(
        read.ok && read.output.contains("refs/heads/main"),
        "{}",
        read.output
    );
}

#[test]
fn read_only_writes_nothing_but_its_temp_dir() {
    let ws = workspace();
    let level = SandboxLevel::ReadOnly;
    let write = run(ws.path(), level, false, "echo b > a.txt");
    assert!(
        !write.ok && write.output.contains("Permission denied"),
        "{}",
        write.output
    );
    assert_eq!(
        std::fs::read_to_string(ws.path().join("a.txt")).unwrap(),
        "a\n"
    );
    let temp = run(
        ws.path(),
        level,
        false,
        "echo t > \"$TMPDIR/t\" && cat a.txt",
    );
    assert!(temp.ok && temp.output.contains('a'), "{}", temp.output);
}

#[test]
fn without_network_a_connection_to_a_local_port_is_refused_and_with_it_goes_through() {
    let ws = workspace();
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port();
    let connect = format!("exec 3<>/dev/tcp/127.0.0.1/{port} && echo connected");
    for level in [SandboxLevel::WorkspaceWrite, SandboxLevel::ReadOnly] {
        let refused = run(ws.path(), level, false, &connect);
        assert!(!refused.ok, "{level:?}: {}", refused.output);
        assert!(!refused.output.contains("connected"), "{}", refused.output);
    }
    std::thread::sleep(Duration::from_millis(50));
    assert!(listener.accept().is_err(), "nothing reached the listener");
    let allowed = run(ws.path(), SandboxLevel::WorkspaceWrite, true, &connect);
    assert!(
        allowed.ok && allowed.output.contains("connected"),
        "{}",
        allowed.output
    );
}

#[test]
fn local_sockets_still_work_without_network() {
    // AF_UNIX stays open (build tools use socketpairs to talk to their workers).
    let ws = workspace();
    let script = "python3 -c 'import socket; a, b = socket.socketpair(); a.send(b\"ok\"); print(b.recv(2).decode())'";
    let out = run(ws.path(), SandboxLevel::WorkspaceWrite, false, script);
    assert!(out.ok && out.output.contains("ok"), "{}", out.output);
}

#[tokio::test]
async fn auto_mode_runs_commands_in_the_sandbox_without_asking() {
    let turns = vec![
        vec![call(
            "b",
            "bash",
            json!({"command": "echo made > made.txt"}),
        )],
        done("d"),
    ];
    let mut h = start(Wire::Anthropic, &turns, ApprovalMode::Auto).await;
    h.say("make a file");
    assert!(h.end().await.is_success());
    assert_eq!(h.file("made.txt"), "made\n");
    assert!(
        !h.seen
            .iter()
            .any(|e| matches!(e.msg, EventMsg::ApprovalRequested { .. }))
    );
    let shown = h.sandbox_notes("b");
    assert_eq!(shown.len(), 1, "{shown:?}");
    assert_eq!(shown[0].level, Some(SandboxLevel::WorkspaceWrite));
    assert!(!shown[0].network);
}

/// A write outside the workspace is refused in the sandbox; the user is asked to run it outside,
/// and approving runs it there (rejecting keeps it in, with the model told either way).
#[tokio::test]
async fn a_refused_command_asks_to_run_outside_and_runs_there_when_approved() {
    for approve in [true, false] {
        let outside = tempfile::tempdir().unwrap();
        let target = outside.path().join("escaped.txt");
        let command = format!("echo out > {}", target.display());
        let turns = vec![
            vec![call("b", "bash", json!({ "command": command }))],
            done("d"),
        ];
        let mut h = start(Wire::OpenAi, &turns, ApprovalMode::Auto).await;
        h.say("write outside");
        let EventMsg::ApprovalRequested {
            call_id,
            preview_hash,
            reason,
            ..
        } = h.approval_request().await
        else {
            unreachable!()
        };
        assert_eq!(call_id, "b");
        assert!(reason.contains("sandbox refused"), "{reason}");
        assert!(reason.contains("Permission denied"), "{reason}");
        let refused = h.sandbox_notes("b").last().cloned().unwrap();
        assert!(!refused.refused.is_empty(), "{refused:?}");
        assert!(!target.exists(), "nothing escaped while confined");
        if approve {
            h.send(Op::Approve {
                call_id,
                preview_hash,
                scope: ApprovalScope::Once,
            });
        } else {
            h.send(Op::Reject {
                call_id,
                feedback: None,
            });
        }
        assert!(h.end().await.is_success(), "approve: {approve}");
        let told = h.request_text(1);
        if approve {
            assert_eq!(std::fs::read_to_string(&target).unwrap(), "out\n");
            assert!(
                told.contains("approved running it again outside the sandbox"),
                "{told}"
            );
            assert_eq!(
                h.sandbox_notes("b").last().unwrap().level,
                None,
                "the card says it ran outside"
            );
            assert_eq!(h.finished("b").unwrap().0, CallState::Succeeded);
        } else {
            assert!(!target.exists());
            assert!(
                told.contains("chose not to run it outside the sandbox"),
                "{told}"
            );
            assert_eq!(h.finished("b").unwrap().0, CallState::Rejected);
        }
    }
}

#[tokio::test]
async fn yolo_runs_commands_outside_the_sandbox_and_the_card_says_so() {
    let turns = vec![
        vec![call("b", "bash", json!({"command": "true"}))],
        done("d"),
    ];
    let mut h = start(Wire::Anthropic, &turns, ApprovalMode::Yolo).await;
    h.say("go");
    assert!(h.end().await.is_success());
    let shown = h.sandbox_notes("b");
    assert_eq!(shown.len(), 1);
    assert_eq!((shown[0].level, shown[0].unconfined.clone()), (None, None));
}

/// Connects to the unix socket `target` (a path, or `@name` for an abstract one) with python.
fn connect_script(target: &str) -> String {
    let address = match target.strip_prefix('@') {
        Some(name) => format!("'\\0{name}'"),
        None => format!("'{target}'"),
    };
    format!(
        "python3 -c \"import socket; s = socket.socket(socket.AF_UNIX); s.connect({address}); print('connected')\""
    )
}

#[test]
fn other_programs_unix_sockets_are_out_of_reach_at_both_levels() {
    use std::os::linux::net::SocketAddrExt;
    use std::os::unix::net::{SocketAddr, UnixListener};
    let ws = workspace();
    let outside = tempfile::tempdir().unwrap();
    let path = outside.path().join("agent.sock");
    let _pathname = UnixListener::bind(&path).unwrap();
    let name = format!("foreman-test-{}", std::process::id());
    let _abstract =
        UnixListener::bind_addr(&SocketAddr::from_abstract_name(name.as_bytes()).unwrap()).unwrap();
    // Reachable from here: the listeners are real.
    for target in [path.display().to_string(), format!("@{name}")] {
        let out = Command::new("bash")
            .args(["-c", &connect_script(&target)])
            .output()
            .unwrap();
        assert!(out.status.success(), "{target} unconfined: {out:?}");
    }
    for level in [SandboxLevel::WorkspaceWrite, SandboxLevel::ReadOnly] {
        for network in [false, true] {
            for target in [path.display().to_string(), format!("@{name}")] {
                let out = run(ws.path(), level, network, &connect_script(&target));
                assert!(
                    !out.ok && !out.output.contains("connected"),
                    "{level:?} network {network} {target}: {}",
                    out.output
                );
            }
        }
    }
    // A socket the command makes in its own workspace, and a socketpair, still work.
    let own = "python3 - <<'PY'\nimport os, socket, threading\nsrv = socket.socket(socket.AF_UNIX)\nsrv.bind('own.sock'); srv.listen(1)\nc = socket.socket(socket.AF_UNIX); c.connect('own.sock')\nconn, _ = srv.accept(); c.send(b'hi'); print(conn.recv(2).decode())\na, b = socket.socketpair(); a.send(b'ok'); print(b.recv(2).decode())\nPY";
    let out = run(ws.path(), SandboxLevel::WorkspaceWrite, false, own);
    assert!(
        out.ok && out.output.contains("hi") && out.output.contains("ok"),
        "{}",
        out.output
    );
}

#[test]
fn a_confined_command_cannot_signal_a_process_outside_its_sandbox() {
    let ws = workspace();
    let mut victim = Command::new("sleep").arg("30").spawn().unwrap();
    let pid = victim.id();
    for level in [SandboxLevel::WorkspaceWrite, SandboxLevel::ReadOnly] {
        let out = run(
            ws.path(),
            level,
            false,
            &format!("kill -9 {pid}; kill -9 $PPID; kill -TERM $PPID; echo tried"),
        );
        assert!(
            out.output.contains("Operation not permitted") && out.output.contains("tried"),
            "{}",
            out.output
        );
        assert!(victim.try_wait().unwrap().is_none(), "the victim lives");
    }
    // `kill -9 -1` reaches what is inside the sandbox only (the caller itself is spared).
    let out = run(
        ws.path(),
        SandboxLevel::WorkspaceWrite,
        false,
        "sleep 30 & kill -9 -1; wait $!; echo \"after $?\"",
    );
    assert!(out.output.contains("after 137"), "{}", out.output);
    assert!(victim.try_wait().unwrap().is_none(), "the victim lives");
    // Its own children are its to signal.
    let own = run(
        ws.path(),
        SandboxLevel::WorkspaceWrite,
        false,
        "sleep 30 & kill $! && wait $!; echo \"status $?\"",
    );
    assert!(own.output.contains("status 143"), "{}", own.output);
    victim.kill().unwrap();
    victim.wait().unwrap();
}

#[test]
fn hidden_paths_are_stand_ins_that_cannot_be_opened_and_the_originals_are_untouched() {
    let ws = workspace();
    let home = tempfile::tempdir().unwrap();
    let ssh = home.path().join(".ssh");
    std::fs::create_dir(&ssh).unwrap();
    std::fs::write(ssh.join("id_ed25519"), "PRIVATE-KEY-BYTES\n").unwrap();
    let netrc = home.path().join(".netrc");
    std::fs::write(&netrc, "machine x login u password NETRC-SECRET\n").unwrap();
    let hidden = [ssh.as_path(), netrc.as_path()];
    for level in [SandboxLevel::WorkspaceWrite, SandboxLevel::ReadOnly] {
        for script in [
            format!("cat {}/id_ed25519", ssh.display()),
            format!("ls {}", ssh.display()),
            format!("cat {}", netrc.display()),
            format!("grep -r SECRET {}", home.path().display()),
            format!("echo x > {}", netrc.display()),
            format!("cp /dev/null {}/id_ed25519", ssh.display()),
        ] {
            let out = run_hiding(ws.path(), level, false, &hidden, &script);
            assert!(!out.ok, "{level:?} {script}: {}", out.output);
            assert!(
                !out.output.contains("PRIVATE-KEY") && !out.output.contains("NETRC-SECRET"),
                "{script}: {}",
                out.output
            );
            assert!(
                out.output.contains("Permission denied"),
                "{script}: {}",
                out.output
            );
        }
    }
    assert_eq!(
        std::fs::read_to_string(ssh.join("id_ed25519")).unwrap(),
        "PRIVATE-KEY-BYTES\n"
    );
    assert!(
        std::fs::read_to_string(&netrc)
            .unwrap()
            .contains("NETRC-SECRET")
    );
    // A hidden path that holds the workspace is left as it is.
    let out = run_hiding(
        ws.path(),
        SandboxLevel::WorkspaceWrite,
        false,
        &[ws.path().parent().unwrap()],
        "cat a.txt && echo b > a.txt",
    );
    assert!(out.ok, "{}", out.output);
}

#[test]
fn the_bus_the_agents_and_the_display_leave_the_environment_and_run_user_is_empty() {
    let ws = workspace();
    let policy = SandboxPolicy::new(
        SandboxLevel::WorkspaceWrite,
        false,
        ws.path().to_path_buf(),
        ws.path().join(".tmp"),
    );
    let mut command = Command::new("bash");
    // SAFETY: getuid cannot fail.
    let uid = unsafe { libc::getuid() };
    command
        .args([
            "-c",
            &format!(
                "echo \"[$DBUS_SESSION_BUS_ADDRESS|$SSH_AUTH_SOCK|$DISPLAY|$WAYLAND_DISPLAY|$XAUTHORITY]\"; ls -A /run/user/{uid} 2>&1 | head -3; echo end"
            ),
        ])
        .env("DBUS_SESSION_BUS_ADDRESS", "unix:path=/run/user/1/bus")
        .env("SSH_AUTH_SOCK", "/tmp/ssh-x/agent.1")
        .env("DISPLAY", ":99")
        .env("WAYLAND_DISPLAY", "wayland-0")
        .env("XAUTHORITY", "/home/u/.Xauthority")
        .current_dir(ws.path());
    confine(&mut command, &policy).unwrap();
    let out = command.output().unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(text.contains("[||||]"), "{text}");
    if Path::new(&format!("/run/user/{uid}")).exists() {
        // Nothing of the user's runtime directory shows: listing it is refused.
        assert!(text.contains("Permission denied"), "{text}");
    }
}

/// A refused signal is said on the card, and never offered to run outside the sandbox.
#[tokio::test]
async fn a_refused_signal_is_on_the_card_and_does_not_ask_to_run_outside() {
    let turns = vec![
        vec![call("k", "bash", json!({"command": "kill -9 $PPID"}))],
        done("d"),
    ];
    let mut h = start(Wire::Anthropic, &turns, ApprovalMode::Auto).await;
    h.say("stop the app");
    assert!(h.end().await.is_success());
    let killed = h.sandbox_notes("k");
    assert!(killed.last().unwrap().signalled_outside, "{killed:?}");
    assert_eq!(h.finished("k").unwrap().0, CallState::Failed);
    assert!(
        !h.seen
            .iter()
            .any(|e| matches!(e.msg, EventMsg::ApprovalRequested { .. }))
    );
}

#[test]
fn a_confined_command_has_terminals_of_its_own_and_none_of_the_person_s() {
    // A terminal of the person's, open while the command runs.
    let mut master = 0;
    let mut slave = 0;
    // SAFETY: openpty writes two descriptors into the integers we pass.
    let opened = unsafe {
        libc::openpty(
            &mut master,
            &mut slave,
            std::ptr::null_mut(),
            std::ptr::null(),
            std::ptr::null(),
        )
    };
    assert_eq!(opened, 0, "{}", std::io::Error::last_os_error());
    // SAFETY: `slave` is the descriptor openpty just opened.
    let name = unsafe { std::ffi::CStr::from_ptr(libc::ttyname(slave)) }
        .to_string_lossy()
        .into_owned();
    for level in [SandboxLevel::WorkspaceWrite, SandboxLevel::ReadOnly] {
        let ws = workspace();
        let own = run(
            ws.path(),
            level,
            false,
            "python3 -c 'import os, pty; m, s = pty.openpty(); print(os.ttyname(s))'",
        );
        assert!(
            own.ok && own.output.starts_with("/dev/pts/"),
            "{level:?}: {}",
            own.output
        );
        let theirs = run(ws.path(), level, false, &format!("echo injected > {name}"));
        assert!(!theirs.ok, "{level:?}: {}", theirs.output);
    }
    // SAFETY: both descriptors are ours.
    unsafe {
        libc::close(master);
        libc::close(slave);
    }
}
