//! Whole-workspace checkpoints against git: a checkpoint of a workspace with 10 changed files,
//! the watcher's journal attached as in a session, beside `git add -A && git write-tree` on a
//! copy of the same tree (with its index warm, as ours is), at 100,000 and at 2,000 files; and
//! the full scan (no watcher) at both sizes, for what the journal saves.
//!
//! Run with `cargo bench -p foreman-core --bench checkpoints`. Prints markdown rows
//! `| bench | measured | baseline | ratio | target | result |`. Needs `git` on the PATH for the
//! baseline; without it a row says so.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use foreman_core::checkpoints::Checkpoints;
use foreman_core::watcher::WorkspaceWatcher;

const ROUNDS: usize = 7;
const CHANGED: usize = 10;

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1000.0)
}

/// A tree of `files` small source files in folders of 100.
fn tree(root: &Path, files: usize) -> std::io::Result<()> {
    for i in 0..files {
        let dir = root.join(format!("src/m{:03}/d{:02}", i / 1000, (i / 100) % 10));
        std::fs::create_dir_all(&dir)?;
        let text = format!("// file {i}\npub fn f{i}() -> usize {{\n    {i} * 2\n}}\n");
        std::fs::write(dir.join(format!("f{i}.rs")), text.repeat(4))?;
    }
    std::fs::write(root.join(".gitignore"), "target/\n")
}

/// Changes `CHANGED` files spread over the tree (round `round` writes new content).
fn change(root: &Path, files: usize, round: usize) -> std::io::Result<()> {
    for k in 0..CHANGED {
        let i = (k * files / CHANGED + round) % files;
        let path = root.join(format!(
            "src/m{:03}/d{:02}/f{i}.rs",
            i / 1000,
            (i / 100) % 10
        ));
        std::fs::write(path, format!("// round {round}\npub fn f{i}() {{}}\n"))?;
    }
    Ok(())
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

/// Medians for a tree of `files`: ours with the watcher, ours scanning everything, and git.
fn measure(files: usize) -> std::io::Result<(Duration, Duration, Option<Duration>)> {
    let runtime = tokio::runtime::Runtime::new()?;
    let _entered = runtime.enter();
    let ours_dir = tempfile::tempdir()?;
    let repos = tempfile::tempdir()?;
    tree(ours_dir.path(), files)?;
    let failed =
        |e: foreman_core::checkpoints::CheckpointError| std::io::Error::other(e.to_string());
    let checkpoints = Checkpoints::open(repos.path(), ours_dir.path()).map_err(failed)?;
    let (watcher, _reports) = WorkspaceWatcher::start(ours_dir.path(), Duration::from_millis(50))
        .map_err(|e| std::io::Error::other(e.to_string()))?;
    checkpoints.attach(watcher.journal());
    checkpoints.take("first").map_err(failed)?;
    // Past the racy window of the files just written.
    std::thread::sleep(Duration::from_millis(50));
    let mut ours = Vec::new();
    for round in 0..ROUNDS {
        change(ours_dir.path(), files, round)?;
        let started = Instant::now();
        let taken = checkpoints.take("round").map_err(failed)?;
        ours.push(started.elapsed());
        assert_eq!(taken.read, CHANGED, "only the changed files are read");
        assert_eq!(taken.full_scan, None, "the journal was used");
    }
    // The same workspace without the watcher: every file listed and stat-ed.
    let scanning = Checkpoints::open(repos.path(), ours_dir.path()).map_err(failed)?;
    scanning.take("first").map_err(failed)?;
    let mut full = Vec::new();
    for round in ROUNDS..2 * ROUNDS {
        change(ours_dir.path(), files, round)?;
        let started = Instant::now();
        scanning.take("round").map_err(failed)?;
        full.push(started.elapsed());
    }
    drop(watcher);

    let git_dir = tempfile::tempdir()?;
    tree(git_dir.path(), files)?;
    let ready = git(git_dir.path(), &["init", "-q"])
        && git(git_dir.path(), &["add", "-A"])
        && git(git_dir.path(), &["write-tree"]);
    if !ready {
        return Ok((median(ours), median(full), None));
    }
    let mut theirs = Vec::new();
    for round in 0..ROUNDS {
        change(git_dir.path(), files, round)?;
        let started = Instant::now();
        let done = git(git_dir.path(), &["add", "-A"]) && git(git_dir.path(), &["write-tree"]);
        theirs.push(started.elapsed());
        assert!(done, "git add -A && git write-tree failed");
    }
    Ok((median(ours), median(full), Some(median(theirs))))
}

fn main() -> std::io::Result<()> {
    println!("| bench | measured | baseline | ratio | target | result |");
    println!("|---|---|---|---|---|---|");
    let (big, big_full, big_git) = measure(100_000)?;
    let (small, small_full, small_git) = measure(2_000)?;
    for (files, ours, theirs) in [(100_000, big, big_git), (2_000, small, small_git)] {
        match theirs {
            Some(git) => {
                let ratio = ours.as_secs_f64() / git.as_secs_f64();
                let pass = if ratio <= 1.0 { "PASS" } else { "FAIL" };
                println!(
                    "| checkpoint, {files} files, {CHANGED} changed, watcher's journal | {} | `git add -A && git write-tree`: {} | {ratio:.2}× | ≤ 1× | {pass} |",
                    ms(ours),
                    ms(git)
                );
            }
            None => println!(
                "| checkpoint, {files} files, {CHANGED} changed, watcher's journal | {} | git not available | - | ≤ 1× | SKIPPED |",
                ms(ours)
            ),
        }
    }
    let absolute = if big <= Duration::from_millis(50) {
        "PASS"
    } else {
        "FAIL"
    };
    println!(
        "| checkpoint, 100000 files, {CHANGED} changed | {} | - | - | ≤ 50 ms | {absolute} |",
        ms(big)
    );
    let growth = big.as_secs_f64() / small.as_secs_f64();
    let pass = if growth <= 1.5 { "PASS" } else { "FAIL" };
    println!(
        "| growth with the tree: 100,000 vs 2,000 files, {CHANGED} changed | {} | {} | {growth:.2}× | ≤ 1.5× | {pass} |",
        ms(big),
        ms(small)
    );
    println!(
        "| the same without the watcher (full scan): 100,000 vs 2,000 files | {} | {} | {:.1}× | reported | - |",
        ms(big_full),
        ms(small_full),
        big_full.as_secs_f64() / small_full.as_secs_f64()
    );
    Ok(())
}
