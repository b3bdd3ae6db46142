//! Benchmarks of the workspace tools against ripgrep, and of `read` paging.
//!
//! Run with `cargo bench -p foreman-core --bench workspace_tools`. Prints markdown rows
//! `| bench | measured | baseline | ratio | target | result |`. The search corpora are the crate
//! sources cargo downloaded (`~/.cargo/registry/src`) and a generated workspace of 100,000 small
//! files; `rg` runs as a subprocess with the same pattern and filters. If `rg` or a corpus is
//! missing, a row says so (`make bench` installs `rg` first).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use foreman_core::boundary::WorkspaceBoundary;
use foreman_core::builtin_tools::BuiltinSession;
use foreman_core::builtin_tools::glob::{GlobParams, run_glob};
use foreman_core::builtin_tools::grep::{GrepOutputMode, GrepParams, run_grep};
use foreman_core::builtin_tools::read::{ReadParams, run_read};

const RUNS: usize = 5;
const GREP_PATTERN: &str = r"fn\s+new\s*\(";
/// The filters our walk applies, expressed as rg flags.
const RG_FILTERS: [&str; 10] = [
    "--hidden",
    "--no-require-git",
    "-g",
    "!.git",
    "-g",
    "!node_modules",
    "-g",
    "!target",
    "-g",
    "!dist",
];

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1000.0)
}

fn row(bench: &str, measured: &str, baseline: &str, ratio: &str, target: &str, result: &str) {
    println!("| {bench} | {measured} | {baseline} | {ratio} | {target} | {result} |");
}

fn rg_available() -> bool {
    Command::new("rg")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

fn time_rg(args: &[&str], dir: &Path) -> Duration {
    // rg's output is captured through a pipe (as our tool collects its results); writing to
    // /dev/null would let rg stop early.
    let started = Instant::now();
    let output = Command::new("rg")
        .args(RG_FILTERS)
        .args(args)
        .current_dir(dir)
        .stderr(Stdio::null())
        .output();
    let elapsed = started.elapsed();
    if !output.is_ok_and(|o| o.status.code().is_some_and(|c| c <= 1)) {
        eprintln!("rg {args:?} failed");
    }
    elapsed
}

fn compare(bench: &str, ours: Duration, rg: Duration, detail: &str) {
    let ratio = ours.as_secs_f64() / rg.as_secs_f64();
    let result = if ratio <= 1.3 { "PASS" } else { "FAIL" };
    row(
        &format!("{bench} ({detail})"),
        &ms(ours),
        &format!("rg {}", ms(rg)),
        &format!("{ratio:.2}×"),
        "≤ 1.30×",
        result,
    );
}

fn main() {
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(err) => {
            eprintln!("cannot start tokio: {err}");
            return;
        }
    };
    println!("| bench | measured | baseline | ratio | target | result |");
    println!("| --- | --- | --- | --- | --- | --- |");
    runtime.block_on(search_benches());
    runtime.block_on(read_bench());
}

/// A workspace of `files` small source files in folders of 100.
fn generated(root: &Path, files: usize) -> std::io::Result<()> {
    for i in 0..files {
        let dir = root.join(format!("src/m{:03}/d{:02}", i / 1000, (i / 100) % 10));
        std::fs::create_dir_all(&dir)?;
        let text = format!(
            "// file {i}\npub struct S{i};\nimpl S{i} {{\n    pub fn new() -> Self {{ S{i} }}\n}}\n"
        );
        std::fs::write(dir.join(format!("f{i}.rs")), text)?;
    }
    Ok(())
}

async fn search_benches() {
    if !rg_available() {
        row(
            "grep / glob vs rg",
            "-",
            "-",
            "-",
            "≤ 1.30×",
            "SKIPPED: rg is not installed (`make bench` installs it)",
        );
        return;
    }
    let registry = std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo/registry/src"));
    match registry.filter(|p| p.is_dir()) {
        Some(corpus) => search_bench(&corpus, "crate sources").await,
        None => row(
            "grep / glob vs rg, crate sources",
            "-",
            "-",
            "-",
            "≤ 1.30×",
            "SKIPPED: ~/.cargo/registry/src not found",
        ),
    }
    let workspace = tempfile::tempdir();
    match workspace {
        Ok(dir) if generated(dir.path(), 100_000).is_ok() => {
            search_bench(dir.path(), "a 100,000-file workspace").await;
        }
        _ => row(
            "grep / glob vs rg, a 100,000-file workspace",
            "-",
            "-",
            "-",
            "≤ 1.30×",
            "SKIPPED: the workspace could not be written",
        ),
    }
}

async fn search_bench(corpus: &Path, label: &str) {
    let Ok(boundary) = WorkspaceBoundary::new(corpus) else {
        row(
            "grep / glob vs rg",
            "-",
            "-",
            "-",
            "≤ 1.30×",
            "SKIPPED: corpus not usable",
        );
        return;
    };
    let session = BuiltinSession::new(boundary, std::env::temp_dir().join("foreman-bench"));
    let grep_params = GrepParams {
        pattern: GREP_PATTERN.into(),
        path: None,
        glob: Some("*.rs".into()),
        case_insensitive: false,
        context: None,
        output: GrepOutputMode::Content,
    };
    // Warm the page cache for both.
    let warm = run_grep(&session, grep_params.clone()).await;
    let (files, matches) = warm
        .as_ref()
        .map_or((0, 0), |o| (o.files_searched, o.total_matches));
    time_rg(&["-n", GREP_PATTERN], corpus);
    let (mut ours, mut theirs) = (Vec::new(), Vec::new());
    for _ in 0..RUNS {
        let started = Instant::now();
        let _ = run_grep(&session, grep_params.clone()).await;
        ours.push(started.elapsed());
        theirs.push(time_rg(&["-n", "-g", "*.rs", GREP_PATTERN], corpus));
    }
    compare(
        &format!("grep, {label}"),
        median(ours),
        median(theirs),
        &format!("`{GREP_PATTERN}` in *.rs, {files} files, {matches} matches, median of {RUNS}"),
    );

    let glob_params = GlobParams {
        pattern: "**/*.rs".into(),
        path: None,
    };
    let found = run_glob(&session, glob_params.clone())
        .await
        .map_or(0, |o| o.total);
    let (mut ours, mut theirs, mut sorted) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..RUNS {
        let started = Instant::now();
        let _ = run_glob(&session, glob_params.clone()).await;
        ours.push(started.elapsed());
        theirs.push(time_rg(&["--files", "-g", "*.rs"], corpus));
        sorted.push(time_rg(
            &["--files", "-g", "*.rs", "--sortr", "modified"],
            corpus,
        ));
    }
    let ours = median(ours);
    compare(
        &format!("glob, {label}"),
        ours,
        median(theirs),
        &format!("`**/*.rs`, {found} files, newest-first sort included, median of {RUNS}"),
    );
    // The same order as ours: rg then reads every file's time too.
    compare(
        &format!("glob, {label}, against `rg --files --sortr modified`"),
        ours,
        median(sorted),
        &format!("`**/*.rs`, {found} files, both newest first, median of {RUNS}"),
    );
}

async fn read_bench() {
    let Ok(dir) = tempfile_dir() else {
        row(
            "read paging",
            "-",
            "-",
            "-",
            "linear",
            "SKIPPED: no temp dir",
        );
        return;
    };
    let line = format!("{}\n", "x".repeat(79));
    let lines = (10 * 1024 * 1024) / line.len();
    let content = line.repeat(lines);
    if std::fs::write(dir.join("big.txt"), &content).is_err() {
        row(
            "read paging",
            "-",
            "-",
            "-",
            "linear",
            "SKIPPED: cannot write file",
        );
        return;
    }
    let Ok(boundary) = WorkspaceBoundary::new(&dir) else {
        return;
    };
    let session = BuiltinSession::new(boundary, dir.join("data"));
    let time_at = |offset: usize| {
        let session = session.clone();
        async move {
            let mut samples = Vec::new();
            for _ in 0..RUNS {
                let started = Instant::now();
                let _ = run_read(
                    &session,
                    ReadParams {
                        path: "big.txt".into(),
                        offset: Some(offset),
                        limit: Some(100),
                    },
                )
                .await;
                samples.push(started.elapsed());
            }
            median(samples)
        }
    };
    let near_start = 1usize;
    let middle = lines / 2;
    let near_end = lines - 100;
    let t_start = time_at(near_start).await;
    let t_mid = time_at(middle).await;
    let t_end = time_at(near_end).await;
    let per_line_ns =
        (t_end.as_secs_f64() - t_start.as_secs_f64()) * 1e9 / (near_end - near_start) as f64;
    let predicted_mid = (t_start.as_secs_f64() + t_end.as_secs_f64()) / 2.0;
    let deviation = (t_mid.as_secs_f64() - predicted_mid).abs() / t_end.as_secs_f64();
    let result = if deviation <= 0.15 {
        "PASS (linear)"
    } else {
        "CHECK (not linear)"
    };
    row(
        &format!(
            "read 10 MiB ({lines} lines), limit 100: offset {near_end} vs 1 (mid {middle}: {})",
            ms(t_mid)
        ),
        &ms(t_end),
        &ms(t_start),
        &format!(
            "{:.2}×; {per_line_ns:.1} ns per skipped line",
            t_end.as_secs_f64() / t_start.as_secs_f64()
        ),
        "mid within 15% of linear fit",
        &format!("{result}, deviation {:.1}%", deviation * 100.0),
    );
    let _ = std::fs::remove_dir_all(&dir);
}

fn tempfile_dir() -> std::io::Result<PathBuf> {
    let dir = std::env::temp_dir().join(format!("foreman-read-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}
