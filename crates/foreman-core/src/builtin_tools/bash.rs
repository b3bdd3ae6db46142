//! The `bash` tool: runs `bash -c` (or `sh -c`) in the workspace root with stdin closed and
//! provider secrets removed from the environment. Output streams live to a callback; the model
//! gets the exit code, the duration and the head and tail of the output, with the full output
//! saved in the session data directory. Timeout and cancellation kill the command's whole
//! process tree, grandchildren and daemons included; so does the command finishing, so nothing it
//! started outlives it ([`process_tree`]), and the card and the model are told what was ended.

use std::ffi::OsStr;
use std::path::Path;
use std::process::Stdio;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use tokio::io::AsyncReadExt;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use super::bash_output::OutputCollector;
use super::error::BuiltinError;
use super::session::BuiltinSession;
use std::sync::Arc;

use serde_json::Value;

use crate::approval::{CallFacts, ShellLine};
use crate::checkpoints::Coverage;
use crate::checkpoints::unkept::{Takes, Unkept};
use crate::process_tree::{self, Leftovers, ProcessTree};
use crate::protocol::{ArgsView, ToolKind};
use crate::sandbox::{self, SandboxPolicy};
use crate::tools::{CallContext, Tool, ToolError, ToolOutput, arg};

/// Default timeout: 2 minutes.
pub const DEFAULT_TIMEOUT_MS: u64 = 120_000;
/// Longest timeout allowed: 10 minutes.
pub const MAX_TIMEOUT_MS: u64 = 600_000;
/// How long to wait for output pipes to close after the process group was killed.
const DRAIN_GRACE: Duration = Duration::from_secs(2);

static LOG_COUNTER: AtomicU64 = AtomicU64::new(0);

/// Run a shell command with bash in the workspace root (stdin is closed). Default timeout 2
/// minutes, at most 10. Long output is shortened to its first and last lines and saved in full to a
/// file whose path is given. Background processes are stopped when the command ends.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
pub struct BashParams {
    /// The shell command to run (with `bash -c`) in the workspace root.
    pub command: String,
    /// Timeout in milliseconds (default 120000, at most 600000).
    #[serde(default)]
    pub timeout_ms: Option<u64>,
    /// A few words saying what the command does, shown to the user.
    #[serde(default)]
    pub description: Option<String>,
}

/// Result of the `bash` tool.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BashOutput {
    /// Short title, e.g. `cargo test — exit 0 in 3.2 s`.
    pub title: String,
    /// Exit code, if the command exited normally.
    pub exit_code: Option<i32>,
    /// Signal that ended the command, if any.
    pub signal: Option<i32>,
    /// Wall time in milliseconds.
    pub duration_ms: u64,
    /// Whether the timeout killed the command.
    pub timed_out: bool,
    /// Whether cancellation killed the command.
    pub cancelled: bool,
    /// Output (stdout and stderr interleaved), head and tail when long.
    pub output: String,
    /// Whether the output was shortened.
    pub truncated: bool,
    /// Lines of output in total.
    pub total_lines: usize,
    /// Bytes of output in total.
    pub total_bytes: usize,
    /// Where the full output is saved, when shortened.
    pub full_output_path: Option<String>,
    /// The timeout applied, in milliseconds.
    pub timeout_ms: u64,
    /// What it left running that was ended when it ended (`2 processes it left running were
    /// ended: sleep`), when there was any.
    pub left_running: Option<String>,
}

impl BashOutput {
    /// Text given to the model.
    pub fn render(&self) -> String {
        let status = if self.timed_out {
            format!(
                "Timed out after {} ms; the command and its children were killed.",
                self.timeout_ms
            )
        } else if self.cancelled {
            "Cancelled; the command and its children were killed.".to_string()
        } else if let Some(code) = self.exit_code {
            format!("Exit code {code}.")
        } else {
            format!("Killed by signal {}.", self.signal.unwrap_or(0))
        };
        let output = if self.output.is_empty() {
            "(no output)\n"
        } else {
            self.output.as_str()
        };
        let ended = match &self.left_running {
            Some(what) => format!("\n[{what}.]"),
            None => String::new(),
        };
        format!(
            "{status} Duration {:.1} s.\n{output}{ended}",
            self.duration_ms as f64 / 1000.0
        )
    }
}

/// Whether an environment variable holds a secret that commands must not see.
pub fn is_secret_env(name: &OsStr) -> bool {
    let name = name.to_string_lossy().to_ascii_uppercase();
    name.ends_with("_API_KEY")
        || name == "API_KEY"
        || name.ends_with("_TOKEN")
        || name.ends_with("_SECRET")
        || name.starts_with("FOREMAN_")
}

/// The progress tip shown while the tool runs: what the command is for, when the model said;
/// without it the card shows the command itself and says nothing more.
pub fn bash_tip(params: &BashParams) -> Option<String> {
    match &params.description {
        Some(d) if !d.trim().is_empty() => Some(format!("{}…", d.trim())),
        _ => None,
    }
}

fn first_line(command: &str) -> String {
    let line = command.lines().next().unwrap_or("");
    match line.char_indices().nth(80) {
        Some((cut, _)) => format!("{}…", &line[..cut]),
        None => line.to_string(),
    }
}

/// The shell the `bash` tool runs commands in: `bash` where it is installed, else `sh`.
pub fn command_shell() -> &'static str {
    if Path::new("/bin/bash").exists() || Path::new("/usr/bin/bash").exists() {
        "bash"
    } else {
        "sh"
    }
}

/// Runs the `bash` tool unconfined. `on_output` receives output chunks as they arrive.
pub async fn run_bash(
    session: &BuiltinSession,
    params: BashParams,
    cancel: CancellationToken,
    on_output: impl FnMut(&str) + Send,
) -> Result<BashOutput, BuiltinError> {
    run_bash_in(session, params, None, cancel, on_output).await
}

/// Runs the `bash` tool, confined to `sandbox` when there is one.
pub async fn run_bash_in(
    session: &BuiltinSession,
    params: BashParams,
    sandbox: Option<&SandboxPolicy>,
    cancel: CancellationToken,
    mut on_output: impl FnMut(&str) + Send,
) -> Result<BashOutput, BuiltinError> {
    let timeout_ms = match params.timeout_ms {
        Some(0) => {
            return Err(BuiltinError::InvalidParams(
                "timeout_ms must be positive".into(),
            ));
        }
        Some(ms) => ms.min(MAX_TIMEOUT_MS),
        None => DEFAULT_TIMEOUT_MS,
    };
    let root = session.boundary.root().to_path_buf();
    let mut confined = std::process::Command::new(command_shell());
    let prepared =
        process_tree::prepare(&mut confined, Leftovers::Stop).map_err(|e| BuiltinError::Io {
            path: root.clone(),
            source: e,
        })?;
    if let Some(policy) = sandbox {
        sandbox::confine(&mut confined, policy)
            .map_err(|e| BuiltinError::Sandbox(e.to_string()))?;
    }
    let mut command = tokio::process::Command::from(confined);
    command
        .arg("-c")
        .arg(&params.command)
        .current_dir(&root)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (name, _) in std::env::vars_os() {
        if is_secret_env(&name) {
            command.env_remove(&name);
        }
    }
    for (name, value) in &session.env {
        command.env(name, value);
    }
    let started = Instant::now();
    let mut child = command.spawn().map_err(|e| BuiltinError::Io {
        path: root.clone(),
        source: e,
    })?;
    let tree = ProcessTree::of(&child, prepared);
    let kill_group = || tree.kill();

    let (tx, mut rx) = mpsc::channel::<Vec<u8>>(64);
    if let Some(stdout) = child.stdout.take() {
        tokio::spawn(pump(stdout, tx.clone()));
    }
    if let Some(stderr) = child.stderr.take() {
        tokio::spawn(pump(stderr, tx.clone()));
    }
    drop(tx);

    let log_path = std::fs::create_dir_all(&session.data_dir).ok().map(|()| {
        let stamp = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_millis());
        session.data_dir.join(format!(
            "bash-{stamp}-{}-{}.log",
            std::process::id(),
            LOG_COUNTER.fetch_add(1, Ordering::Relaxed)
        ))
    });
    let mut collector = OutputCollector::new(log_path);
    let deadline = tokio::time::sleep(Duration::from_millis(timeout_ms));
    tokio::pin!(deadline);
    let mut timed_out = false;
    let mut cancelled = false;
    let mut pipes_open = true;
    let status = loop {
        tokio::select! {
            chunk = rx.recv(), if pipes_open => match chunk {
                Some(bytes) => {
                    on_output(&String::from_utf8_lossy(&bytes));
                    collector.push(&bytes);
                }
                None => pipes_open = false,
            },
            status = child.wait() => break status.ok(),
            () = &mut deadline => {
                timed_out = true;
                kill_group();
                break child.wait().await.ok();
            }
            () = cancel.cancelled() => {
                cancelled = true;
                kill_group();
                break child.wait().await.ok();
            }
        }
    };
    // The keeper ended what the command left behind, so the pipes close.
    let left_running = tree.ended().describe();
    let drain = async {
        while let Some(bytes) = rx.recv().await {
            on_output(&String::from_utf8_lossy(&bytes));
            collector.push(&bytes);
        }
    };
    let _ = tokio::time::timeout(DRAIN_GRACE, drain).await;
    let duration_ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
    let collected = collector.finish();
    let exit_code = status.and_then(|s| s.code());
    let signal = status.and_then(process_tree::exit_signal);
    let outcome = if timed_out {
        "timed out".to_string()
    } else if cancelled {
        "cancelled".to_string()
    } else if let Some(code) = exit_code {
        format!("exit {code}")
    } else {
        format!("signal {}", signal.unwrap_or(0))
    };
    let label = params
        .description
        .clone()
        .unwrap_or_else(|| first_line(&params.command));
    Ok(BashOutput {
        title: format!(
            "{label} — {outcome} in {:.1} s",
            duration_ms as f64 / 1000.0
        ),
        exit_code,
        signal,
        duration_ms,
        timed_out,
        cancelled,
        output: collected.text,
        truncated: collected.truncated,
        total_lines: collected.total_lines,
        total_bytes: collected.total_bytes,
        full_output_path: collected.full_output_path.map(|p| p.display().to_string()),
        timeout_ms,
        left_running,
    })
}

/// What the deletions of `line` would take that no checkpoint keeps, in words.
fn unkept_by(line: &ShellLine, root: &Path, coverage: &Coverage) -> Option<String> {
    let found = line.removals();
    let mut unkept = Unkept::default();
    let bases: Vec<&str> = std::iter::once("")
        .chain(found.folders.iter().map(String::as_str))
        .collect();
    for removal in &found.removals {
        let takes = match (removal.visible, removal.ignored) {
            (true, true) => Takes::Everything,
            (false, true) => Takes::IgnoredOnly,
            _ => Takes::VisibleOnly,
        };
        let mut paths = Vec::new();
        for base in &bases {
            match removal.paths.is_empty() {
                true => paths.push((*base).to_owned()),
                false => paths.extend(removal.paths.iter().filter_map(|p| inside(root, base, p))),
            }
        }
        paths.sort();
        paths.dedup();
        let more = coverage.unkept(root, &paths, takes);
        for group in more.groups {
            if !unkept.groups.contains(&group) {
                unkept.groups.push(group);
            }
        }
        unkept.partial |= more.partial;
    }
    (!unkept.is_empty()).then(|| unkept.describe())
}

/// `path` (as written, from `base`) relative to the workspace root, when it is inside.
fn inside(root: &Path, base: &str, path: &str) -> Option<String> {
    let joined = match Path::new(path).is_absolute() {
        true => std::path::PathBuf::from(path),
        false => root.join(base).join(path),
    };
    let mut normal = std::path::PathBuf::new();
    for part in joined.components() {
        match part {
            std::path::Component::ParentDir => {
                normal.pop();
            }
            std::path::Component::CurDir => {}
            other => normal.push(other),
        }
    }
    let relative = normal.strip_prefix(root).ok()?;
    Some(relative.to_string_lossy().into_owned())
}

/// Forwards everything read from `reader` to `tx` until end of file.
async fn pump(mut reader: impl tokio::io::AsyncRead + Unpin, tx: mpsc::Sender<Vec<u8>>) {
    let mut buf = vec![0u8; 8192];
    loop {
        match reader.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                if tx.send(buf[..n].to_vec()).await.is_err() {
                    break;
                }
            }
        }
    }
}

/// `bash`, for the runtime.
#[derive(Debug, Clone)]
pub struct BashTool {
    session: BuiltinSession,
}

impl BashTool {
    pub fn new(session: BuiltinSession) -> Self {
        Self { session }
    }
}

impl Tool for BashTool {
    type Input = BashParams;
    const NAME: &'static str = "bash";
    const KIND: ToolKind = ToolKind::Execute;

    fn view(&self) -> ArgsView {
        ArgsView::Command {
            command: "command".into(),
        }
    }

    fn title(&self, args: &Value) -> String {
        match arg(args, "description").map(str::trim) {
            Some(d) if !d.is_empty() => d.to_owned(),
            _ => first_line(arg(args, "command").unwrap_or_default()),
        }
    }

    fn facts(&self, input: &BashParams) -> Result<CallFacts, ToolError> {
        // The command runs in the root: a redirection's target is relative to it.
        let boundary = &self.session.boundary;
        let inside = |target: &str| boundary.resolve(target).is_ok();
        let line = ShellLine::parse(&input.command, &inside);
        let unkept = unkept_by(&line, boundary.root(), &self.session.coverage);
        Ok(CallFacts {
            unkept,
            ..CallFacts::command(Self::NAME, line)
        })
    }

    fn sandboxable(&self) -> bool {
        true
    }

    /// Longer than the command's own 10-minute maximum, so the tool reports its own timeout.
    fn timeout(&self) -> Duration {
        Duration::from_millis(MAX_TIMEOUT_MS) + Duration::from_secs(60)
    }

    async fn run(
        self: Arc<Self>,
        input: BashParams,
        ctx: CallContext,
    ) -> Result<ToolOutput, ToolError> {
        if let Some(tip) = bash_tip(&input) {
            ctx.sink.status(tip);
        }
        let sink = ctx.sink.clone();
        let sandbox = ctx.sandbox.as_ref();
        let output = run_bash_in(&self.session, input, sandbox, ctx.cancel, |text| {
            sink.text(text)
        })
        .await?;
        let summary = match &output.left_running {
            Some(what) => format!("{} · {what}", output.title),
            None => output.title.clone(),
        };
        Ok(ToolOutput {
            failed: output.exit_code != Some(0),
            ..ToolOutput::text(output.render()).summarised(summary)
        })
    }
}

// The tests run `sh` commands and look processes up in `/proc`.
#[cfg(test)]
#[cfg(unix)]
mod tests {
    use std::sync::{Arc, Mutex};

    use super::*;
    use crate::boundary::WorkspaceBoundary;

    fn session() -> (tempfile::TempDir, tempfile::TempDir, BuiltinSession) {
        let ws = tempfile::tempdir().unwrap();
        let data = tempfile::tempdir().unwrap();
        let s = BuiltinSession::new(
            WorkspaceBoundary::new(ws.path()).unwrap(),
            data.path().join("session"),
        );
        (ws, data, s)
    }

    fn bp(command: &str, timeout_ms: Option<u64>) -> BashParams {
        BashParams {
            command: command.into(),
            timeout_ms,
            description: None,
        }
    }

    fn process_gone(pid: i32) -> bool {
        match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
            Err(_) => true,
            // A zombie waiting for its (re)parent to reap it is dead too.
            Ok(stat) => stat
                .rsplit(')')
                .next()
                .is_some_and(|rest| rest.trim_start().starts_with('Z')),
        }
    }

    #[tokio::test]
    async fn runs_in_workspace_root_with_exit_code() {
        let (_w, _d, s) = session();
        let out = run_bash(
            &s,
            bp("pwd; echo err >&2; exit 3", None),
            CancellationToken::new(),
            |_| {},
        )
        .await
        .unwrap();
        assert_eq!(out.exit_code, Some(3));
        assert!(
            out.output
                .contains(&s.boundary.root().display().to_string())
        );
        assert!(out.output.contains("err"));
        assert!(out.render().starts_with("Exit code 3."));
        assert!(out.title.contains("exit 3"));
    }

    #[tokio::test]
    async fn stdin_is_null() {
        let (_w, _d, s) = session();
        let out = run_bash(
            &s,
            bp("cat; echo done", Some(5000)),
            CancellationToken::new(),
            |_| {},
        )
        .await
        .unwrap();
        assert_eq!(out.output, "done\n");
        assert!(!out.timed_out);
    }

    #[tokio::test]
    async fn streams_output_live() {
        let (_w, _d, s) = session();
        let seen = Arc::new(Mutex::new(String::new()));
        let sink = seen.clone();
        let out = run_bash(
            &s,
            bp("echo one; sleep 0.2; echo two", None),
            CancellationToken::new(),
            move |c| {
                sink.lock().unwrap().push_str(c);
            },
        )
        .await
        .unwrap();
        assert_eq!(*seen.lock().unwrap(), "one\ntwo\n");
        assert_eq!(out.output, "one\ntwo\n");
    }

    #[tokio::test]
    async fn timeout_kills_grandchildren() {
        let (_w, _d, s) = session();
        let cmd = "sleep 100 & echo $! > bg.pid; (sleep 100 & echo $! > sub.pid; wait) & sleep 100";
        let started = Instant::now();
        let out = run_bash(&s, bp(cmd, Some(700)), CancellationToken::new(), |_| {})
            .await
            .unwrap();
        assert!(out.timed_out);
        assert!(started.elapsed() < Duration::from_secs(5));
        assert!(out.render().contains("Timed out"));
        for file in ["bg.pid", "sub.pid"] {
            let pid: i32 = std::fs::read_to_string(s.boundary.root().join(file))
                .unwrap()
                .trim()
                .parse()
                .unwrap();
            let mut gone = false;
            for _ in 0..40 {
                if process_gone(pid) {
                    gone = true;
                    break;
                }
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            assert!(gone, "process {pid} from {file} survived the timeout");
        }
    }

    #[tokio::test]
    async fn cancellation_kills_the_group() {
        let (_w, _d, s) = session();
        let token = CancellationToken::new();
        let trigger = token.clone();
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(300)).await;
            trigger.cancel();
        });
        let out = run_bash(
            &s,
            bp("sleep 50 & echo $! > c.pid; sleep 50", None),
            token,
            |_| {},
        )
        .await
        .unwrap();
        assert!(out.cancelled);
        let pid: i32 = std::fs::read_to_string(s.boundary.root().join("c.pid"))
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        tokio::time::sleep(Duration::from_millis(200)).await;
        assert!(process_gone(pid));
    }

    #[tokio::test]
    async fn secrets_are_removed_from_env() {
        let (_w, _d, s) = session();
        let out = run_bash(&s, bp("env", None), CancellationToken::new(), |_| {})
            .await
            .unwrap();
        for line in out.output.lines() {
            let name = line.split('=').next().unwrap();
            assert!(!is_secret_env(OsStr::new(name)), "{name} leaked");
        }
        assert!(out.output.contains("PATH="));
    }

    #[test]
    fn secret_names() {
        for name in [
            "ANTHROPIC_API_KEY",
            "OPENAI_API_KEY",
            "OPENROUTER_API_KEY",
            "GITHUB_TOKEN",
            "AWS_SECRET",
            "FOREMAN_DB",
            "my_api_key",
        ] {
            assert!(is_secret_env(OsStr::new(name)), "{name}");
        }
        for name in ["PATH", "HOME", "TOKENIZER", "CARGO_HOME"] {
            assert!(!is_secret_env(OsStr::new(name)), "{name}");
        }
    }

    #[tokio::test]
    async fn long_output_is_truncated_and_saved() {
        let (_w, _d, s) = session();
        let out = run_bash(&s, bp("seq 1 5000", None), CancellationToken::new(), |_| {})
            .await
            .unwrap();
        assert!(out.truncated);
        assert_eq!(out.total_lines, 5000);
        assert!(out.output.starts_with("1\n2\n"));
        assert!(out.output.ends_with("4999\n5000\n"));
        let path = out.full_output_path.clone().unwrap();
        assert!(out.output.contains(&path));
        assert_eq!(
            std::fs::read_to_string(&path).unwrap().lines().count(),
            5000
        );
    }

    #[tokio::test]
    async fn timeout_is_clamped_and_zero_refused() {
        let (_w, _d, s) = session();
        let out = run_bash(
            &s,
            bp("true", Some(10 * MAX_TIMEOUT_MS)),
            CancellationToken::new(),
            |_| {},
        )
        .await
        .unwrap();
        assert_eq!(out.timeout_ms, MAX_TIMEOUT_MS);
        assert!(
            run_bash(&s, bp("true", Some(0)), CancellationToken::new(), |_| {})
                .await
                .is_err()
        );
    }
}
