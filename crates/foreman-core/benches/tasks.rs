//! What starting a task in a worktree costs beside git itself: `Tasks::start` (a worktree on
//! its own branch, the repository's configuration read, the session and the task stored) on a
//! repository of 20,000 files, against `git worktree add` of the same, median of 7 runs each,
//! interleaved (which goes first alternates).
//!
//! Run with `cargo bench -p foreman-core --bench tasks`. Prints markdown rows
//! `| bench | measured | baseline | ratio | target | result |`.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use foreman_core::protocol::TaskPlace;
use foreman_core::store::Store;
use foreman_core::tasks::{NewTask, Tasks};

const FILES: usize = 20_000;
const ROUNDS: usize = 7;
const TARGET: f64 = 1.2;

fn git(dir: &Path, args: &[&str]) -> Result<(), String> {
    let status = Command::new("git")
        .args([
            "-c",
            "user.name=bench",
            "-c",
            "user.email=bench@example.com",
        ])
        .args(args)
        .current_dir(dir)
        .status()
        .map_err(|e| e.to_string())?;
    match status.success() {
        true => Ok(()),
        false => Err(format!("git {args:?} failed")),
    }
}

fn repository(root: &Path) -> Result<(), String> {
    git(root, &["init", "-q", "-b", "main"])?;
    for i in 0..FILES {
        let dir = root.join(format!("src/m{:03}", i / 100));
        std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
        std::fs::write(
            dir.join(format!("f{i}.rs")),
            format!("pub fn f{i}() -> usize {{\n    {i}\n}}\n"),
        )
        .map_err(|e| e.to_string())?;
    }
    git(root, &["add", "-A"])?;
    git(root, &["commit", "-q", "-m", "files"])
}

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

async fn run() -> Result<(Duration, Duration), String> {
    let repo = tempfile::tempdir().map_err(|e| e.to_string())?;
    let data = tempfile::tempdir().map_err(|e| e.to_string())?;
    repository(repo.path())?;
    let store = Store::open(&data.path().join("foreman.db"))
        .await
        .map_err(|e| e.to_string())?;
    let tasks = Tasks::new(store, data.path());
    let plain = data.path().join("plain");
    let (mut ours, mut theirs) = (Vec::new(), Vec::new());
    for round in 0..ROUNDS {
        // Which goes first alternates, so neither always finds the files in a warm cache.
        for turn in [round % 2, 1 - round % 2] {
            let began = Instant::now();
            if turn == 0 {
                let path = plain.join(format!("w{round}"));
                let branch = format!("plain/w{round}");
                git(
                    repo.path(),
                    &[
                        "worktree",
                        "add",
                        "-q",
                        "-b",
                        &branch,
                        &path.display().to_string(),
                        "HEAD",
                    ],
                )?;
                theirs.push(began.elapsed());
            } else {
                let new = NewTask {
                    place: TaskPlace::Worktree,
                    name: Some(format!("bench-{round}")),
                    base: None,
                    prompt: String::new(),
                    agent: None,
                };
                tasks
                    .start(repo.path(), new)
                    .await
                    .map_err(|e| e.to_string())?;
                ours.push(began.elapsed());
            }
        }
    }
    Ok((median(ours), median(theirs)))
}

fn main() {
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            println!("| task start in a worktree, 20,000 files | SKIPPED: {e} | | | | |");
            return;
        }
    };
    match runtime.block_on(run()) {
        Ok((ours, theirs)) => {
            let ratio = ours.as_secs_f64() / theirs.as_secs_f64();
            println!(
                "| task start in a worktree, 20,000 files | {:.0} ms | `git worktree add` {:.0} ms | {ratio:.2}× | ≤ {TARGET}× | {} |",
                ms(ours),
                ms(theirs),
                if ratio <= TARGET { "met" } else { "MISSED" }
            );
        }
        Err(e) => println!("| task start in a worktree, 20,000 files | SKIPPED: {e} | | | | |"),
    }
}
