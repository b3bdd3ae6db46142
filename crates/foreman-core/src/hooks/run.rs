//! Running one hook: its command in the platform's shell from the workspace root, its input as
//! JSON on stdin, `CLAUDE_PROJECT_DIR` and `FOREMAN_PROJECT_DIR` set, the known secrets out of
//! its environment, confined like the `bash` tool when a sandbox is given. Its output is read as
//! it comes and kept up to [`KEPT_BYTES`] per stream (a hook that prints 10 MB is drained, not
//! kept); past its timeout its whole process tree is killed. Whatever it started is ended when
//! it returns ([`process_tree`]), and the card says so, unless the hook keeps its children
//! (`"keepChildren": true`): then they run until the session ends, which drops their tree.

use std::path::Path;
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};
use tokio_util::sync::CancellationToken;

use crate::builtin_tools::bash::{command_shell, is_secret_env};
use crate::process_tree::{self, CommandExit, Leftovers, ProcessTree};
use crate::sandbox::{self, SandboxPolicy};

/// The most of each output stream that is kept.
pub const KEPT_BYTES: usize = 64 * 1024;

/// How long the output of a hook whose processes are all gone may take to arrive.
const OUTPUT_GRACE: Duration = Duration::from_secs(2);
/// The same for a hook whose kept children may hold its output open.
const KEPT_OUTPUT_GRACE: Duration = Duration::from_millis(200);

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
#[derive(Debug)]
pub struct Ran {
    pub exit: Exit,
    pub stdout: String,
    pub stderr: String,
    pub elapsed: Duration,
    /// What it left running that was ended when it returned (`1 process it left running was
    /// ended: sleep`).
    pub ended: Option<String>,
    /// The tree of a hook that keeps its children: they run until it is dropped.
    pub kept: Option<ProcessTree>,
}

/// How to run one hook.
#[derive(Debug)]
pub struct HookProcess<'a> {
    pub command: &'a str,
    pub workspace: &'a Path,
    pub timeout: Duration,
    pub sandbox: Option<&'a SandboxPolicy>,
    pub env: &'a [(String, String)],
    /// What it starts may outlive it (until the session ends).
    pub keep_children: bool,
}

/// Runs it with `input` on stdin.
pub async fn run(process: HookProcess<'_>, input: &[u8], cancel: &CancellationToken) -> Ran {
    let started = Instant::now();
    let not_started = |why: String| Ran {
        exit: Exit::NotStarted(why),
        stdout: String::new(),
        stderr: String::new(),
        elapsed: started.elapsed(),
        ended: None,
        kept: None,
    };
    let mut confined = std::process::Command::new(command_shell());
    let leftovers = match process.keep_children {
        true => Leftovers::Keep,
        false => Leftovers::Stop,
    };
    let prepared = match process_tree::prepare(&mut confined, leftovers) {
        Ok(prepared) => prepared,
        Err(e) => return not_started(format!("it could not be prepared: {e}")),
    };
    if let Some(policy) = process.sandbox
        && let Err(e) = sandbox::confine(&mut confined, policy)
    {
        return not_started(format!("the sandbox could not be set up: {e}"));
    }
    let mut command = tokio::process::Command::from(confined);
    command
        .arg("-c")
        .arg(process.command)
        .current_dir(process.workspace)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
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
    let tree = ProcessTree::of(&child, prepared);
    if let Some(mut stdin) = child.stdin.take() {
        let input = input.to_vec();
        // A hook that does not read its input must not block the run.
        tokio::spawn(async move {
            let _ = stdin.write_all(&input).await;
        });
    }
    let stdout = child.stdout.take().map(Kept::read);
    let stderr = child.stderr.take().map(Kept::read);
    let exit = tokio::select! {
        exit = ended(&mut child, &tree, process.keep_children) => exit,
        () = tokio::time::sleep(process.timeout) => Exit::TimedOut,
        () = cancel.cancelled() => Exit::Cancelled,
    };
    let stopped = matches!(exit, Exit::TimedOut | Exit::Cancelled);
    if stopped {
        tree.kill();
        let _ = tokio::time::timeout(OUTPUT_GRACE, child.wait()).await;
    }
    let keeps = process.keep_children && !stopped;
    // What a finished tree's pipes still hold comes quickly; kept children that hold them open
    // do not hold the session.
    let grace = match keeps {
        true => KEPT_OUTPUT_GRACE,
        false => OUTPUT_GRACE,
    };
    let (stdout, stderr) = tokio::join!(Kept::text(stdout, grace), Kept::text(stderr, grace));
    let ended = match keeps {
        true => None,
        false => tree.ended().describe(),
    };
    Ran {
        exit,
        stdout,
        stderr,
        elapsed: started.elapsed(),
        ended,
        kept: keeps.then_some(tree),
    }
}

/// How the hook's own command ended: its child's end, or for a hook that keeps its children
/// (whose child, the keeper, goes on) what the keeper says.
async fn ended(child: &mut tokio::process::Child, tree: &ProcessTree, keep: bool) -> Exit {
    if keep && let Some(exit) = tree.command_ended().await {
        return match exit {
            CommandExit::Code(code) => Exit::Code(code),
            CommandExit::Signal(_) => Exit::Signalled,
        };
    }
    match child.wait().await {
        Ok(status) => status.code().map_or(Exit::Signalled, Exit::Code),
        Err(e) => Exit::NotStarted(format!("it could not be waited for: {e}")),
    }
}

/// One output stream, read as it comes, its first [`KEPT_BYTES`] kept.
struct Kept {
    bytes: Arc<Mutex<(Vec<u8>, bool)>>,
    reader: tokio::task::JoinHandle<()>,
}

impl Kept {
    fn read(mut stream: impl AsyncRead + Unpin + Send + 'static) -> Self {
        let bytes = Arc::new(Mutex::new((Vec::new(), false)));
        let into = Arc::clone(&bytes);
        let reader = tokio::spawn(async move {
            let mut buf = vec![0u8; 16 * 1024];
            loop {
                match stream.read(&mut buf).await {
                    Ok(0) | Err(_) => break,
                    Ok(n) => {
                        let mut held = into.lock().unwrap_or_else(|p| p.into_inner());
                        let room = KEPT_BYTES.saturating_sub(held.0.len());
                        held.0.extend_from_slice(&buf[..n.min(room)]);
                        held.1 |= n > room;
                    }
                }
            }
        });
        Self { bytes, reader }
    }

    /// What was read once the stream ended, or `grace` passed.
    async fn text(kept: Option<Self>, grace: Duration) -> String {
        let Some(mut kept) = kept else {
            return String::new();
        };
        if tokio::time::timeout(grace, &mut kept.reader).await.is_err() {
            kept.reader.abort();
        }
        let held = kept.bytes.lock().unwrap_or_else(|p| p.into_inner());
        let mut text = String::from_utf8_lossy(&held.0).into_owned();
        if held.1 {
            text.push_str("\n[… the rest of its output was left out]");
        }
        text
    }
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
            keep_children: false,
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
