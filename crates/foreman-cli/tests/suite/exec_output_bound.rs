//! A loud command through `foreman-cli exec --json` (issue 49): its events carry the first
//! 30 KiB of its output, as the model's result carries a bounded start and end, and
//! `--full-output DIR` keeps the whole output in a file that the events name.

use std::path::Path;

use foreman_core::testing::scripts::{call, text};
use foreman_core::testing::sse_server::ScriptedServer;
use serde_json::{Value, json};

use super::common::{BIN, Run, body, exec_in, run};

/// 5,000,000 bytes: 50,000 numbered lines of 100 bytes.
const LOUD: &str = r#"awk 'BEGIN { for (i = 0; i < 50000; i++) printf "%099d\n", i }'"#;
const LOUD_BYTES: usize = 5_000_000;

async fn loud_run(dir: &Path, extra: &[&str]) -> Run {
    let server = ScriptedServer::start(vec![
        body("anthropic", &[call("c", "bash", json!({"command": LOUD}))]),
        body("anthropic", &[text("Printed.")]),
    ])
    .await
    .unwrap();
    // The data folder (with the bash tool's own log of the output) outside the workspace.
    let ws = dir.join("ws");
    std::fs::create_dir_all(&ws).unwrap();
    let mut cmd = exec_in(dir, &ws);
    cmd.args(["--base-url", &server.url(), "--model", "m", "--json"])
        .args(["--approval", "yolo"])
        .args(extra)
        .arg("print a lot")
        .env("ANTHROPIC_API_KEY", "test-key");
    run(cmd, |_| json!({})).await
}

/// The text of the call's live output events, joined.
fn live_output(events: &[Value]) -> String {
    events
        .iter()
        .filter(|e| e["type"] == "tool_call_output" && e["call_id"] == "c")
        .map(|e| e["text"].as_str().unwrap())
        .collect()
}

fn result(events: &[Value]) -> &str {
    events
        .iter()
        .find(|e| e["type"] == "tool_call_finished" && e["call_id"] == "c")
        .unwrap()["result"]
        .as_str()
        .unwrap()
}

#[tokio::test]
async fn a_loud_command_s_events_carry_its_first_30_kib() {
    let dir = tempfile::tempdir().unwrap();
    let out = loud_run(dir.path(), &[]).await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    let live = live_output(&out.events);
    let (shown, note) = live
        .split_once("[… foreman-cli:")
        .expect("a note where they stop");
    assert!(shown.len() <= 30 * 1024, "{} bytes", shown.len());
    assert!(shown.starts_with(&format!("{:099}\n{:099}\n", 0, 1)));
    assert!(
        note.contains("the result has its last lines, and --full-output DIR keeps the whole"),
        "{note}"
    );
    // The model's result: its start and end, bounded too.
    let result = result(&out.events);
    assert!(
        result.contains(&format!("{:099}\n", 49_999)),
        "the last line"
    );
    assert!(result.len() < 40 * 1024, "{} bytes", result.len());
    let mut by_type = std::collections::BTreeMap::<String, usize>::new();
    for e in &out.events {
        *by_type.entry(e["type"].to_string()).or_default() += e.to_string().len();
    }
    let all: usize = by_type.values().sum();
    assert!(
        all < 256 * 1024,
        "{all} bytes of events for {LOUD_BYTES} of output: {by_type:?}"
    );
}

#[tokio::test]
async fn full_output_keeps_the_whole_output_in_the_file_the_events_name() {
    let dir = tempfile::tempdir().unwrap();
    let kept = dir.path().join("outputs");
    let out = loud_run(dir.path(), &["--full-output", kept.to_str().unwrap()]).await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    let file = kept.join("1-c.log");
    let live = live_output(&out.events);
    assert!(
        live.contains(&format!("the whole output is in {}", file.display())),
        "{live}"
    );
    let whole = std::fs::read_to_string(&file).unwrap();
    assert_eq!(whole.len(), LOUD_BYTES);
    assert!(whole.starts_with(&format!("{:099}\n", 0)));
    assert!(whole.ends_with(&format!("{:099}\n", 49_999)));

    let help = std::process::Command::new(BIN)
        .args(["exec", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&help.stdout);
    assert!(help.contains("--full-output <DIR>"), "{help}");
}
