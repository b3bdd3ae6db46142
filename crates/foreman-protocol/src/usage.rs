//! [`UsageSummary`]: what a session has used so far, as a status bar shows it.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// A session's token totals, its estimated cost and how full the last request's context was.
///
/// Sent with every [`EventMsg::Usage`](super::EventMsg::Usage), and with
/// [`EventMsg::SessionStarted`](super::EventMsg::SessionStarted) and
/// [`EventMsg::Snapshot`](super::EventMsg::Snapshot) so a resumed or re-attached front end shows
/// the same numbers without waiting for the next request.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize, TS)]
pub struct UsageSummary {
    /// Uncached input tokens over every request of the session.
    #[ts(type = "number")]
    pub total_input: u64,
    /// Output tokens over every request of the session.
    #[ts(type = "number")]
    pub total_output: u64,
    /// Input tokens read from the provider's prompt cache over every request of the session.
    #[serde(default)]
    #[ts(type = "number")]
    pub total_cache_read: u64,
    /// Input tokens written to the provider's prompt cache over every request of the session.
    #[serde(default)]
    #[ts(type = "number")]
    pub total_cache_write: u64,
    /// What the prompt cache saved in USD at list prices: cache reads at the input price less
    /// what they cost, less the premium paid for cache writes (negative before the first reads
    /// pay the writes back); `null` when a model used has no known price.
    #[serde(default)]
    pub cache_saved_usd: Option<f64>,
    /// Estimated cost in USD of every request of the session at list prices; `null` when the
    /// model (or a model used earlier in the session) has no known price.
    pub cost_usd: Option<f64>,
    /// Tokens the last request sent (input, cache reads and cache writes): how much of the
    /// context window the conversation fills. 0 before the first request.
    #[ts(type = "number")]
    pub context_used: u64,
    /// The model's context window in tokens, as configured for the session; 0 when it is not
    /// known (a model neither the settings nor Foreman's table give a window for).
    #[ts(type = "number")]
    pub context_window: u64,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_unknown_price_is_null_not_zero() {
        let summary = UsageSummary {
            total_input: 10,
            total_output: 5,
            total_cache_read: 0,
            total_cache_write: 0,
            cache_saved_usd: None,
            cost_usd: None,
            context_used: 10,
            context_window: 200_000,
        };
        let value = serde_json::to_value(summary).unwrap();
        assert_eq!(
            value,
            json!({"total_input": 10, "total_output": 5, "total_cache_read": 0,
                   "total_cache_write": 0, "cache_saved_usd": null, "cost_usd": null,
                   "context_used": 10, "context_window": 200_000})
        );
    }
}
