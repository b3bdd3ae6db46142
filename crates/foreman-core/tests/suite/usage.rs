//! Usage: tokens, the cost estimate and the context, also after a resume.

use foreman_core::protocol::{EventMsg, Op, UsageSummary};
use foreman_core::providers::Usage;
use foreman_core::store::Store;
use foreman_core::testing::scripts::{self, Step, text};
use foreman_core::testing::sse_server::ScriptedResponse;

use super::common::*;

const SONNET: &str = "claude-sonnet-4-5-20250929";

/// An Anthropic response reporting these input and cache tokens and 5 output tokens.
fn priced(steps: &[Step], input: u64, cache_read: u64, cache_write: u64) -> ScriptedResponse {
    ScriptedResponse::sse(scripts::anthropic_with_usage(
        steps,
        7,
        Usage {
            input,
            output: 5,
            cache_read,
            cache_write,
        },
    ))
}

fn assert_cost(summary: &UsageSummary, expected: f64) {
    let cost = summary.cost_usd.expect("a priced model has a cost");
    assert!((cost - expected).abs() < 1e-12, "{cost} vs {expected}");
}

#[tokio::test]
async fn usage_carries_the_cost_estimate_and_the_context_and_survives_a_resume() {
    let store = Store::open_in_memory().await.unwrap();
    let session = store.create_session("/w", 1).await.unwrap();
    let responses = vec![
        priced(&[read("r", "notes.txt")], 1_200, 0, 30_000),
        priced(&[text("It lists alpha and beta.")], 300, 30_000, 1_500),
    ];
    let mut h = start_stored(SONNET, &store, &session.id, responses).await;
    let started = h
        .until(|m| matches!(m, EventMsg::SessionStarted { .. }))
        .await;
    let EventMsg::SessionStarted { usage, .. } = started else {
        unreachable!()
    };
    assert_eq!(
        usage.cost_usd,
        Some(0.0),
        "nothing spent yet on a priced model"
    );
    assert_eq!((usage.context_used, usage.context_window), (0, 100_000));
    h.say("what is in notes.txt?");
    assert!(h.end().await.is_success());
    let reported: Vec<(u64, u64, UsageSummary)> = h
        .seen
        .iter()
        .filter_map(|e| match &e.msg {
            EventMsg::Usage {
                input,
                cache_read,
                session,
                ..
            } => Some((*input, *cache_read, *session)),
            _ => None,
        })
        .collect();
    assert_eq!(reported.len(), 2);
    // Sonnet 4.5 list prices per million tokens: $3 input, $15 output, $0.30 cache read,
    // $3.75 cache write.
    let first = (1_200.0 * 3.0 + 5.0 * 15.0 + 30_000.0 * 3.75) / 1e6;
    let second = (300.0 * 3.0 + 5.0 * 15.0 + 30_000.0 * 0.3 + 1_500.0 * 3.75) / 1e6;
    let (input, cache_read, one) = reported[0];
    assert_eq!((input, cache_read), (1_200, 0));
    assert_cost(&one, first);
    assert_eq!((one.total_input, one.total_output), (1_200, 5));
    assert_eq!(one.context_used, 1_200 + 30_000);
    assert_eq!(one.context_window, 100_000);
    let (_, _, two) = reported[1];
    assert_cost(&two, first + second);
    assert_eq!((two.total_input, two.total_output), (1_500, 10));
    assert_eq!(
        two.context_used,
        300 + 30_000 + 1_500,
        "the last request, not a sum"
    );
    h.send(Op::Shutdown);
    h.until(|m| matches!(m, EventMsg::ShutdownComplete)).await;

    // Resumed, the session starts where it stopped: the same totals, cost and context.
    let mut resumed = start_stored(SONNET, &store, &session.id, Vec::new()).await;
    let EventMsg::SessionStarted { usage, .. } = resumed
        .until(|m| matches!(m, EventMsg::SessionStarted { .. }))
        .await
    else {
        unreachable!()
    };
    assert_eq!(
        (usage.total_input, usage.total_output, usage.context_used),
        (1_500, 10, 31_800)
    );
    assert_cost(&usage, first + second);
    resumed.send(Op::Snapshot);
    let EventMsg::Snapshot {
        usage: snapshot, ..
    } = resumed
        .until(|m| matches!(m, EventMsg::Snapshot { .. }))
        .await
    else {
        unreachable!()
    };
    assert_eq!(snapshot, usage);
    resumed.send(Op::Shutdown);
    resumed
        .until(|m| matches!(m, EventMsg::ShutdownComplete))
        .await;

    // Resumed on a model without a price, the cost is unknown, never $0.
    let mut local = start_stored("local-llama", &store, &session.id, Vec::new()).await;
    let EventMsg::SessionStarted { usage, .. } = local
        .until(|m| matches!(m, EventMsg::SessionStarted { .. }))
        .await
    else {
        unreachable!()
    };
    assert_eq!(usage.cost_usd, None);
    assert_eq!((usage.total_input, usage.context_used), (1_500, 31_800));
}
