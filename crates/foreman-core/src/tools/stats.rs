//! Per-tool execution statistics: counts and durations, via API and as an event.
//!
//! The [`StatsWrapper`](super::StatsWrapper) in the wrapper chain records them, so they count
//! calls that passed validation (including ones an inner wrapper such as an approval gate
//! refused); calls stopped by `INVALID_TOOL_PARAMS` or `TOOL_NOT_REGISTERED` do not count.

use std::collections::BTreeMap;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Counters of one tool since the manager started.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ToolStats {
    pub tool_name: String,
    /// Final (non-partial) executions.
    #[ts(type = "number")]
    pub executions: u64,
    #[ts(type = "number")]
    pub successes: u64,
    /// Failures of every kind, timeouts and cancellations included.
    #[ts(type = "number")]
    pub failures: u64,
    #[ts(type = "number")]
    pub total_duration_ms: u64,
    #[ts(type = "number")]
    pub average_duration_ms: u64,
}

impl ToolStats {
    /// Counts one execution that took `duration`.
    pub fn record(&mut self, success: bool, duration: Duration) {
        self.executions += 1;
        if success {
            self.successes += 1;
        } else {
            self.failures += 1;
        }
        let ms = u64::try_from(duration.as_millis()).unwrap_or(u64::MAX);
        self.total_duration_ms = self.total_duration_ms.saturating_add(ms);
        self.average_duration_ms = self.total_duration_ms / self.executions;
    }
}

/// Stats of every tool, keyed by name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StatsBook {
    by_tool: BTreeMap<String, ToolStats>,
}

impl StatsBook {
    /// Records one execution of `tool` and returns its updated stats.
    pub fn record(&mut self, tool: &str, success: bool, duration: Duration) -> ToolStats {
        let stats = self
            .by_tool
            .entry(tool.to_owned())
            .or_insert_with(|| ToolStats {
                tool_name: tool.to_owned(),
                ..ToolStats::default()
            });
        stats.record(success, duration);
        stats.clone()
    }

    /// The stats of `tool`, if it ran.
    pub fn get(&self, tool: &str) -> Option<&ToolStats> {
        self.by_tool.get(tool)
    }

    /// Stats of every tool that ran, by name.
    pub fn all(&self) -> Vec<ToolStats> {
        self.by_tool.values().cloned().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_averages() {
        let mut book = StatsBook::default();
        book.record("read", true, Duration::from_millis(10));
        book.record("read", false, Duration::from_millis(30));
        let stats = book.record("read", true, Duration::from_millis(20));
        assert_eq!(stats.executions, 3);
        assert_eq!(stats.successes, 2);
        assert_eq!(stats.failures, 1);
        assert_eq!(stats.total_duration_ms, 60);
        assert_eq!(stats.average_duration_ms, 20);
        assert!(book.get("write").is_none());
        assert_eq!(book.all().len(), 1);
    }

    #[test]
    fn typescript_binding_is_current() {
        crate::bindings::assert_bindings_current::<ToolStats>();
    }
}
