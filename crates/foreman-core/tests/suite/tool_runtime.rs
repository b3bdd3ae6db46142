//! The one tool runtime through the real session loop: arguments a model got wrong are repaired
//! and the model is told; bad ones get every problem with its path, as structured errors; a call
//! that overruns its timeout ends with `TIMEOUT`; stats events count the calls; an unknown tool
//! gets every tool's name; and a discovered tool configured to replace `bash` runs instead of it,
//! under `bash`'s approval rules.

use std::time::Duration;

use foreman_core::mcp::{HubOptions, McpConfig, McpHub, ServerSource};
use foreman_core::protocol::{ApprovalMode, CallState, EventMsg, Op};
use foreman_core::store::RuleAction;
use foreman_core::testing::scripts::{Step, call};
use serde_json::{Value, json};

use super::common::*;

/// What call `id` finished with: its state, the model's result, and the user's error.
fn finished_with(h: &Harness, id: &str) -> (CallState, String, Option<(String, String)>) {
    h.seen
        .iter()
        .find_map(|e| match &e.msg {
            EventMsg::ToolCallFinished {
                call_id,
                state,
                result,
                error,
                ..
            } if call_id == id => Some((
                *state,
                result.clone(),
                error.as_ref().map(|e| (e.code.clone(), e.message.clone())),
            )),
            _ => None,
        })
        .unwrap_or_else(|| panic!("{id} did not finish"))
}

/// The tool results the model was sent in request `n`, whatever the wire format.
fn results_sent(h: &Harness, n: usize) -> Vec<String> {
    let body = h.server.requests()[n].json();
    let mut out = Vec::new();
    for m in body["messages"].as_array().unwrap() {
        if m["role"] == "tool" {
            out.push(m["content"].as_str().unwrap_or_default().to_owned());
        }
        for block in m["content"].as_array().into_iter().flatten() {
            if block["type"] == "tool_result" {
                let text = match &block["content"] {
                    Value::String(s) => s.clone(),
                    Value::Array(parts) => parts
                        .iter()
                        .filter_map(|p| p["text"].as_str())
                        .collect::<Vec<_>>()
                        .join(""),
                    _ => String::new(),
                };
                out.push(text);
            }
        }
    }
    out
}

async fn run(turns: Vec<Vec<Step>>, mode: ApprovalMode) -> Harness {
    let wire = Wire::Anthropic;
    let mut h = start(wire, &turns, mode).await;
    h.say("go");
    h.end().await;
    h
}

#[tokio::test]
async fn strings_for_numbers_and_booleans_are_coerced_and_the_model_is_told() {
    for wire in BOTH {
        let turns = vec![
            vec![call(
                "r",
                "read",
                json!({"path": "notes.txt", "limit": "1"}),
            )],
            vec![call(
                "e",
                "edit",
                json!({"path": "notes.txt", "old_string": "a", "new_string": "A", "replace_all": "true"}),
            )],
            done("d"),
        ];
        let mut h = start(wire, &turns, ApprovalMode::AutoEdit).await;
        h.say("go");
        h.end().await;
        let (state, read, _) = finished_with(&h, "r");
        assert_eq!(state, CallState::Succeeded, "{wire:?}: {read}");
        assert!(read.contains("alpha") && !read.contains("beta"), "{read}");
        assert!(
            read.contains("/limit (a number sent as a string)"),
            "{read}"
        );
        assert_eq!(h.file("notes.txt"), "AlphA\nbetA\n", "{wire:?}");
        let sent = results_sent(&h, 2).join("\n");
        assert!(
            sent.contains("/replace_all (a boolean sent as a string)"),
            "{wire:?}: {sent}"
        );
    }
}

#[tokio::test]
async fn a_bad_call_gets_every_problem_with_its_path_as_a_structured_error() {
    let h = run(
        vec![
            vec![call("r", "read", json!({"path": 7, "limit": "many"}))],
            done("d"),
        ],
        ApprovalMode::Ask,
    )
    .await;
    let (state, result, error) = finished_with(&h, "r");
    assert_eq!(state, CallState::Failed);
    let model: Value = serde_json::from_str(&result).unwrap();
    assert_eq!(model["ok"], false);
    assert_eq!(model["code"], "INVALID_PARAMS");
    let paths: Vec<&str> = model["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["path"].as_str().unwrap())
        .collect();
    assert_eq!(paths, ["/limit", "/path"], "{result}");
    let (code, message) = error.unwrap();
    assert_eq!(code, "INVALID_PARAMS");
    assert!(
        message.contains("/path: ") && message.contains("/limit: "),
        "{message}"
    );
    assert_eq!(results_sent(&h, 1), [result]);
}

#[tokio::test]
async fn a_call_past_its_timeout_ends_with_timeout_and_counts_as_one() {
    let turns = [
        vec![call("b", "bash", json!({"command": "sleep 30"}))],
        done("d"),
    ];
    let mut h = start_turns(Wire::Anthropic, &turns, |c| {
        c.approval_mode = ApprovalMode::Yolo;
        c.tool_timeouts
            .insert("bash".into(), Duration::from_secs(1));
    })
    .await;
    let started = std::time::Instant::now();
    h.say("go");
    h.end().await;
    assert!(started.elapsed() < Duration::from_secs(10));
    let (state, result, error) = finished_with(&h, "b");
    assert_eq!(state, CallState::Failed);
    let (code, message) = error.unwrap();
    assert_eq!(code, "TIMEOUT");
    assert!(
        message.contains("`bash` did not finish within 1 s and was stopped"),
        "{message}"
    );
    assert!(result.contains("\"code\":\"TIMEOUT\""), "{result}");
    let stats = h
        .seen
        .iter()
        .find_map(|e| match &e.msg {
            EventMsg::ToolStats { stats } if stats.tool == "bash" => Some(stats.clone()),
            _ => None,
        })
        .unwrap();
    assert_eq!((stats.calls, stats.failed, stats.timed_out), (1, 1, 1));
}

#[tokio::test]
async fn stats_events_count_each_tools_calls() {
    let h = run(
        vec![
            vec![read("r1", "notes.txt"), read("r2", "notes.txt")],
            vec![read("r3", "missing.txt")],
            done("d"),
        ],
        ApprovalMode::Ask,
    )
    .await;
    let last = h
        .seen
        .iter()
        .rev()
        .find_map(|e| match &e.msg {
            EventMsg::ToolStats { stats } if stats.tool == "read" => Some(stats.clone()),
            _ => None,
        })
        .unwrap();
    assert_eq!((last.calls, last.succeeded, last.failed), (3, 2, 1));
    assert!(last.p95_ms >= last.mean_ms || last.calls < 20);
    let completion = h.seen.iter().any(|e| {
        matches!(&e.msg, EventMsg::ToolStats { stats } if stats.tool == "attempt_completion" && stats.calls == 1)
    });
    assert!(completion);
}

/// A workspace whose discovery command offers `greet` and a `bash` that stands in for the
/// built-in (it says where it ran and what it got).
async fn discovery_hub(dir: &std::path::Path, replaces: bool) -> McpHub {
    std::fs::write(
        dir.join("list.sh"),
        r#"cat <<'JSON'
[
  {"name": "greet", "description": "Greets someone", "parameters": {"type": "object", "properties": {"who": {"type": "string"}}}},
  {"name": "bash", "description": "Runs a command in the dev container", "parameters": {"type": "object", "properties": {"command": {"type": "string"}}, "required": ["command"]}}
]
JSON
"#,
    )
    .unwrap();
    std::fs::write(
        dir.join("call.sh"),
        r#"input=$(cat)
echo "container $1: $input"
"#,
    )
    .unwrap();
    let mut discovery = json!({"command": "sh list.sh", "callCommand": "sh call.sh"});
    if replaces {
        discovery["replaces"] = json!(["bash"]);
    }
    let config = McpConfig::parse(
        &json!({ "discovery": discovery }).to_string(),
        ServerSource::User,
        std::path::Path::new("mcp.json"),
    )
    .unwrap();
    let hub = McpHub::start(
        config,
        HubOptions {
            workspace: Some(dir.to_path_buf()),
            ..HubOptions::default()
        },
    )
    .await
    .unwrap();
    hub.wait_settled(Duration::from_secs(20)).await;
    hub
}

#[tokio::test]
async fn a_discovered_bash_that_replaces_the_builtin_runs_under_bashs_rules() {
    let tools = tempfile::tempdir().unwrap();
    let hub = discovery_hub(tools.path(), true).await;
    let turns = [
        vec![call("plain", "bash", json!({"command": "echo hi"}))],
        vec![call("nested", "bash", json!({"command": "echo $(id)"}))],
        done("d"),
    ];
    let mut h = start_turns(Wire::Anthropic, &turns, |c| {
        c.approval_mode = ApprovalMode::Ask;
        c.rules = vec![(RuleAction::Allow, "bash(echo *)".into())];
        c.mcp = Some(hub.clone());
    })
    .await;
    h.say("go");
    // The plain command is allowed by the rule, as it would be for the built-in; the one with a
    // substitution asks, as it would.
    let (id, hash) = h.approval().await;
    assert_eq!(id, "nested");
    h.send(Op::Approve {
        call_id: id,
        preview_hash: hash,
        scope: foreman_core::protocol::ApprovalScope::Once,
    });
    h.end().await;
    let (_, plain, _) = finished_with(&h, "plain");
    assert_eq!(plain.trim(), r#"container bash: {"command":"echo hi"}"#);
    let (_, nested, _) = finished_with(&h, "nested");
    assert!(nested.starts_with("container bash:"), "{nested}");
    // The model is offered one `bash`: the replacement's.
    let offered = h.server.requests()[0].json();
    let bashes: Vec<&Value> = offered["tools"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["name"] == "bash")
        .collect();
    assert_eq!(bashes.len(), 1);
    assert_eq!(
        bashes[0]["description"],
        "Runs a command in the dev container"
    );
    hub.shutdown().await;
}

#[tokio::test]
async fn without_replaces_a_discovered_bash_keeps_its_own_name() {
    let tools = tempfile::tempdir().unwrap();
    let hub = discovery_hub(tools.path(), false).await;
    let turns = [
        vec![call(
            "b",
            "bash",
            json!({"command": "echo from the builtin"}),
        )],
        done("d"),
    ];
    let mut h = start_turns(Wire::Anthropic, &turns, |c| {
        c.approval_mode = ApprovalMode::Yolo;
        c.mcp = Some(hub.clone());
    })
    .await;
    h.say("go");
    h.end().await;
    let (_, result, _) = finished_with(&h, "b");
    assert!(
        result.contains("from the builtin") && !result.contains("container"),
        "{result}"
    );
    let names: Vec<String> = h.server.requests()[0].json()["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_owned())
        .collect();
    assert!(
        names.contains(&"bash".to_owned()) && names.contains(&"bash_2".to_owned()),
        "{names:?}"
    );
    hub.shutdown().await;
}

#[tokio::test]
async fn an_unknown_tool_gets_every_tool_mcp_and_new_task_included() {
    let tools = tempfile::tempdir().unwrap();
    let hub = discovery_hub(tools.path(), false).await;
    let turns = [
        vec![call("x", "reed", json!({"path": "notes.txt"}))],
        done("d"),
    ];
    let mut h = start_turns(Wire::Anthropic, &turns, |c| {
        c.mcp = Some(hub.clone());
    })
    .await;
    h.say("go");
    h.end().await;
    let (state, result, error) = finished_with(&h, "x");
    assert_eq!(state, CallState::Failed);
    let (code, message) = error.unwrap();
    assert_eq!(code, "UNKNOWN_TOOL");
    for name in [
        "read",
        "bash",
        "attempt_completion",
        "new_task",
        "greet",
        "bash_2",
    ] {
        assert!(message.contains(name), "{name} missing: {message}");
    }
    assert!(result.contains("UNKNOWN_TOOL"), "{result}");
    hub.shutdown().await;
}
