//! The table of tool statistics `exec` prints when the task ends (readable output; with
//! `--json` the `tool_stats` events carry the same numbers).

use std::collections::BTreeMap;

use foreman_protocol::{EventMsg, ToolStats};

/// The latest stats of every tool that ran.
#[derive(Debug, Default)]
pub struct StatsTable {
    by_tool: BTreeMap<String, ToolStats>,
}

impl StatsTable {
    /// Takes the stats an event carries.
    pub fn observe(&mut self, msg: &EventMsg) {
        if let EventMsg::ToolStats { stats } = msg {
            self.by_tool.insert(stats.tool.clone(), stats.clone());
        }
    }

    /// The table, or `None` when no tool ran.
    pub fn render(&self) -> Option<String> {
        if self.by_tool.is_empty() {
            return None;
        }
        let width = self
            .by_tool
            .keys()
            .map(String::len)
            .max()
            .unwrap_or(4)
            .max(4);
        let mut out = format!(
            "{:<width$}  {:>5}  {:>4}  {:>6}  {:>8}  {:>8}  {:>8}\n",
            "tool", "calls", "ok", "failed", "timeouts", "mean", "p95"
        );
        for s in self.by_tool.values() {
            out.push_str(&format!(
                "{:<width$}  {:>5}  {:>4}  {:>6}  {:>8}  {:>8}  {:>8}\n",
                s.tool,
                s.calls,
                s.succeeded,
                s.failed,
                s.timed_out,
                millis(s.mean_ms),
                millis(s.p95_ms)
            ));
        }
        Some(out)
    }
}

fn millis(ms: u64) -> String {
    if ms < 1000 {
        format!("{ms} ms")
    } else {
        format!("{:.1} s", ms as f64 / 1000.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_row_per_tool() {
        let mut table = StatsTable::default();
        assert!(table.render().is_none());
        for (tool, calls) in [("read", 3), ("bash", 1), ("read", 4)] {
            table.observe(&EventMsg::ToolStats {
                stats: ToolStats {
                    tool: tool.into(),
                    calls,
                    succeeded: calls,
                    mean_ms: 12,
                    p95_ms: 1500,
                    ..ToolStats::default()
                },
            });
        }
        let text = table.render().unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3, "{text}");
        assert!(lines[0].starts_with("tool"));
        assert!(lines[1].starts_with("bash"));
        assert!(
            lines[2].starts_with("read  ") && lines[2].contains("    4  "),
            "{text}"
        );
        assert!(lines[2].contains("1.5 s"), "{text}");
    }
}
