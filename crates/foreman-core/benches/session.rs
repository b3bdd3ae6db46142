//! Session benches (no HTTP: an in-process scripted provider).
//!
//! - `turn_overhead`: engine time per turn (request building, event fan-out, validation, policy,
//!   history), with a trivial `ls` call per turn. Target < 5 ms.
//! - `bytes_per_1mib_write`: bytes of all events of one call that streams a 1 MiB `write`, for
//!   several chunk sizes. Target ≤ 1.5 MiB.
//!
//! - `session_load_10k`: resuming a stored session of 10,000 messages (load, parse, repair check).
//!   Target < 200 ms.
//! - `rewrite_2mib`: a `write` that changes every line of a 2 MiB file, in `auto-edit` with the
//!   store and the checkpoints of a real session: from the call's start to the next request
//!   (which carries its result), against the same bytes written to a new file side by side.
//!   Target: < 1 s after the write.
//!
//! Prints markdown rows `| bench | measured | baseline | ratio | target | result |`.

use std::sync::Arc;
use std::time::Instant;

use foreman_core::agent::{Session, SessionConfig};
use foreman_core::protocol::{ApprovalMode, EventMsg, Op};
use foreman_core::providers::{ProviderEvent, StopReason, ToolArguments};
use foreman_core::testing::scripted_provider::ScriptedProvider;
use serde_json::json;

fn call_turn(id: &str, name: &str, args: &serde_json::Value, chunk: usize) -> Vec<ProviderEvent> {
    let text = args.to_string();
    let mut events = vec![ProviderEvent::ToolCallStart {
        id: id.into(),
        name: name.into(),
    }];
    let mut rest = text.as_str();
    while !rest.is_empty() {
        let mut end = chunk.min(rest.len());
        while !rest.is_char_boundary(end) {
            end += 1;
        }
        events.push(ProviderEvent::ToolCallArgsDelta {
            id: id.into(),
            fragment: rest[..end].to_owned(),
        });
        rest = &rest[end..];
    }
    events.push(ProviderEvent::ToolCallEnd {
        id: id.into(),
        arguments: ToolArguments::Parsed(args.clone()),
    });
    events.push(ProviderEvent::Stop {
        reason: StopReason::ToolUse,
    });
    events
}

fn done_turn() -> Vec<ProviderEvent> {
    call_turn("done", "attempt_completion", &json!({"result": "ok"}), 64)
}

/// Runs one task; returns (elapsed, events).
async fn run(
    turns: Vec<Vec<ProviderEvent>>,
    dir: &std::path::Path,
) -> (std::time::Duration, Vec<foreman_core::protocol::Event>) {
    let provider = Arc::new(ScriptedProvider::new(turns));
    let mut config = SessionConfig::new(provider, "bench", dir.to_path_buf());
    config.approval_mode = ApprovalMode::Yolo;
    config.max_iterations = 10_000;
    config.data_dir = dir.join(".data");
    let (ops, mut events) = Session::spawn(config).unwrap_or_else(|e| panic!("{e}"));
    let start = Instant::now();
    let _ = ops.send(Op::user_message("bench"));
    let mut seen = Vec::new();
    while let Some(e) = events.recv().await {
        let end = matches!(e.msg, EventMsg::TaskEnded { .. });
        seen.push(e);
        if end {
            break;
        }
    }
    (start.elapsed(), seen)
}

/// 2 MiB of numbered lines, each naming `word`.
fn two_mib(word: &str) -> String {
    let mut text = String::new();
    let mut i = 0;
    while text.len() < 2 << 20 {
        text.push_str(&format!(
            "{word} line {i:06}: the quick brown fox jumps over it\n"
        ));
        i += 1;
    }
    text
}

/// One session in `dir` with a store and checkpoints, `auto-edit`: reads `big.txt`, writes
/// `new` to `target`, completes. The time from the write's start to the next request.
async fn rewrite(dir: &std::path::Path, target: &str, new: &str) -> std::time::Duration {
    let ws = dir.join("ws");
    std::fs::create_dir_all(&ws).unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(ws.join("big.txt"), two_mib("old")).unwrap_or_else(|e| panic!("{e}"));
    let turns = vec![
        call_turn("r", "read", &json!({"path": "big.txt", "limit": 10}), 64),
        call_turn(
            "w",
            "write",
            &json!({"path": target, "content": new}),
            64 * 1024,
        ),
        done_turn(),
    ];
    let provider = Arc::new(ScriptedProvider::new(turns));
    let mut config = SessionConfig::new(provider, "bench", ws.clone());
    config.approval_mode = ApprovalMode::AutoEdit;
    config.context_window = Some(10_000_000);
    config.data_dir = dir.join("data");
    config.checkpoints_dir = Some(dir.join("checkpoints"));
    let store = foreman_core::store::Store::open(&dir.join("bench.db"))
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let session = store
        .create_session(&ws.display().to_string(), 1)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    config.session_id = Some(session.id);
    config.store = Some(store);
    let (ops, mut events) = Session::spawn(config).unwrap_or_else(|e| panic!("{e}"));
    let _ = ops.send(Op::user_message("rewrite"));
    let mut started = None;
    let mut elapsed = None;
    while let Some(e) = events.recv().await {
        match e.msg {
            EventMsg::ToolCallUpdated {
                call_id,
                state: Some(foreman_core::protocol::CallState::Executing),
                ..
            } if call_id == "w" => started = Some(Instant::now()),
            EventMsg::TurnStarted { iteration: 3 } => elapsed = started.map(|s| s.elapsed()),
            EventMsg::TaskEnded { .. } => break,
            _ => {}
        }
    }
    let _ = ops.send(Op::Shutdown);
    while events.recv().await.is_some() {}
    assert_eq!(
        std::fs::read_to_string(ws.join(target)).unwrap_or_default(),
        new
    );
    elapsed.unwrap_or_else(|| panic!("the write never ran"))
}

fn row(bench: &str, measured: String, baseline: &str, ratio: String, target: &str, ok: bool) {
    println!(
        "| {bench} | {measured} | {baseline} | {ratio} | {target} | {} |",
        if ok { "pass" } else { "FAIL" }
    );
}

fn main() {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap_or_else(|e| panic!("{e}"));
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    println!("| bench | measured | baseline | ratio | target | result |");
    println!("|---|---|---|---|---|---|");

    // Engine overhead per turn.
    let turns_n = 200;
    let mut turns: Vec<Vec<ProviderEvent>> = (0..turns_n)
        .map(|i| call_turn(&format!("c{i}"), "ls", &json!({}), 16))
        .collect();
    turns.push(done_turn());
    let (elapsed, _) = rt.block_on(run(turns, dir.path()));
    let per_turn = elapsed.as_secs_f64() * 1000.0 / f64::from(turns_n + 1);
    row(
        "turn_overhead (ls call per turn, 200 turns)",
        format!("{per_turn:.3} ms/turn"),
        "5 ms",
        format!("{:.2}", per_turn / 5.0),
        "< 5 ms",
        per_turn < 5.0,
    );

    // Loading a 10,000-message session.
    let db = dir.path().join("bench.db");
    let load_ms = rt.block_on(async {
        let store = foreman_core::store::Store::open(&db)
            .await
            .unwrap_or_else(|e| panic!("{e}"));
        let session = store
            .create_session("/bench", 1)
            .await
            .unwrap_or_else(|e| panic!("{e}"));
        for i in 0..10_000 {
            let m = if i % 2 == 0 {
                foreman_core::providers::Message::user(format!(
                    "message {i}: {}",
                    "text ".repeat(20)
                ))
            } else {
                foreman_core::providers::Message::assistant(format!(
                    "answer {i}: {}",
                    "words ".repeat(40)
                ))
            };
            let content = serde_json::to_value(&m).unwrap_or_default();
            let role = if i % 2 == 0 { "user" } else { "assistant" };
            store
                .append_message(&session.id, role, &content, None, i)
                .await
                .unwrap_or_else(|e| panic!("{e}"));
        }
        let mut best = f64::MAX;
        for _ in 0..5 {
            let start = Instant::now();
            let history = foreman_core::conversation::load_for_resume(&store, &session.id)
                .await
                .unwrap_or_else(|e| panic!("{e}"));
            best = best.min(start.elapsed().as_secs_f64() * 1000.0);
            assert_eq!(history.len(), 10_000);
        }
        store.close().await;
        best
    });
    row(
        "session_load_10k (best of 5)",
        format!("{load_ms:.1} ms"),
        "200 ms",
        format!("{:.2}", load_ms / 200.0),
        "< 200 ms",
        load_ms < 200.0,
    );

    // A rewrite of every line of a 2 MiB file against the same bytes to a new file.
    let new = two_mib("new");
    let (mut rewritten, mut created) = (f64::MAX, f64::MAX);
    for _ in 0..3 {
        let each = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let fresh = rt.block_on(rewrite(&each.path().join("a"), "fresh.txt", &new));
        let again = rt.block_on(rewrite(&each.path().join("b"), "big.txt", &new));
        created = created.min(fresh.as_secs_f64() * 1000.0);
        rewritten = rewritten.min(again.as_secs_f64() * 1000.0);
    }
    row(
        "rewrite_2mib: every line of a 2 MiB file, write's start → next request (best of 3)",
        format!("{rewritten:.0} ms"),
        &format!("the same bytes to a new file: {created:.0} ms"),
        format!("{:.2}", rewritten / created),
        "< 1 s",
        rewritten < 1000.0,
    );

    // Bytes per streamed 1 MiB write.
    let content: String = (0..)
        .map(|i| format!("line {i}: some \"quoted\" text\n"))
        .take_while({
            let mut total = 0usize;
            move |l: &String| {
                total += l.len();
                total <= 1 << 20
            }
        })
        .collect();
    let args = json!({"path": "big.txt", "content": content});
    for chunk in [1usize, 7, 100, 4096, 65536] {
        let turns = vec![call_turn("w", "write", &args, chunk), done_turn()];
        let (_, events) = rt.block_on(run(turns, dir.path()));
        let bytes: usize = events
            .iter()
            .filter(|e| match &e.msg {
                EventMsg::ToolCallCreated { call_id, .. }
                | EventMsg::ToolCallUpdated { call_id, .. }
                | EventMsg::ToolCallFinished { call_id, .. } => call_id == "w",
                _ => false,
            })
            .map(|e| serde_json::to_string(e).map(|s| s.len()).unwrap_or(0))
            .sum();
        let mib = bytes as f64 / f64::from(1u32 << 20);
        row(
            &format!("bytes_per_1mib_write (chunk {chunk} B)"),
            format!("{mib:.3} MiB"),
            "1 MiB content",
            format!("{:.2}", bytes as f64 / content.len() as f64),
            "≤ 1.5 MiB",
            mib <= 1.5,
        );
    }
}
