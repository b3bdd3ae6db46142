//! What confining costs a command: starting `sh -c true` confined at `workspace-write` (the
//! default hidden paths and this machine's unix sockets covered, no network) beside the same
//! command unconfined, median of 31 runs each, interleaved.
//!
//! Run with `cargo bench -p foreman-core --bench sandbox`. Prints markdown rows
//! `| bench | measured | baseline | ratio | target | result |`.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use foreman_core::sandbox::{SandboxLevel, SandboxPolicy, availability, confine, hidden};

const ROUNDS: usize = 31;
/// The most a confined start may add to a command, in milliseconds.
const TARGET_MS: f64 = 20.0;

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn start(policy: Option<&SandboxPolicy>) -> Result<Duration, String> {
    let began = Instant::now();
    let mut command = Command::new("/bin/sh");
    command
        .args(["-c", "true"])
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    if let Some(policy) = policy {
        confine(&mut command, policy).map_err(|e| e.to_string())?;
    }
    let status = command.status().map_err(|e| e.to_string())?;
    match status.success() {
        true => Ok(began.elapsed()),
        false => Err(format!("the command failed: {status}")),
    }
}

fn main() {
    let level = SandboxLevel::WorkspaceWrite;
    if !availability(level).is_available() {
        println!(
            "| confined command start | SKIPPED: {} | | | | |",
            availability(level).describe()
        );
        return;
    }
    let Ok(ws) = tempfile::tempdir() else {
        println!("| confined command start | SKIPPED: no temporary directory | | | | |");
        return;
    };
    let mut policy = SandboxPolicy::new(
        level,
        false,
        ws.path().to_path_buf(),
        ws.path().join(".tmp"),
    );
    policy.hidden = hidden::resolve(&hidden::defaults(), &[]);
    let (mut confined, mut plain) = (Vec::new(), Vec::new());
    for _ in 0..ROUNDS {
        match (start(Some(&policy)), start(None)) {
            (Ok(c), Ok(p)) => {
                confined.push(c);
                plain.push(p);
            }
            (Err(e), _) | (_, Err(e)) => {
                println!("| confined command start | FAILED: {e} | | | | |");
                return;
            }
        }
    }
    let (c, p) = (median(confined), median(plain));
    let added = ms(c) - ms(p);
    println!(
        "| `sh -c true` started confined at workspace-write (median of {ROUNDS}) | {:.2} ms | unconfined: {:.2} ms | {:.2}× (+{added:.2} ms) | adds < {TARGET_MS} ms | {} |",
        ms(c),
        ms(p),
        ms(c) / ms(p),
        if added < TARGET_MS { "PASS" } else { "FAIL" }
    );
}
