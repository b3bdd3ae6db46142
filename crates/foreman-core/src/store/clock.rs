//! The one clock of the engine and its clients: every time the store keeps is Unix milliseconds.

/// Unix milliseconds now (what every `now_ms` of the store's API takes; 0 before 1970).
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
        .unwrap_or(0)
}
