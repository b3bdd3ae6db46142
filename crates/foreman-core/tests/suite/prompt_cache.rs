//! Prompt caching: what consecutive requests of one task share, byte for byte.
//!
//! A provider's cache only hits when the start of a request is exactly what an earlier request
//! sent. These tests run a task through the scripted server and compare the raw request bodies.
//! Anthropic's breakpoint markers (`cache_control`) are not part of the cached content (they say
//! where a cached prefix ends), so they move from turn to turn and are taken out before comparing.

use foreman_core::protocol::ApprovalMode;
use foreman_core::testing::scripts::text;

use super::common::*;

const BREAKPOINT: &str = r#""cache_control":{"type":"ephemeral"}"#;

fn common_prefix(a: &str, b: &str) -> usize {
    a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count()
}

async fn two_step_task(wire: Wire) -> Harness {
    let mut h = start(
        wire,
        &[
            vec![read("r1", "notes.txt")],
            vec![read("r2", "notes.txt")],
            vec![text("Both reads agree.")],
        ],
        ApprovalMode::Yolo,
    )
    .await;
    h.say("read notes.txt twice");
    assert!(h.end().await.is_success());
    h
}

#[tokio::test]
async fn anthropic_requests_share_a_byte_identical_prefix_up_to_the_older_breakpoint() {
    let h = two_step_task(Wire::Anthropic).await;
    let (first, second, third) = (h.request_text(0), h.request_text(1), h.request_text(2));
    for (earlier, later) in [(&first, &second), (&second, &third)] {
        // The messages come before the system prompt and the tools in the body, so the first
        // breakpoint in the later body is its older conversation breakpoint: the earlier
        // request's newest one.
        assert_eq!(later.matches(BREAKPOINT).count(), 4, "{later}");
        let older = later.find(BREAKPOINT).expect("a conversation breakpoint");
        // The end of the block the older breakpoint marks: the end of its user turn.
        let through = older + later[older..].find("}],\"role\":\"user\"}").unwrap();
        // Keys are sorted, so a marker is its block's first key, followed by a comma. No marker
        // comes before the older one, so taking that one out moves the end back by its length.
        let unmarked = |body: &str| body.replace(&format!("{BREAKPOINT},"), "");
        let through = through - BREAKPOINT.len() - 1;
        assert!(
            common_prefix(&unmarked(earlier), &unmarked(later)) >= through,
            "the later request changed bytes before its older breakpoint:\n{earlier}\n{later}"
        );
    }
    // The first request has one user turn, so one conversation breakpoint.
    assert_eq!(first.matches(BREAKPOINT).count(), 3, "{first}");
    // The system prompt and the tools are the same bytes in every request.
    let tail = |body: &str| {
        let value: serde_json::Value = serde_json::from_str(body).unwrap();
        (value["system"].to_string(), value["tools"].to_string())
    };
    assert_eq!(tail(&first), tail(&third));
}

#[tokio::test]
async fn openai_requests_extend_the_previous_request_without_changing_it() {
    let h = two_step_task(Wire::OpenAi).await;
    for n in 0..2 {
        let (earlier, later) = (h.request_text(n), h.request_text(n + 1));
        let earlier_value: serde_json::Value = serde_json::from_str(&earlier).unwrap();
        let later_value: serde_json::Value = serde_json::from_str(&later).unwrap();
        let sent = earlier_value["messages"].as_array().unwrap();
        let resent = &later_value["messages"].as_array().unwrap()[..sent.len()];
        assert_eq!(
            serde_json::to_string(sent).unwrap(),
            serde_json::to_string(resent).unwrap(),
            "request {n}'s messages changed in the next request"
        );
        assert_eq!(earlier_value["tools"], later_value["tools"]);
    }
}
