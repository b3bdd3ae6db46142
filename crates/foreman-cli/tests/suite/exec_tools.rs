//! The tool runtime through `foreman-cli exec --json`: arguments of the wrong type are coerced
//! and the model is told; bad ones come back to the model as structured errors; the stats events
//! count the calls.

use foreman_core::testing::scripts::call;
use foreman_core::testing::sse_server::ScriptedServer;
use serde_json::{Value, json};
use tokio::process::Command;

use super::common::{Run, body, exec_in, run};

fn exec(server: &ScriptedServer, dir: &std::path::Path) -> Command {
    let mut cmd = exec_in(dir, dir);
    cmd.args(["--provider", "openai", "--base-url"])
        .arg(format!("{}/v1", server.url()))
        .args(["--model", "m", "--json", "--approval", "auto-edit"])
        .arg("tidy the notes")
        .env("OPENAI_API_KEY", "test-key");
    cmd
}

fn finished(out: &Run, id: &str) -> Value {
    out.events
        .iter()
        .find(|e| e["type"] == "tool_call_finished" && e["call_id"] == id)
        .cloned()
        .unwrap_or_else(|| panic!("{id} did not finish"))
}

#[tokio::test]
async fn coerced_arguments_and_structured_errors_over_json_lines() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("notes.txt"), "a\nb\nc\n").unwrap();
    let server = ScriptedServer::start(vec![
        body(
            "openai",
            &[call("r", "read", json!({"path": "notes.txt", "limit": "2"}))],
        ),
        body(
            "openai",
            &[call(
                "e",
                "edit",
                json!({"path": "notes.txt", "old_string": "b", "new_string": "B", "replace_all": "true"}),
            )],
        ),
        body(
            "openai",
            &[call("bad", "edit", json!({"path": ["notes.txt"], "old_string": 3}))],
        ),
        body(
            "openai",
            &[call("d", "attempt_completion", json!({"result": "done"}))],
        ),
    ])
    .await
    .unwrap();
    let out = run(exec(&server, dir.path()), |e| {
        panic!("nothing should ask in auto-edit mode: {e}")
    })
    .await;
    assert_eq!(out.code, 0, "{}", out.stderr);

    let read = finished(&out, "r");
    assert_eq!(read["state"], "succeeded");
    let text = read["result"].as_str().unwrap();
    assert!(text.contains("1\ta") && !text.contains("3\tc"), "{text}");
    assert!(
        text.contains("/limit (a number sent as a string)"),
        "{text}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("notes.txt")).unwrap(),
        "a\nB\nc\n"
    );
    let edit = finished(&out, "e");
    assert!(
        edit["result"]
            .as_str()
            .unwrap()
            .contains("/replace_all (a boolean sent as a string)"),
        "{edit}"
    );

    let bad = finished(&out, "bad");
    assert_eq!(bad["state"], "failed");
    assert_eq!(bad["error"]["code"], "INVALID_PARAMS");
    let model: Value = serde_json::from_str(bad["result"].as_str().unwrap()).unwrap();
    assert_eq!(model["ok"], false);
    assert_eq!(model["code"], "INVALID_PARAMS");
    let paths: Vec<&str> = model["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["path"].as_str().unwrap())
        .collect();
    for path in ["/path", "/old_string", ""] {
        assert!(paths.contains(&path), "{path:?} missing from {paths:?}");
    }
    // The model got exactly that structured error back (marked as an error by the wire format).
    let sent = server.requests()[3].json();
    let results: Vec<&str> = sent["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["role"] == "tool")
        .map(|m| m["content"].as_str().unwrap())
        .collect();
    let last = results.last().unwrap();
    assert!(last.ends_with(bad["result"].as_str().unwrap()), "{last}");

    let stats: Vec<&Value> = out
        .events
        .iter()
        .filter(|e| e["type"] == "tool_stats" && e["stats"]["tool"] == "edit")
        .collect();
    let last = stats.last().unwrap();
    assert_eq!(
        last["stats"]["calls"], 1,
        "a call refused before it ran is not counted"
    );
    assert_eq!(last["stats"]["succeeded"], 1);
}

/// Gemini CLI's "flexible intra-line whitespace" case, through the whole tool runtime: the file
/// spaces its tokens differently from `old_string`, the edit is applied (the match is unique),
/// the file keeps its indentation, and the model is told which tolerance it needed.
#[tokio::test]
async fn an_edit_whose_tokens_are_spaced_differently_is_applied_and_named() {
    let dir = tempfile::tempdir().unwrap();
    let source = "  function  myFunc( a, b ) {\n    return a + b;\n  }\n";
    std::fs::write(dir.path().join("lib.js"), source).unwrap();
    let server = ScriptedServer::start(vec![
        body("openai", &[call("r", "read", json!({"path": "lib.js"}))]),
        body(
            "openai",
            &[call(
                "e",
                "edit",
                json!({
                    "path": "lib.js",
                    "old_string": "function myFunc(a, b) {",
                    "new_string": "function sum(a, b) {",
                }),
            )],
        ),
        body(
            "openai",
            &[call("d", "attempt_completion", json!({"result": "done"}))],
        ),
    ])
    .await
    .unwrap();
    let out = run(exec(&server, dir.path()), |e| {
        panic!("nothing should ask in auto-edit mode: {e}")
    })
    .await;
    assert_eq!(out.code, 0, "{}", out.stderr);

    let edit = finished(&out, "e");
    assert_eq!(edit["state"], "succeeded", "{edit}");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("lib.js")).unwrap(),
        "  function sum(a, b) {\n    return a + b;\n  }\n"
    );
    // What the model read back names the tolerance.
    let sent = server.requests()[2].json();
    let told = sent["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["role"] == "tool")
        .filter_map(|m| m["content"].as_str())
        .next_back()
        .unwrap()
        .to_owned();
    assert!(
        told.contains("spaces and tabs next to brackets, commas"),
        "{told}"
    );
}
