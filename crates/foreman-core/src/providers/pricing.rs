//! A per-model price table for cost estimates.
//!
//! [`PriceTable::with_defaults`] loads list prices (USD per million tokens) for well-known models;
//! the table is plain data (serde), so the app can let the user edit it and
//! [`PriceTable::merge`] overrides. Model names match by the longest known prefix, so
//! `claude-sonnet-4-20250514` is priced as `claude-sonnet-4`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::model_names;
use super::usage::Usage;

/// Prices of one model in USD per million tokens.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct ModelPrice {
    pub input: f64,
    pub output: f64,
    #[serde(default)]
    pub cache_read: f64,
    #[serde(default)]
    pub cache_write: f64,
}

impl ModelPrice {
    /// The cost in USD of `usage` at these prices.
    pub fn cost(&self, usage: &Usage) -> f64 {
        let per_token = |tokens: u64, price: f64| tokens as f64 * price / 1_000_000.0;
        per_token(usage.input, self.input)
            + per_token(usage.output, self.output)
            + per_token(usage.cache_read, self.cache_read)
            + per_token(usage.cache_write, self.cache_write)
    }

    /// What the cache saved on `usage` against sending every cached token as plain input: the
    /// reads' discount less the writes' premium (none where writes are not priced apart, as
    /// with OpenAI's automatic caching).
    pub fn cache_saving(&self, usage: &Usage) -> f64 {
        let premium = if self.cache_write > 0.0 {
            self.cache_write - self.input
        } else {
            0.0
        };
        (usage.cache_read as f64 * (self.input - self.cache_read)
            - usage.cache_write as f64 * premium)
            / 1_000_000.0
    }
}

/// Model name (or name prefix) → prices.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PriceTable {
    pub models: BTreeMap<String, ModelPrice>,
}

const fn price(input: f64, output: f64, cache_read: f64, cache_write: f64) -> ModelPrice {
    ModelPrice {
        input,
        output,
        cache_read,
        cache_write,
    }
}

/// List prices at the time of writing; edit the table rather than this list when they change.
const DEFAULTS: &[(&str, ModelPrice)] = &[
    ("claude-opus-4-5", price(5.0, 25.0, 0.5, 6.25)),
    ("claude-opus-4", price(15.0, 75.0, 1.5, 18.75)),
    ("claude-sonnet-4", price(3.0, 15.0, 0.3, 3.75)),
    ("claude-3-7-sonnet", price(3.0, 15.0, 0.3, 3.75)),
    ("claude-haiku-4-5", price(1.0, 5.0, 0.1, 1.25)),
    ("claude-3-5-haiku", price(0.8, 4.0, 0.08, 1.0)),
    ("gpt-5", price(1.25, 10.0, 0.125, 0.0)),
    ("gpt-5-mini", price(0.25, 2.0, 0.025, 0.0)),
    ("gpt-4.1", price(2.0, 8.0, 0.5, 0.0)),
    ("gpt-4.1-mini", price(0.4, 1.6, 0.1, 0.0)),
    ("gpt-4o", price(2.5, 10.0, 1.25, 0.0)),
    ("gpt-4o-mini", price(0.15, 0.6, 0.075, 0.0)),
];

impl PriceTable {
    /// The built-in list prices.
    pub fn with_defaults() -> Self {
        Self {
            models: DEFAULTS
                .iter()
                .map(|(name, price)| ((*name).to_string(), *price))
                .collect(),
        }
    }

    /// Sets (or replaces) the prices of a model or model prefix.
    pub fn set(&mut self, model: impl Into<String>, price: ModelPrice) {
        self.models.insert(model.into(), price);
    }

    /// Overrides entries with those of `other`.
    pub fn merge(&mut self, other: PriceTable) {
        self.models.extend(other.models);
    }

    /// The prices of `model`: an exact entry, else the longest entry that is a prefix of it.
    /// Provider prefixes such as `anthropic/` (OpenRouter) are ignored.
    pub fn lookup(&self, model: &str) -> Option<&ModelPrice> {
        model_names::lookup(
            self.models
                .iter()
                .map(|(name, price)| (name.as_str(), price)),
            model,
        )
    }

    /// Estimated cost in USD of `usage` on `model`, if the model is priced.
    pub fn estimate(&self, model: &str, usage: &Usage) -> Option<f64> {
        self.lookup(model).map(|price| price.cost(usage))
    }

    /// What the cache saved on `usage` of `model`, if the model has a price.
    pub fn cache_saving(&self, model: &str, usage: &Usage) -> Option<f64> {
        self.lookup(model).map(|price| price.cache_saving(usage))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prices_dated_models_by_longest_prefix() {
        let table = PriceTable::with_defaults();
        let usage = Usage {
            input: 1_000_000,
            output: 100_000,
            cache_read: 2_000_000,
            cache_write: 0,
        };
        let cost = table.estimate("claude-sonnet-4-20250514", &usage).unwrap();
        assert!((cost - (3.0 + 1.5 + 0.6)).abs() < 1e-9, "{cost}");
        // gpt-4o-mini must not be priced as gpt-4o.
        let mini = table.lookup("gpt-4o-mini-2024-07-18").unwrap();
        assert_eq!(mini.input, 0.15);
        assert_eq!(
            table.lookup("anthropic/claude-opus-4-5").unwrap().input,
            5.0
        );
        assert!(table.estimate("llama3.2", &usage).is_none());
    }

    #[test]
    fn overrides_from_edited_json() {
        let mut table = PriceTable::with_defaults();
        let edited: PriceTable = serde_json::from_str(
            r#"{"models": {"gpt-4o": {"input": 1.0, "output": 2.0}, "llama3.2": {"input": 0.0, "output": 0.0}}}"#,
        )
        .unwrap();
        table.merge(edited);
        assert_eq!(table.lookup("gpt-4o").unwrap().output, 2.0);
        assert_eq!(table.lookup("gpt-4o").unwrap().cache_read, 0.0);
        assert_eq!(table.estimate("llama3.2", &Usage::default()), Some(0.0));
        table.set("my-model", price(1.0, 1.0, 0.0, 0.0));
        assert!(table.lookup("my-model").is_some());
    }
}
