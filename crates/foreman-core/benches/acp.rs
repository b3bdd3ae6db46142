//! What supervising an external agent costs beside reading its stream directly. The same
//! scripted ACP agent (`tests/acp/scripted_agent.py`) is run through a Foreman session (its
//! sandbox, the checkpoints and the store of a real session) and by a direct reader that
//! speaks just enough ACP to start it and read its lines; median of 5 runs each, interleaved.
//!
//! - `acp_updates`: 20,000 message chunks, from the prompt to the turn's end. Target: Foreman
//!   within 3× of the direct reader.
//! - `acp_tool_call_to_card`: 100 reported calls 5 ms apart, each saying when the agent sent
//!   it: the median time from that to its card showing its arguments (`tool_call_updated`),
//!   against to the reader having its `tool_call` line. Target: within 3× (and under 5 ms).
//!
//! Run with `cargo bench -p foreman-core --bench acp`. Prints markdown rows
//! `| bench | measured | baseline | ratio | target | result |`.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use foreman_core::acp::AgentSpec;
use foreman_core::agent::{Session, SessionConfig};
use foreman_core::protocol::{ApprovalMode, EventMsg, Op};
use foreman_core::store::Store;
use foreman_core::testing::scripted_provider::ScriptedProvider;
use serde_json::{Value, json};

const AGENT: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../tests/acp/scripted_agent.py"
);
const ROUNDS: usize = 5;

/// What one run waits for.
#[derive(Clone, Copy)]
enum Until {
    /// The prompt's answer.
    TurnEnd,
    /// The `n`-th reported call; the run's time is then the median latency of the calls.
    Calls(usize),
}

/// How long ago the agent sent a call whose input says `sent_at` (Unix seconds).
fn since_sent(input: &Value) -> Option<Duration> {
    let sent = input.get("sent_at")?.as_f64()?;
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .ok()?
        .as_secs_f64();
    Some(Duration::from_secs_f64((now - sent).max(0.0)))
}

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// Starts the agent and reads its stream with nothing in between.
fn direct(ws: &Path, prompt: &str, until: Until) -> Result<Duration, String> {
    let mut child = Command::new("python3")
        .arg(AGENT)
        .current_dir(ws)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| e.to_string())?;
    let mut stdin = child.stdin.take().ok_or("no stdin")?;
    let mut lines = BufReader::new(child.stdout.take().ok_or("no stdout")?).lines();
    let mut send = |v: Value| writeln!(stdin, "{v}").map_err(|e| e.to_string());
    send(
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": 1}}),
    )?;
    send(
        json!({"jsonrpc": "2.0", "id": 1, "method": "session/new", "params": {"cwd": ws, "mcpServers": []}}),
    )?;
    let mut started = None;
    let mut calls = 0;
    let mut latencies = Vec::new();
    while let Some(Ok(line)) = lines.next() {
        let message: Value = serde_json::from_str(&line).map_err(|e| e.to_string())?;
        if message["id"] == 1 && started.is_none() {
            started = Some(Instant::now());
            send(
                json!({"jsonrpc": "2.0", "id": 2, "method": "session/prompt",
                "params": {"sessionId": "scripted-session-1", "prompt": [{"type": "text", "text": prompt}]}}),
            )?;
        }
        if message["params"]["update"]["sessionUpdate"] == "tool_call" {
            calls += 1;
            latencies.extend(since_sent(&message["params"]["update"]["rawInput"]));
        }
        let done = match until {
            Until::TurnEnd => message["id"] == 2,
            Until::Calls(n) => calls == n,
        };
        if done {
            let took = started.map(|s| s.elapsed()).ok_or("no session")?;
            let _ = child.kill();
            let _ = child.wait();
            return Ok(match until {
                Until::TurnEnd => took,
                Until::Calls(_) => median(latencies),
            });
        }
    }
    Err("the agent ended early".into())
}

/// Runs the agent through a Foreman session.
async fn through_foreman(
    ws: &Path,
    data: &Path,
    prompt: &str,
    until: Until,
) -> Result<Duration, String> {
    let store = Store::open(&data.join("foreman.db"))
        .await
        .map_err(|e| e.to_string())?;
    let spec = AgentSpec::command("scripted", "python3".into(), vec![AGENT.into()]);
    let mut config = SessionConfig::builder(
        Arc::new(ScriptedProvider::new(Vec::new())),
        "scripted",
        ws.to_path_buf(),
    )
    .data_in(data)
    .approval(ApprovalMode::AutoEdit)
    .agent(Some(spec))
    .build()
    .await
    .map_err(|e| e.to_string())?;
    config.store = Some(store);
    let (ops, mut events) = Session::spawn(config).map_err(|e| e.to_string())?;
    // Started once the agent is (the first prompt starts it): timed from a second prompt.
    ops.send(Op::UserMessage {
        text: "plan".into(),
        attach: Vec::new(),
    })
    .map_err(|e| e.to_string())?;
    let mut began: Option<Instant> = None;
    let mut calls = 0;
    let mut latencies = Vec::new();
    while let Some(event) = events.recv().await {
        let Some(start) = began else {
            if matches!(event.msg, EventMsg::TaskEnded { .. }) {
                began = Some(Instant::now());
                ops.send(Op::UserMessage {
                    text: prompt.into(),
                    attach: Vec::new(),
                })
                .map_err(|e| e.to_string())?;
            }
            continue;
        };
        let done = match (until, &event.msg) {
            (Until::TurnEnd, EventMsg::TaskEnded { .. }) => true,
            (Until::Calls(n), EventMsg::ToolCallUpdated { args, .. }) if !args.is_empty() => {
                let shown = args.iter().find_map(|patch| match patch {
                    foreman_core::partial_json::Patch::Set { value, .. } => since_sent(value),
                    _ => None,
                });
                latencies.extend(shown);
                calls += usize::from(shown.is_some());
                calls == n
            }
            _ => false,
        };
        if done {
            let took = match until {
                Until::TurnEnd => start.elapsed(),
                Until::Calls(_) => median(std::mem::take(&mut latencies)),
            };
            let _ = ops.send(Op::Shutdown);
            while let Some(event) = events.recv().await {
                if matches!(event.msg, EventMsg::ShutdownComplete) {
                    break;
                }
            }
            return Ok(took);
        }
    }
    Err("the session ended early".into())
}

async fn compare(prompt: &str, until: Until) -> Result<(Duration, Duration), String> {
    let (mut ours, mut theirs) = (Vec::new(), Vec::new());
    for round in 0..ROUNDS {
        for turn in [round % 2, 1 - round % 2] {
            let ws = tempfile::tempdir().map_err(|e| e.to_string())?;
            let data = tempfile::tempdir().map_err(|e| e.to_string())?;
            if turn == 0 {
                theirs.push(direct(ws.path(), prompt, until)?);
            } else {
                ours.push(through_foreman(ws.path(), data.path(), prompt, until).await?);
            }
        }
    }
    Ok((median(ours), median(theirs)))
}

fn row(name: &str, ours: Duration, theirs: Duration, target: f64) {
    let ratio = ours.as_secs_f64() / theirs.as_secs_f64().max(1e-9);
    let result = if ratio <= target { "pass" } else { "FAIL" };
    println!(
        "| {name} | {:.2} ms | {:.2} ms | {ratio:.2}× | ≤ {target}× | {result} |",
        ms(ours),
        ms(theirs)
    );
}

#[tokio::main]
async fn main() {
    println!("| bench | measured | baseline | ratio | target | result |");
    println!("|---|---|---|---|---|---|");
    match compare("flood 20000", Until::TurnEnd).await {
        Ok((ours, theirs)) => row("acp_updates (20,000 chunks)", ours, theirs, 3.0),
        Err(e) => println!("| acp_updates | failed: {e} | | | | FAIL |"),
    }
    match compare("calls 100 5", Until::Calls(100)).await {
        Ok((ours, theirs)) => row(
            "acp_tool_call_to_card (median of 100 calls)",
            ours,
            theirs,
            3.0,
        ),
        Err(e) => println!("| acp_tool_call_to_card | failed: {e} | | | | FAIL |"),
    }
}
