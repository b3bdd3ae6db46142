//! A session on a big repository against the same on a small one, side by side: a git
//! workspace of 100,000 small files (committed) and one of 2,000, each run as the app runs a
//! session (watcher on, checkpoints on, a store), with a scripted model that records when each
//! request reaches it.
//!
//! - the first request: from the session's start to the model's first request, in a fresh data
//!   directory and again in the same one (the second start of the app);
//! - a changing step: from a request whose answer is a `write` or a `bash` command to the next
//!   request (the call, its checkpoints and the changes listed), median of the task's steps.
//!
//! Run with `cargo bench -p foreman-core --bench big_repo`. Prints markdown rows
//! `| bench | measured | baseline | ratio | target | result |`. Needs `git`.

use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use foreman_core::agent::{Session, SessionConfig};
use foreman_core::conversation::open_session;
use foreman_core::protocol::{ApprovalMode, EventMsg, Op};
use foreman_core::providers::{
    EventStream, Provider, ProviderEvent, ProviderRequest, StopReason, ToolArguments,
};
use foreman_core::store::Store;
use foreman_core::testing::scripted_provider::ScriptedProvider;
use serde_json::json;
use tokio_util::sync::CancellationToken;

const STEPS: usize = 8;

/// The scripted model, noting when each request reaches it.
#[derive(Debug)]
struct Timed {
    inner: ScriptedProvider,
    at: Mutex<Vec<Instant>>,
}

impl Provider for Timed {
    fn name(&self) -> &str {
        "timed"
    }

    fn stream(&self, request: ProviderRequest, cancel: CancellationToken) -> EventStream {
        if let Ok(mut at) = self.at.lock() {
            at.push(Instant::now());
        }
        self.inner.stream(request, cancel)
    }
}

fn call(id: &str, name: &str, args: serde_json::Value) -> Vec<ProviderEvent> {
    vec![
        ProviderEvent::ToolCallStart {
            id: id.into(),
            name: name.into(),
        },
        ProviderEvent::ToolCallEnd {
            id: id.into(),
            arguments: ToolArguments::Parsed(args),
        },
        ProviderEvent::Stop {
            reason: StopReason::ToolUse,
        },
    ]
}

/// `STEPS` changing steps, writes and commands in turn (new files named after `run`), then
/// the end.
fn script(run: &str) -> Vec<Vec<ProviderEvent>> {
    let mut turns: Vec<Vec<ProviderEvent>> = (0..STEPS)
        .map(|i| {
            let id = format!("c{i}");
            match i % 2 {
                0 => call(
                    &id,
                    "write",
                    json!({"path": format!("notes/{run}-{i}.md"), "content": format!("step {i}\n")}),
                ),
                _ => call(
                    &id,
                    "bash",
                    json!({"command": format!("echo {i} > {run}-out{i}.txt")}),
                ),
            }
        })
        .collect();
    turns.push(call("done", "attempt_completion", json!({"result": "ok"})));
    turns
}

fn git(root: &Path, args: &[&str]) -> bool {
    Command::new("git")
        .args(args)
        .current_dir(root)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// A committed git repository of `files` small source files in folders of 100.
fn repository(root: &Path, files: usize) -> std::io::Result<bool> {
    for i in 0..files {
        let dir = root.join(format!("src/m{:03}/d{:02}", i / 1000, (i / 100) % 10));
        std::fs::create_dir_all(&dir)?;
        let text = format!("// file {i}\npub fn f{i}() -> usize {{\n    {i} * 2\n}}\n");
        std::fs::write(dir.join(format!("f{i}.rs")), text)?;
    }
    std::fs::write(root.join(".gitignore"), "target/\n")?;
    Ok(git(root, &["init", "-q"])
        && git(root, &["add", "-A"])
        && git(
            root,
            &[
                "-c",
                "user.name=b",
                "-c",
                "user.email=b@b",
                "commit",
                "-q",
                "-m",
                "tree",
            ],
        ))
}

/// One session: (first request after the start, median changing step, first changing step).
async fn session(workspace: &Path, data: &Path, run: &str) -> (Duration, Duration, Duration) {
    let provider = Arc::new(Timed {
        inner: ScriptedProvider::new(script(run)),
        at: Mutex::new(Vec::new()),
    });
    let store = Store::open(&data.join("foreman.db"))
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let (id, _) = open_session(&store, &workspace.display().to_string(), None)
        .await
        .ok()
        .flatten()
        .unwrap_or_else(|| panic!("no session"));
    let mut config = SessionConfig::new(provider.clone(), "bench", workspace.to_path_buf());
    config.session_id = Some(id);
    config.approval_mode = ApprovalMode::Yolo;
    config.data_dir = data.join("session");
    config.checkpoints_dir = Some(data.join("checkpoints"));
    config.watch_debounce = Some(Duration::from_millis(100));
    config.store = Some(store);
    let started = Instant::now();
    let (ops, mut events) = Session::spawn(config).unwrap_or_else(|e| panic!("{e}"));
    let _ = ops.send(Op::user_message("go"));
    let debug = std::env::var_os("BIG_REPO_DEBUG").is_some();
    while let Some(event) = events.recv().await {
        if debug {
            eprintln!("{:?} {:?}", started.elapsed(), event.msg);
        }
        match event.msg {
            EventMsg::TaskEnded { .. } => break,
            EventMsg::Error { message } => eprintln!("error: {message}"),
            // Whatever still asks (in either size alike) is approved at once.
            EventMsg::ApprovalRequested {
                call_id,
                preview_hash,
                reason,
                ..
            } => {
                eprintln!("approved: {reason}");
                let _ = ops.send(Op::Approve {
                    call_id,
                    preview_hash,
                    scope: Default::default(),
                });
            }
            _ => {}
        }
    }
    let _ = ops.send(Op::Shutdown);
    while let Some(event) = events.recv().await {
        if matches!(event.msg, EventMsg::ShutdownComplete) {
            break;
        }
    }
    let at = provider.at.lock().map(|a| a.clone()).unwrap_or_default();
    assert_eq!(at.len(), STEPS + 1, "every step reached the model");
    let first = at[0].duration_since(started);
    let mut steps: Vec<Duration> = at.windows(2).map(|w| w[1].duration_since(w[0])).collect();
    let first_step = steps[0];
    steps.sort();
    (first, steps[steps.len() / 2], first_step)
}

struct Sizes {
    fresh: Duration,
    again: Duration,
    step: Duration,
    /// The first changing step of a session in a fresh data directory: it waits for the
    /// checkpoint before the message, which reads every file once.
    first_step: Duration,
    first_step_again: Duration,
}

fn measure(runtime: &tokio::runtime::Runtime, files: usize) -> std::io::Result<Option<Sizes>> {
    let workspace = tempfile::tempdir()?;
    let root = workspace.path().canonicalize()?;
    if !repository(&root, files)? {
        return Ok(None);
    }
    let data = tempfile::tempdir()?;
    let (fresh, step, first_step) = runtime.block_on(session(&root, data.path(), "first"));
    let (again, second_step, first_step_again) =
        runtime.block_on(session(&root, data.path(), "second"));
    Ok(Some(Sizes {
        fresh,
        again,
        step: step.min(second_step),
        first_step,
        first_step_again,
    }))
}

fn ms(d: Duration) -> String {
    format!("{:.0} ms", d.as_secs_f64() * 1000.0)
}

fn row(what: &str, big: Duration, small: Duration, target: f64) {
    let ratio = big.as_secs_f64() / small.as_secs_f64();
    let pass = if ratio <= target { "PASS" } else { "FAIL" };
    println!(
        "| {what}, 100,000 files | {} | 2,000 files: {} | {ratio:.2}× | ≤ {target}× | {pass} |",
        ms(big),
        ms(small)
    );
}

fn main() -> std::io::Result<()> {
    let runtime = tokio::runtime::Runtime::new()?;
    // A repository made beforehand, for looking into one session (with BIG_REPO_DEBUG).
    if let Some(dir) = std::env::var_os("BIG_REPO_DIR") {
        let data = tempfile::tempdir()?;
        let (first, step, first_step) = runtime.block_on(session(
            Path::new(&dir),
            data.path(),
            &format!("probe{}", std::process::id()),
        ));
        println!("first request {first:?}, median step {step:?}, first step {first_step:?}");
        return Ok(());
    }
    println!("| bench | measured | baseline | ratio | target | result |");
    println!("|---|---|---|---|---|---|");
    let big_size = std::env::var("BIG_REPO_FILES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(100_000);
    let (Some(small), Some(big)) = (measure(&runtime, 2_000)?, measure(&runtime, big_size)?) else {
        println!(
            "| a session on a 100,000-file repository | git not available | - | - | - | SKIPPED |"
        );
        return Ok(());
    };
    row(
        "first request, fresh data directory",
        big.fresh,
        small.fresh,
        1.5,
    );
    row("first request, second start", big.again, small.again, 1.5);
    row(
        "a changing step (write or command, checkpointed)",
        big.step,
        small.step,
        1.5,
    );
    for (what, big, small) in [
        (
            "the first changing step, fresh data directory",
            big.first_step,
            small.first_step,
        ),
        (
            "the first changing step, second start",
            big.first_step_again,
            small.first_step_again,
        ),
    ] {
        println!(
            "| {what}, 100,000 files | {} | 2,000 files: {} | {:.1}× | reported | - |",
            ms(big),
            ms(small),
            big.as_secs_f64() / small.as_secs_f64()
        );
    }
    Ok(())
}
