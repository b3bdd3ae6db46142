//! When and how long to wait before trying a failed request again.
//!
//! Retried: HTTP 429 (honouring `retry-after`), 500/502/503/504, Anthropic's 529 "overloaded",
//! and connections refused or reset before the first byte of the answer. The wait grows
//! exponentially from `base_delay` up to `max_delay`, with random jitter so that many clients do
//! not retry in lockstep. Tests use tiny delays.

use std::time::{Duration, SystemTime};

use reqwest::StatusCode;
use reqwest::header::HeaderMap;

/// Retry settings of a provider.
#[derive(Debug, Clone, PartialEq)]
pub struct RetryPolicy {
    /// Total attempts including the first (1 = never retry).
    pub max_attempts: u32,
    /// Wait before the first retry; doubled for each further one.
    pub base_delay: Duration,
    /// Upper bound of the exponential wait.
    pub max_delay: Duration,
    /// Upper bound for a server's `retry-after`.
    pub max_retry_after: Duration,
    /// Fraction (0..=1) of the wait that is randomised away.
    pub jitter: f64,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        Self {
            max_attempts: foreman_protocol::settings::DEFAULT_MAX_ATTEMPTS,
            base_delay: Duration::from_secs(2),
            max_delay: Duration::from_secs(60),
            max_retry_after: Duration::from_secs(120),
            jitter: 0.25,
        }
    }
}

impl RetryPolicy {
    /// A policy that never retries.
    pub fn none() -> Self {
        Self {
            max_attempts: 1,
            ..Self::default()
        }
    }

    /// The wait before attempt `next_attempt` (2 for the first retry). A server's `retry-after`
    /// wins over the computed backoff (bounded by `max_retry_after`).
    pub fn delay_before(&self, next_attempt: u32, retry_after: Option<Duration>) -> Duration {
        if let Some(wait) = retry_after {
            return wait.min(self.max_retry_after);
        }
        let exponent = next_attempt.saturating_sub(2).min(30);
        let backoff = self
            .base_delay
            .saturating_mul(1u32 << exponent)
            .min(self.max_delay);
        let jitter = self.jitter.clamp(0.0, 1.0);
        backoff.mul_f64(1.0 - jitter * fastrand::f64())
    }
}

/// Whether an HTTP status is worth retrying.
pub fn is_retryable_status(status: StatusCode) -> bool {
    matches!(status.as_u16(), 429 | 500 | 502 | 503 | 504 | 529)
}

/// The server's requested wait: `retry-after-ms`, else `retry-after` in seconds or as an HTTP
/// date (the wait until then; none for a date already past).
pub fn retry_after(headers: &HeaderMap) -> Option<Duration> {
    let header = |name: &str| headers.get(name).and_then(|value| value.to_str().ok());
    if let Some(ms) = header("retry-after-ms").and_then(|v| v.trim().parse::<f64>().ok()) {
        return (ms.is_finite() && ms >= 0.0).then(|| Duration::from_secs_f64(ms / 1000.0));
    }
    let value = header("retry-after")?.trim();
    match value.parse::<f64>() {
        Ok(seconds) => {
            (seconds.is_finite() && seconds >= 0.0).then(|| Duration::from_secs_f64(seconds))
        }
        Err(_) => {
            let date = httpdate::parse_http_date(value).ok()?;
            Some(date.duration_since(SystemTime::now()).unwrap_or_default())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use reqwest::header::HeaderValue;

    #[test]
    fn backoff_doubles_up_to_the_cap_with_bounded_jitter() {
        let policy = RetryPolicy {
            base_delay: Duration::from_millis(100),
            max_delay: Duration::from_millis(500),
            jitter: 0.0,
            ..RetryPolicy::default()
        };
        assert_eq!(policy.delay_before(2, None), Duration::from_millis(100));
        assert_eq!(policy.delay_before(3, None), Duration::from_millis(200));
        assert_eq!(policy.delay_before(4, None), Duration::from_millis(400));
        assert_eq!(policy.delay_before(5, None), Duration::from_millis(500));
        let jittery = RetryPolicy {
            jitter: 0.5,
            ..policy
        };
        for _ in 0..100 {
            let delay = jittery.delay_before(3, None);
            assert!(delay <= Duration::from_millis(200) && delay >= Duration::from_millis(100));
        }
    }

    #[test]
    fn retry_after_wins_and_is_capped() {
        let policy = RetryPolicy {
            max_retry_after: Duration::from_secs(10),
            ..RetryPolicy::default()
        };
        assert_eq!(
            policy.delay_before(2, Some(Duration::from_secs(3))),
            Duration::from_secs(3)
        );
        assert_eq!(
            policy.delay_before(2, Some(Duration::from_secs(300))),
            Duration::from_secs(10)
        );
    }

    #[test]
    fn parses_retry_after_headers() {
        let mut headers = HeaderMap::new();
        assert_eq!(retry_after(&headers), None);
        headers.insert("retry-after", HeaderValue::from_static("7"));
        assert_eq!(retry_after(&headers), Some(Duration::from_secs(7)));
        headers.insert("retry-after-ms", HeaderValue::from_static("250"));
        assert_eq!(retry_after(&headers), Some(Duration::from_millis(250)));
        // An HTTP date: the wait until then, none once it has passed.
        let mut date = HeaderMap::new();
        let then = httpdate::fmt_http_date(SystemTime::now() + Duration::from_secs(30));
        date.insert("retry-after", HeaderValue::from_str(&then).unwrap());
        let wait = retry_after(&date).unwrap();
        assert!(
            wait > Duration::from_secs(28) && wait <= Duration::from_secs(30),
            "{wait:?}"
        );
        date.insert(
            "retry-after",
            HeaderValue::from_static("Wed, 21 Oct 2015 07:28:00 GMT"),
        );
        assert_eq!(retry_after(&date), Some(Duration::ZERO));
        date.insert("retry-after", HeaderValue::from_static("soon"));
        assert_eq!(retry_after(&date), None);
    }

    #[test]
    fn classifies_statuses() {
        for code in [429, 500, 502, 503, 504, 529] {
            assert!(is_retryable_status(StatusCode::from_u16(code).unwrap()));
        }
        for code in [400, 401, 403, 404, 413] {
            assert!(!is_retryable_status(StatusCode::from_u16(code).unwrap()));
        }
    }
}
