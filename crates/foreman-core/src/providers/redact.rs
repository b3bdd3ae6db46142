//! Scrubbing secrets out of anything we show or store.
//!
//! Header dumps (for logs and recordings) replace `Authorization`, `x-api-key` and similar values
//! with `[REDACTED]`; free text (error bodies echoed by a server) has any occurrence of the key
//! replaced too.

use reqwest::header::HeaderMap;

use crate::secrets::Secret;

const SENSITIVE_HEADERS: &[&str] = &[
    "authorization",
    "proxy-authorization",
    "x-api-key",
    "api-key",
    "cookie",
    "set-cookie",
];

/// True for headers whose value is a credential.
pub fn is_sensitive_header(name: &str) -> bool {
    SENSITIVE_HEADERS
        .iter()
        .any(|sensitive| name.eq_ignore_ascii_case(sensitive))
}

/// `name: value` lines with credential values replaced by `[REDACTED]`.
pub fn dump_headers(headers: &HeaderMap) -> Vec<String> {
    headers
        .iter()
        .map(|(name, value)| {
            let shown = if is_sensitive_header(name.as_str()) {
                "[REDACTED]".to_string()
            } else {
                String::from_utf8_lossy(value.as_bytes()).into_owned()
            };
            format!("{name}: {shown}")
        })
        .collect()
}

/// `text` with every occurrence of the secret (if any) replaced by `[REDACTED]`.
pub fn scrub(text: &str, secret: Option<&Secret>) -> String {
    match secret {
        Some(secret) if !secret.is_blank() => text.replace(secret.expose(), "[REDACTED]"),
        _ => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use reqwest::header::{AUTHORIZATION, CONTENT_TYPE, HeaderValue};

    #[test]
    fn header_dump_hides_credentials() {
        let mut headers = HeaderMap::new();
        headers.insert(AUTHORIZATION, HeaderValue::from_static("Bearer sk-abc"));
        headers.insert("x-api-key", HeaderValue::from_static("sk-ant-abc"));
        headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
        let dump = dump_headers(&headers).join("\n");
        assert!(!dump.contains("sk-abc"));
        assert!(!dump.contains("sk-ant-abc"));
        assert!(dump.contains("authorization: [REDACTED]"));
        assert!(dump.contains("x-api-key: [REDACTED]"));
        assert!(dump.contains("content-type: application/json"));
    }

    #[test]
    fn scrub_removes_echoed_keys() {
        let key = Secret::new("sk-live-42");
        assert_eq!(
            scrub("invalid key sk-live-42 given", Some(&key)),
            "invalid key [REDACTED] given"
        );
        assert_eq!(scrub("nothing", None), "nothing");
    }
}
