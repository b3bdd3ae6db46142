//! What a session has spent: its token totals, the estimated cost at the configured prices and
//! how much of the context window the last request filled — the numbers of a
//! [`UsageSummary`], kept by the engine and continued from the store when a session resumes.

use crate::protocol::UsageSummary;
use crate::providers::{PriceTable, Usage, UsageAccumulator};

/// Earlier requests of a resumed session on one model.
#[derive(Debug, Clone, PartialEq)]
pub struct PriorUsage {
    pub model: String,
    pub usage: Usage,
    pub requests: u64,
}

/// The running usage and cost of one session.
#[derive(Debug, Clone)]
pub struct Spend {
    prices: PriceTable,
    context_window: u64,
    usage: UsageAccumulator,
    /// The cost of the requests so far; `None` once one was made on a model without a price.
    cost: Option<f64>,
    /// What the prompt cache saved so far; `None` like `cost`.
    saved: Option<f64>,
}

fn add_cost(cost: Option<f64>, more: Option<f64>) -> Option<f64> {
    cost.zip(more).map(|(a, b)| a + b)
}

impl Spend {
    /// Nothing spent yet.
    pub fn new(prices: PriceTable, context_window: u64) -> Self {
        Self {
            prices,
            context_window,
            usage: UsageAccumulator::new(),
            cost: Some(0.0),
            saved: Some(0.0),
        }
    }

    /// Replaces what was counted with a resumed session's earlier requests (totals per model, so
    /// each is priced as its own model) and its most recent request.
    pub fn restore(&mut self, prior: &[PriorUsage], last: Option<Usage>) {
        let mut total = Usage::default();
        let mut requests = 0;
        let mut cost = Some(0.0);
        let mut saved = Some(0.0);
        for p in prior {
            total += p.usage;
            requests += p.requests;
            cost = add_cost(cost, self.prices.estimate(&p.model, &p.usage));
            saved = add_cost(saved, self.prices.cache_saving(&p.model, &p.usage));
        }
        self.usage = UsageAccumulator::restored(total, requests, last);
        self.cost = cost;
        self.saved = saved;
    }

    /// The window of the model in use from now on (the user changed the model).
    pub fn set_context_window(&mut self, context_window: u64) {
        self.context_window = context_window;
    }

    /// Counts one request made on `model`.
    pub fn record(&mut self, model: &str, usage: Usage) {
        self.usage.record(usage);
        self.cost = add_cost(self.cost, self.prices.estimate(model, &usage));
        self.saved = add_cost(self.saved, self.prices.cache_saving(model, &usage));
    }

    /// The summary while `model` is in use. The cost is unknown when `model` has no price, even
    /// before its first request, so an unpriced model never shows as free.
    pub fn summary(&self, model: &str) -> UsageSummary {
        let total = self.usage.total();
        UsageSummary {
            total_input: total.input,
            total_output: total.output,
            total_cache_read: total.cache_read,
            total_cache_write: total.cache_write,
            cache_saved_usd: self.prices.lookup(model).and(self.saved),
            cost_usd: self.prices.lookup(model).and(self.cost),
            context_used: self
                .usage
                .last()
                .map_or(0, |u| u.input + u.cache_read + u.cache_write),
            context_window: self.context_window,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SONNET: &str = "claude-sonnet-4-20250514";

    fn usage(input: u64, output: u64, cache_read: u64, cache_write: u64) -> Usage {
        Usage {
            input,
            output,
            cache_read,
            cache_write,
        }
    }

    fn close(a: Option<f64>, b: f64) -> bool {
        a.is_some_and(|a| (a - b).abs() < 1e-12)
    }

    #[test]
    fn costs_add_up_at_list_prices_and_context_is_the_last_request() {
        let mut spend = Spend::new(PriceTable::with_defaults(), 200_000);
        let fresh = spend.summary(SONNET);
        assert_eq!(
            fresh.cost_usd,
            Some(0.0),
            "a priced model with no requests is free"
        );
        assert_eq!(fresh.context_used, 0);
        // Sonnet 4: $3 in, $15 out, $0.30 cache read, $3.75 cache write per million tokens.
        spend.record(SONNET, usage(1_000, 200, 0, 10_000));
        spend.record(SONNET, usage(500, 100, 10_000, 0));
        let s = spend.summary(SONNET);
        let expected = (1_500.0 * 3.0 + 300.0 * 15.0 + 10_000.0 * 0.3 + 10_000.0 * 3.75) / 1e6;
        assert!(
            close(s.cost_usd, expected),
            "{:?} vs {expected}",
            s.cost_usd
        );
        assert_eq!((s.total_input, s.total_output), (1_500, 300));
        assert_eq!(
            s.context_used,
            500 + 10_000,
            "input and cache of the last request"
        );
        assert_eq!(s.context_window, 200_000);
        assert_eq!((s.total_cache_read, s.total_cache_write), (10_000, 10_000));
        // 10k tokens read at $0.30 instead of $3, less 10k written at $0.75 over the input price.
        let saved = (10_000.0 * 2.7 - 10_000.0 * 0.75) / 1e6;
        assert!(close(s.cache_saved_usd, saved), "{:?}", s.cache_saved_usd);
    }

    #[test]
    fn an_unpriced_model_makes_the_cost_unknown_never_zero() {
        let mut spend = Spend::new(PriceTable::with_defaults(), 8_192);
        assert_eq!(spend.summary("llama3.2").cost_usd, None);
        assert_eq!(spend.summary("llama3.2").cache_saved_usd, None);
        spend.record("llama3.2", usage(100, 10, 0, 0));
        assert_eq!(spend.summary("llama3.2").cost_usd, None);
        // Switching to a priced model cannot make the earlier requests free.
        assert_eq!(spend.summary(SONNET).cost_usd, None);
        assert_eq!(spend.summary("llama3.2").context_used, 100);
    }

    #[test]
    fn a_resumed_session_prices_each_model_it_used() {
        let mut spend = Spend::new(PriceTable::with_defaults(), 128_000);
        spend.restore(
            &[
                PriorUsage {
                    model: SONNET.into(),
                    usage: usage(1_000_000, 0, 0, 0),
                    requests: 3,
                },
                PriorUsage {
                    model: "gpt-4o-mini".into(),
                    usage: usage(1_000_000, 1_000_000, 0, 0),
                    requests: 2,
                },
            ],
            Some(usage(40, 1, 60_000, 0)),
        );
        let s = spend.summary("gpt-4o-mini");
        assert!(close(s.cost_usd, 3.0 + 0.15 + 0.6), "{:?}", s.cost_usd);
        assert_eq!(s.total_input, 2_000_000);
        assert_eq!(s.context_used, 60_040);
        spend.record("gpt-4o-mini", usage(1_000_000, 0, 0, 0));
        assert!(close(spend.summary("gpt-4o-mini").cost_usd, 3.75 + 0.15));

        let mut unknown = Spend::new(PriceTable::with_defaults(), 128_000);
        unknown.restore(
            &[PriorUsage {
                model: "my-local-model".into(),
                usage: usage(10, 10, 0, 0),
                requests: 1,
            }],
            None,
        );
        assert_eq!(unknown.summary(SONNET).cost_usd, None);
    }
}
