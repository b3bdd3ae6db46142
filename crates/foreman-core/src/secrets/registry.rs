//! The process-wide list of known secret values, and scrubbing text of them.

use std::borrow::Cow;
use std::sync::RwLock;

use memchr::memmem;

/// What a secret is replaced with.
pub const REDACTED: &str = "[REDACTED]";

/// Shorter values are not remembered: scrubbing them would cut ordinary words out of output.
pub const MIN_SECRET_LEN: usize = 8;

/// Known secrets, longest first (so a key that holds another is replaced whole).
static KNOWN: RwLock<Vec<String>> = RwLock::new(Vec::new());

/// Remembers `value` as a secret to scrub from tool output (blank and short values are not).
pub fn remember(value: &str) {
    let value = value.trim();
    if value.len() < MIN_SECRET_LEN {
        return;
    }
    let Ok(mut known) = KNOWN.write() else {
        return;
    };
    if !known.iter().any(|k| k == value) {
        known.push(value.to_owned());
        known.sort_by_key(|k| std::cmp::Reverse(k.len()));
    }
}

/// Remembers the values of this process's environment variables whose names say they hold a
/// credential (`*_API_KEY`, `*_TOKEN`, `*_SECRET`, `*_PASSWORD`), so a command that prints them
/// (`env`, `/proc/$PPID/environ`) shows `[REDACTED]` instead.
pub fn remember_environment() {
    for (name, value) in std::env::vars_os() {
        if is_credential_name(&name.to_string_lossy())
            && let Some(value) = value.to_str()
        {
            remember(value);
        }
    }
}

/// Whether an environment variable named `name` holds a credential by its name (`*_API_KEY`,
/// `API_KEY`, `*_TOKEN`, `*_SECRET`, `*_PASSWORD`, in any case).
pub fn is_credential_name(name: &str) -> bool {
    let name = name.to_ascii_uppercase();
    name.ends_with("_API_KEY")
        || name == "API_KEY"
        || name.ends_with("_TOKEN")
        || name.ends_with("_SECRET")
        || name.ends_with("_PASSWORD")
}

/// A snapshot of the known secrets (longest first).
pub(super) fn known() -> Vec<String> {
    KNOWN.read().map(|k| k.clone()).unwrap_or_default()
}

/// `text` with every known secret replaced by [`REDACTED`].
pub fn scrub(text: &str) -> Cow<'_, str> {
    match scrub_bytes(text.as_bytes()) {
        Cow::Borrowed(_) => Cow::Borrowed(text),
        // Whole UTF-8 sequences were replaced by ASCII, so the result is UTF-8.
        Cow::Owned(bytes) => Cow::Owned(String::from_utf8_lossy(&bytes).into_owned()),
    }
}

/// `bytes` with every known secret replaced by [`REDACTED`].
pub fn scrub_bytes(bytes: &[u8]) -> Cow<'_, [u8]> {
    let known = known();
    replace_all(bytes, &known)
}

pub(super) fn replace_all<'a>(bytes: &'a [u8], secrets: &[String]) -> Cow<'a, [u8]> {
    let mut out: Cow<'a, [u8]> = Cow::Borrowed(bytes);
    for secret in secrets {
        let finder = memmem::Finder::new(secret.as_bytes());
        if finder.find(&out).is_none() {
            continue;
        }
        let mut replaced = Vec::with_capacity(out.len());
        let mut from = 0;
        for at in finder.find_iter(&out) {
            if at < from {
                continue;
            }
            replaced.extend_from_slice(&out[from..at]);
            replaced.extend_from_slice(REDACTED.as_bytes());
            from = at + secret.len();
        }
        replaced.extend_from_slice(&out[from..]);
        out = Cow::Owned(replaced);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_secrets_are_scrubbed_and_short_ones_never_kept() {
        remember("sk-registry-test-0001");
        remember("short");
        assert_eq!(
            scrub("key=sk-registry-test-0001; again sk-registry-test-0001").as_ref(),
            "key=[REDACTED]; again [REDACTED]"
        );
        assert_eq!(scrub("short words stay").as_ref(), "short words stay");
        assert!(matches!(scrub("nothing here"), Cow::Borrowed(_)));
    }

    #[test]
    fn a_longer_secret_holding_a_shorter_one_goes_whole() {
        let secrets = ["abcdefgh-1234".to_owned(), "abcdefgh".to_owned()];
        assert_eq!(
            replace_all(b"x abcdefgh-1234 y abcdefgh", &secrets).as_ref(),
            b"x [REDACTED] y [REDACTED]"
        );
    }
}
