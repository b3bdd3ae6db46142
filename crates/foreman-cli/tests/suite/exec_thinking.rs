//! `--thinking-budget`, `--reasoning-effort` and `--max-tokens` reach the request body the
//! provider gets, and a bad value stops the CLI before any request with a message that says
//! why.

use super::common::{body, exec_in, run};

use foreman_core::testing::scripts::text;
use foreman_core::testing::sse_server::ScriptedServer;
use serde_json::{Value, json};

/// Runs one task against a scripted server with `flags`; the body of its one request.
async fn request_body(provider: &str, flags: &[&str]) -> Value {
    let dir = tempfile::tempdir().unwrap();
    let server = ScriptedServer::start(vec![body(provider, &[text("Done.")])])
        .await
        .unwrap();
    let base = match provider {
        "openai" => format!("{}/v1", server.url()),
        _ => server.url(),
    };
    let mut cmd = exec_in(dir.path(), dir.path());
    cmd.args([
        "--provider",
        provider,
        "--base-url",
        &base,
        "--model",
        "m",
        "--json",
    ])
    .args(flags)
    .arg("think about it")
    .env("ANTHROPIC_API_KEY", "test-key")
    .env("OPENAI_API_KEY", "test-key");
    let result = run(cmd, |_| json!({})).await;
    assert_eq!(result.code, 0, "{}", result.stderr);
    let requests = server.requests();
    assert_eq!(requests.len(), 1);
    requests[0].json()
}

#[tokio::test]
async fn the_thinking_budget_reaches_the_anthropic_body() {
    let body = request_body("anthropic", &["--thinking-budget", "2048"]).await;
    assert_eq!(
        body["thinking"],
        json!({"type": "enabled", "budget_tokens": 2048})
    );
    assert_eq!(body["max_tokens"], 8192 + 2048);
    let plain = request_body("anthropic", &[]).await;
    assert!(plain.get("thinking").is_none(), "{plain}");
    assert_eq!(plain["max_tokens"], 8192);
}

#[tokio::test]
async fn the_reasoning_effort_reaches_the_openai_body() {
    let body = request_body("openai", &["--reasoning-effort", "medium"]).await;
    assert_eq!(body["reasoning_effort"], "medium");
    // The scripted server is on 127.0.0.1: a local server's smaller default.
    assert_eq!(body["max_completion_tokens"], 2048);
    assert!(body.get("max_tokens").is_none(), "{body}");
}

#[tokio::test]
async fn max_tokens_reaches_both_wires_and_a_local_server_gets_a_smaller_default() {
    let anthropic = request_body("anthropic", &["--max-tokens", "300"]).await;
    assert_eq!(anthropic["max_tokens"], 300);
    let thinking = request_body(
        "anthropic",
        &["--max-tokens", "300", "--thinking-budget", "1024"],
    )
    .await;
    assert_eq!(thinking["max_tokens"], 300 + 1024, "thinking comes on top");
    let openai = request_body("openai", &["--max-tokens", "300"]).await;
    assert_eq!(openai["max_tokens"], 300);
    let local = request_body("openai", &[]).await;
    assert_eq!(local["max_tokens"], 2048, "{local}");
}

#[tokio::test]
async fn an_answer_cut_off_at_the_limit_fails_with_a_notice() {
    let dir = tempfile::tempdir().unwrap();
    let cut_off = foreman_core::testing::scripts::openai(&[text("The first half")], 5)
        .replace(r#""finish_reason":"stop""#, r#""finish_reason":"length""#)
        // The server counts the 300 tokens it was allowed.
        .replace(r#""completion_tokens":5"#, r#""completion_tokens":300"#);
    let server = ScriptedServer::start(vec![
        foreman_core::testing::sse_server::ScriptedResponse::sse(cut_off),
    ])
    .await
    .unwrap();
    let mut cmd = exec_in(dir.path(), dir.path());
    cmd.args([
        "--provider",
        "openai",
        "--base-url",
        &format!("{}/v1", server.url()),
        "--model",
        "m",
        "--max-tokens",
        "300",
        "--json",
        "write a lot",
    ]);
    let result = run(cmd, |_| json!({})).await;
    assert_eq!(result.code, 1, "{}", result.stderr);
    let ended = result
        .events
        .iter()
        .find(|e| e["type"] == "task_ended")
        .unwrap_or_else(|| panic!("{:?}", result.events));
    let message = ended["reason"]["message"].as_str().unwrap_or_default();
    assert!(
        message.starts_with("The answer reached its limit of 300 tokens and was cut off."),
        "{ended}"
    );
    assert!(
        result.stderr.contains("reached its limit of 300 tokens"),
        "{}",
        result.stderr
    );
}

#[tokio::test]
async fn a_bad_value_is_refused_before_any_request() {
    let dir = tempfile::tempdir().unwrap();
    let server = ScriptedServer::start(Vec::new()).await.unwrap();
    for (flags, expected) in [
        (
            ["--provider", "anthropic", "--thinking-budget", "100"],
            "A thinking budget of 100 tokens is too small",
        ),
        (
            ["--provider", "openai", "--reasoning-effort", "extreme"],
            "unknown reasoning effort `extreme`: use minimal, low, medium or high",
        ),
        (
            ["--provider", "openai", "--max-tokens", "0"],
            "'--max-tokens <N>': The answer needs room: allow at least 1 token.",
        ),
    ] {
        let mut cmd = exec_in(dir.path(), dir.path());
        cmd.args(["--base-url", &server.url()])
            .args(flags)
            .arg("p")
            .env("ANTHROPIC_API_KEY", "test-key");
        let result = run(cmd, |_| json!({})).await;
        assert_eq!(result.code, 1, "{}", result.stderr);
        assert!(result.stderr.contains(expected), "{}", result.stderr);
    }
    assert!(server.requests().is_empty());
}
