//! Token usage per request and accumulated per session.
//!
//! `input` counts uncached input tokens; `cache_read` and `cache_write` are counted apart so that
//! costs can be priced correctly. (OpenAI reports cached tokens inside `prompt_tokens`; the
//! OpenAI adapter subtracts them so both providers mean the same thing.)

use serde::{Deserialize, Serialize};

/// Tokens used by one request.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Usage {
    pub input: u64,
    pub output: u64,
    pub cache_read: u64,
    pub cache_write: u64,
}

impl Usage {
    /// All tokens counted.
    pub fn total(&self) -> u64 {
        self.input + self.output + self.cache_read + self.cache_write
    }
}

impl std::ops::AddAssign for Usage {
    fn add_assign(&mut self, other: Self) {
        self.input += other.input;
        self.output += other.output;
        self.cache_read += other.cache_read;
        self.cache_write += other.cache_write;
    }
}

/// Usage summed over a session.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct UsageAccumulator {
    total: Usage,
    requests: u64,
    last: Option<Usage>,
}

impl UsageAccumulator {
    pub fn new() -> Self {
        Self::default()
    }

    /// Continues from earlier requests (a resumed session): their sum, how many there were and
    /// the most recent one.
    pub fn restored(total: Usage, requests: u64, last: Option<Usage>) -> Self {
        Self {
            total,
            requests,
            last,
        }
    }

    /// Adds the usage of one request.
    pub fn record(&mut self, usage: Usage) {
        self.total += usage;
        self.requests += 1;
        self.last = Some(usage);
    }

    /// The sum over every recorded request.
    pub fn total(&self) -> Usage {
        self.total
    }

    /// How many requests were recorded.
    pub fn requests(&self) -> u64 {
        self.requests
    }

    /// The most recent request's usage.
    pub fn last(&self) -> Option<Usage> {
        self.last
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accumulates_requests() {
        let mut acc = UsageAccumulator::new();
        acc.record(Usage {
            input: 10,
            output: 5,
            cache_read: 100,
            cache_write: 0,
        });
        acc.record(Usage {
            input: 3,
            output: 2,
            cache_read: 0,
            cache_write: 50,
        });
        assert_eq!(
            acc.total(),
            Usage {
                input: 13,
                output: 7,
                cache_read: 100,
                cache_write: 50
            }
        );
        assert_eq!(acc.total().total(), 170);
        assert_eq!(acc.requests(), 2);
        assert_eq!(acc.last().map(|u| u.cache_write), Some(50));
    }

    #[test]
    fn a_restored_accumulator_keeps_counting() {
        let earlier = Usage {
            input: 100,
            output: 10,
            cache_read: 0,
            cache_write: 0,
        };
        let mut acc = UsageAccumulator::restored(earlier, 3, Some(earlier));
        acc.record(Usage {
            input: 1,
            output: 2,
            cache_read: 3,
            cache_write: 4,
        });
        assert_eq!(acc.total().input, 101);
        assert_eq!(acc.total().cache_write, 4);
        assert_eq!(acc.requests(), 4);
        assert_eq!(acc.last().map(|u| u.cache_read), Some(3));
    }
}
