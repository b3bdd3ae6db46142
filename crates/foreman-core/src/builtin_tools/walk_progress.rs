//! Progress of a blocking walk (grep's search), reported from the async side while it runs.
//!
//! The walk threads only bump a shared counter; the task awaiting the walk looks at the counter
//! on a timer and reports it when it changed. So counting costs one relaxed atomic add per file
//! and no second walk, and the callback (which sends a status to the UI) never runs on a walk
//! thread.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use tokio::task::{JoinError, JoinHandle};
use tokio::time::MissedTickBehavior;

/// How often a running search reports its count.
pub const PROGRESS_INTERVAL: Duration = Duration::from_millis(250);

/// Awaits `task`; every `interval` while it runs, calls `report` with `counter`'s value if it
/// changed since the last report (never with 0).
pub async fn await_with_progress<T>(
    mut task: JoinHandle<T>,
    counter: &AtomicUsize,
    interval: Duration,
    mut report: impl FnMut(usize),
) -> Result<T, JoinError> {
    let mut ticker = tokio::time::interval(interval);
    ticker.set_missed_tick_behavior(MissedTickBehavior::Delay);
    // The first tick is immediate; nothing has been counted yet.
    ticker.tick().await;
    let mut last = 0;
    loop {
        tokio::select! {
            result = &mut task => return result,
            _ = ticker.tick() => {
                let now = counter.load(Ordering::Relaxed);
                if now != last {
                    last = now;
                    report(now);
                }
            }
        }
    }
}

/// `n` with a comma between groups of three digits: `1,204`.
pub fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;

    #[test]
    fn thousands_groups_digits() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_204), "1,204");
        assert_eq!(thousands(25_241), "25,241");
        assert_eq!(thousands(1_000_000), "1,000,000");
    }

    #[tokio::test]
    async fn reports_the_growing_count_while_the_task_runs() {
        let counter = Arc::new(AtomicUsize::new(0));
        let counting = counter.clone();
        let task = tokio::task::spawn_blocking(move || {
            for _ in 0..10 {
                std::thread::sleep(Duration::from_millis(15));
                counting.fetch_add(1, Ordering::Relaxed);
            }
            "done"
        });
        let mut reports = Vec::new();
        let result = await_with_progress(task, &counter, Duration::from_millis(5), |n| {
            reports.push(n);
        })
        .await
        .unwrap();
        assert_eq!(result, "done");
        assert!(reports.len() >= 2, "{reports:?}");
        assert!(reports.windows(2).all(|w| w[0] < w[1]), "{reports:?}");
        assert!(
            reports.iter().all(|&n| (1..=10).contains(&n)),
            "{reports:?}"
        );
    }

    #[tokio::test]
    async fn a_task_that_ends_before_the_first_interval_reports_nothing() {
        let counter = Arc::new(AtomicUsize::new(0));
        let counting = counter.clone();
        let task = tokio::task::spawn_blocking(move || counting.fetch_add(3, Ordering::Relaxed));
        let mut reports = Vec::new();
        await_with_progress(task, &counter, Duration::from_secs(60), |n| reports.push(n))
            .await
            .unwrap();
        assert!(reports.is_empty());
    }
}
