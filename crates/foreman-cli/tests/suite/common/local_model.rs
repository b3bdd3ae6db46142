//! A real small model behind a real OpenAI-compatible server, for the tests that judge how
//! Foreman behaves with what local models really do.
//!
//! `make local-model` (a prerequisite of `make test`) fetches Gemma 3 270M and node-llama-cpp's
//! prebuilt llama.cpp into a cache and `make` passes its folder as `FOREMAN_LOCAL_MODEL`; each
//! test starts `tests/local-model/server.mjs` on a free port of 127.0.0.1. Without the variable
//! a test fails and says what to run, unless a developer opts out with
//! `FOREMAN_SKIP_LOCAL_MODEL=1` (ignored when `CI` is set: CI always runs them).

use std::path::PathBuf;
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

/// The variable naming the cache folder `make local-model` fills.
pub const MODEL_DIR_VAR: &str = "FOREMAN_LOCAL_MODEL";
/// The variable a developer sets to skip these tests (not in CI).
pub const SKIP_VAR: &str = "FOREMAN_SKIP_LOCAL_MODEL";
/// The model file inside the cache folder.
pub const MODEL_FILE: &str = "gemma-3-270m-q4_k_m.gguf";

/// A running server; killed when dropped.
pub struct LocalModel {
    /// The base URL to give `--base-url` (ends in `/v1`).
    pub url: String,
    log: Arc<Mutex<Vec<String>>>,
    _child: Child,
}

/// The cache folder, `None` when the developer opted out; panics with what to do otherwise.
fn model_dir() -> Option<PathBuf> {
    let skip = std::env::var(SKIP_VAR).is_ok_and(|v| !v.is_empty() && v != "0");
    let ci = std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false");
    match std::env::var_os(MODEL_DIR_VAR) {
        Some(dir) if !dir.is_empty() => Some(PathBuf::from(dir)),
        _ if skip && !ci => {
            eprintln!("skipped: {SKIP_VAR} is set, so the real-model tests do not run");
            None
        }
        _ => panic!(
            "{MODEL_DIR_VAR} is not set: run `make local-model` (it prints the folder), then \
             `{MODEL_DIR_VAR}=<folder> cargo test ...`, or run the tests through `make test`; \
             set {SKIP_VAR}=1 to skip them on your machine"
        ),
    }
}

impl LocalModel {
    /// Starts the server with its own cap of `max_tokens` per answer and waits until the model
    /// is loaded. `None` when the developer opted out of these tests.
    pub async fn start(max_tokens: u32) -> Option<Self> {
        let dir = model_dir()?;
        let model = dir.join(MODEL_FILE);
        assert!(
            model.is_file() && dir.join("node_modules").join("node-llama-cpp").is_dir(),
            "{} lacks the model or node-llama-cpp: run `make local-model`",
            dir.display()
        );
        let script = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/local-model/server.mjs")
            .canonicalize()
            .expect("tests/local-model/server.mjs");
        let mut child = Command::new("node")
            .arg(script)
            .arg("--modules")
            .arg(&dir)
            .arg("--model")
            .arg(&model)
            .args(["--port", "0", "--max-tokens", &max_tokens.to_string()])
            // The base model only echoes its prompt; with Foreman's 3,000-token system prompt in
            // front of the user's message every request would first spend ~20 s evaluating it
            // on a busy 2-core machine, and the model would echo that instead of the message.
            .args(["--system", "drop"])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .expect("node runs");
        let log = Arc::new(Mutex::new(Vec::new()));
        let stderr = child.stderr.take().expect("piped");
        let sink = Arc::clone(&log);
        tokio::spawn(async move {
            let mut lines = BufReader::new(stderr).lines();
            while let Ok(Some(line)) = lines.next_line().await {
                eprintln!("local model: {line}");
                sink.lock().expect("log").push(line);
            }
        });
        let mut stdout = BufReader::new(child.stdout.take().expect("piped")).lines();
        let first = tokio::time::timeout(Duration::from_secs(120), stdout.next_line())
            .await
            .expect("the model server did not start within 120 s")
            .expect("its stdout")
            .unwrap_or_else(|| panic!("the model server ended: {:?}", log.lock().expect("log")));
        let url = first
            .strip_prefix("listening ")
            .unwrap_or_else(|| panic!("unexpected first line: {first}"))
            .to_owned();
        Some(Self {
            url,
            log,
            _child: child,
        })
    }

    /// The server's lines so far: one per request, with what the model wrote and why it stopped.
    pub fn log(&self) -> Vec<String> {
        self.log.lock().expect("log").clone()
    }

    /// Waits up to `within` for `n` requests to be logged (a request is logged once its
    /// generation has ended, after the client left when it was cancelled).
    pub async fn requests(&self, n: usize, within: Duration) -> Vec<String> {
        let deadline = tokio::time::Instant::now() + within;
        loop {
            let done: Vec<String> = self
                .log()
                .into_iter()
                .filter(|l| l.starts_with("request "))
                .collect();
            if done.len() >= n || tokio::time::Instant::now() >= deadline {
                return done;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}
