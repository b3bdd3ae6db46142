//! Running one hook: its command in the platform's shell from the workspace root, its input as
//! JSON on stdin, `CLAUDE_PROJECT_DIR` and `FOREMAN_PROJECT_DIR` set, the known secrets out of
//! its environment, confined like the `bash` tool when a sandbox is given. Its output is read as
//! it comes and kept up to [`KEPT_BYTES`] per stream (a hook that prints 10 MB is drained, not
//! kept); past its timeout its whole process tree is killed.

use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};
use tokio_util::sync::CancellationToken;

use crate::builtin_tools::bash::{command_shell, is_secret_env};
use crate::process_tree::{self, ProcessTree};
use crate::sandbox::{self, SandboxPolicy};

/// The most of each output stream that is kept.
pub const KEPT_BYTES: usize = 64 * 1024;

/// How a hook's process ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Exit {
    Code(i32),
    /// Killed by a signal (no code).
    Signalled,
    TimedOut,
    /// The session stopped it.
    Cancelled,
    /// It could not start.
    NotStarted(String),
}

/// What one run gave.
#[derive(Debug, Clone)]
pub struct Ran {
    pub exit: Exit,
    pub stdout: String,
    pub stderr: String,
    pub elapsed: Duration,
}

/// How to run one hook.
#[derive(Debug)]
pub struct HookProcess<'a> {
    pub command: &'a str,
    pub workspace: &'a Path,
    pub timeout: Duration,
    pub sandbox: Option<&'a SandboxPolicy>,
    pub env: &'a [(String, String)],
}

/// Runs it with `input` on stdin.
pub async fn run(process: HookProcess<'_>, input: &[u8], cancel: &CancellationToken) -> Ran {
    let started = Instant::now();
    let not_started = |why: String| Ran {
        exit: Exit::NotStarted(why),
        stdout: String::new(),
        stderr: String::new(),
        elapsed: started.elapsed(),
    };
    let mut confined = std::process::Command::new(command_shell());
    if let Some(policy) = process.sandbox
        && let Err(e) = sandbox::confine(&mut confined, policy)
    {
        return not_started(format!("the sandbox could not be set up: {e}"));
    }
    let mut command = tokio::process::Command::from(confined);
    process_tree::isolate(&mut command)
        .arg("-c")
        .arg(process.command)
        .current_dir(process.workspace)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    for (name, _) in std::env::vars_os() {
        if is_secret_env(&name) {
            command.env_remove(&name);
        }
    }
    command
        .env("CLAUDE_PROJECT_DIR", process.workspace)
        .env("FOREMAN_PROJECT_DIR", process.workspace);
    for (name, value) in process.env {
        command.env(name, value);
    }
    let mut child = match command.spawn() {
        Ok(child) => child,
        Err(e) => return not_started(format!("it could not start: {e}")),
    };
    let tree = ProcessTree::of(&child);
    if let Some(mut stdin) = child.stdin.take() {
        let input = input.to_vec();
        // A hook that does not read its input must not block the run.
        tokio::spawn(async move {
            let _ = stdin.write_all(&input).await;
        });
    }
    let stdout = child.stdout.take().map(|s| tokio::spawn(keep(s)));
    let stderr = child.stderr.take().map(|s| tokio::spawn(keep(s)));
    let exit = tokio::select! {
        status = child.wait() => match status {
            Ok(status) => status.code().map_or(Exit::Signalled, Exit::Code),
            Err(e) => Exit::NotStarted(format!("it could not be waited for: {e}")),
        },
        () = tokio::time::sleep(process.timeout) => Exit::TimedOut,
        () = cancel.cancelled() => Exit::Cancelled,
    };
    if matches!(exit, Exit::TimedOut | Exit::Cancelled) {
        tree.kill();
        let _ = child.kill().await;
    }
    // What a killed tree's pipes still hold comes quickly; a grandchild that kept them open
    // does not hold the session.
    let collect = |task: Option<tokio::task::JoinHandle<String>>| async move {
        match task {
            Some(task) => tokio::time::timeout(Duration::from_secs(2), task)
                .await
                .ok()
                .and_then(Result::ok)
                .unwrap_or_default(),
            None => String::new(),
        }
    };
    Ran {
        exit,
        stdout: collect(stdout).await,
        stderr: collect(stderr).await,
        elapsed: started.elapsed(),
    }
}

/// Reads `stream` to its end, keeping its first [`KEPT_BYTES`].
async fn keep(mut stream: impl AsyncRead + Unpin) -> String {
    let mut kept = Vec::new();
    let mut buf = vec![0u8; 16 * 1024];
    let mut more = false;
    loop {
        match stream.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                let room = KEPT_BYTES.saturating_sub(kept.len());
                kept.extend_from_slice(&buf[..n.min(room)]);
                more |= n > room;
            }
        }
    }
    let mut text = String::from_utf8_lossy(&kept).into_owned();
    if more {
        text.push_str("\n[… the rest of its output was left out]");
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn process<'a>(command: &'a str, workspace: &'a Path, timeout: Duration) -> HookProcess<'a> {
        HookProcess {
            command,
            workspace,
            timeout,
            sandbox: None,
            env: &[],
        }
    }

    #[tokio::test]
    async fn input_goes_in_and_the_project_dir_is_set() {
        let dir = tempfile::tempdir().unwrap();
        let ran = run(
            process(
                "cat; echo \" $CLAUDE_PROJECT_DIR\"; echo oops >&2; exit 3",
                dir.path(),
                Duration::from_secs(10),
            ),
            b"{\"a\":1}",
            &CancellationToken::new(),
        )
        .await;
        assert_eq!(ran.exit, Exit::Code(3));
        assert_eq!(
            ran.stdout.trim(),
            format!("{{\"a\":1}} {}", dir.path().display())
        );
        assert_eq!(ran.stderr.trim(), "oops");
    }

    #[tokio::test]
    async fn a_hanging_hook_is_stopped_and_a_loud_one_is_cut() {
        let dir = tempfile::tempdir().unwrap();
        let cancel = CancellationToken::new();
        let ran = run(
            process("sleep 30", dir.path(), Duration::from_millis(300)),
            b"",
            &cancel,
        )
        .await;
        assert_eq!(ran.exit, Exit::TimedOut);
        assert!(ran.elapsed < Duration::from_secs(5), "{:?}", ran.elapsed);
        let ran = run(
            process(
                "head -c 10000000 /dev/zero | tr '\\0' x",
                dir.path(),
                Duration::from_secs(20),
            ),
            b"",
            &cancel,
        )
        .await;
        assert_eq!(ran.exit, Exit::Code(0));
        assert!(ran.stdout.len() < KEPT_BYTES + 100, "{}", ran.stdout.len());
        assert!(ran.stdout.ends_with("was left out]"));
    }
}
