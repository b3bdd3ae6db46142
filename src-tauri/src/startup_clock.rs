//! How long the app has been starting: milliseconds since `run` began, for the start-up's log
//! lines (what lies between the process's start and the first screen, `docs/MEASUREMENTS.md`).

use std::sync::OnceLock;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

static BEGAN: OnceLock<(Instant, SystemTime)> = OnceLock::new();

/// Marks the start; the first call counts.
pub fn begin() {
    BEGAN.get_or_init(|| (Instant::now(), SystemTime::now()));
}

/// Milliseconds since [`begin`].
pub fn ms() -> u128 {
    BEGAN.get().map_or(0, |(at, _)| at.elapsed().as_millis())
}

/// When [`begin`] ran, in milliseconds since the Unix epoch (to line the log up with the page's
/// own clock and the process's start).
pub fn began_epoch_ms() -> u128 {
    BEGAN
        .get()
        .and_then(|(_, wall)| wall.duration_since(UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_millis())
}
