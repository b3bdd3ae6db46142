//! How each tool's calls went in a session: counts and running times, sent as a
//! [`ToolStats`] event after every call and shown in the app and at the end of the CLI's `exec`.

use std::collections::BTreeMap;
use std::time::Duration;

use crate::protocol::ToolStats;

/// Running times kept per tool for the percentile.
const KEPT_DURATIONS: usize = 1000;

/// How a call ended, for the counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CallEnd {
    Succeeded,
    Failed,
    TimedOut,
}

#[derive(Debug, Default)]
struct Entry {
    stats: ToolStats,
    durations: Vec<u64>,
    total_ms: u64,
}

/// The stats of every tool that ran.
#[derive(Debug, Default)]
pub struct StatsBook {
    by_tool: BTreeMap<String, Entry>,
}

impl StatsBook {
    /// Counts one call of `tool` that took `elapsed`; returns the tool's stats now.
    pub fn record(&mut self, tool: &str, end: CallEnd, elapsed: Duration) -> ToolStats {
        let entry = self.by_tool.entry(tool.to_owned()).or_default();
        let ms = u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX);
        let stats = &mut entry.stats;
        stats.tool = tool.to_owned();
        stats.calls += 1;
        match end {
            CallEnd::Succeeded => stats.succeeded += 1,
            CallEnd::Failed => stats.failed += 1,
            CallEnd::TimedOut => {
                stats.failed += 1;
                stats.timed_out += 1;
            }
        }
        entry.total_ms = entry.total_ms.saturating_add(ms);
        stats.mean_ms = entry.total_ms / u64::from(stats.calls);
        if entry.durations.len() == KEPT_DURATIONS {
            entry.durations.remove(0);
        }
        entry.durations.push(ms);
        let mut sorted = entry.durations.clone();
        sorted.sort_unstable();
        let rank = (sorted.len() * 95).div_ceil(100).max(1) - 1;
        stats.p95_ms = sorted[rank.min(sorted.len() - 1)];
        stats.clone()
    }

    /// Every tool's stats, by name.
    pub fn all(&self) -> Vec<ToolStats> {
        self.by_tool.values().map(|e| e.stats.clone()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_percentiles() {
        let mut book = StatsBook::default();
        for ms in 1..=20 {
            book.record("read", CallEnd::Succeeded, Duration::from_millis(ms * 10));
        }
        book.record("read", CallEnd::Failed, Duration::from_millis(5));
        let stats = book.record("read", CallEnd::TimedOut, Duration::from_millis(1000));
        assert_eq!(
            (stats.calls, stats.succeeded, stats.failed, stats.timed_out),
            (22, 20, 2, 1)
        );
        assert_eq!(stats.p95_ms, 200);
        assert_eq!(stats.mean_ms, (2100 + 5 + 1000) / 22);
        assert_eq!(book.all().len(), 1);
    }
}
