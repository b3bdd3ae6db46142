//! The text Help → Copy Diagnostics puts on the clipboard, ready to paste into a bug report:
//! versions, the OS, the provider and model (never a key), where the data and the log are, and
//! the end of the log with secrets taken out.
//!
//! Building the text is pure ([`render`]); gathering the facts from the running app is
//! `diagnostics_commands`. Secrets go twice over: every value the caller knows to be a secret
//! (the keychain's key, credential variables of the environment, the keys `foreman_core::secrets`
//! remembers) is replaced, and so is anything that looks like a key ([`redact_patterns`]).

use std::borrow::Cow;

use foreman_core::secrets::REDACTED;

/// How many lines of the log the text ends with.
pub const LOG_LINES: usize = 50;

/// Values shorter than this are not treated as secrets: replacing them would cut ordinary words.
const MIN_SECRET_LEN: usize = 8;

/// What the text reports, gathered from the running app.
#[derive(Debug, Clone, Default)]
pub struct Facts {
    pub version: String,
    /// The OS's name and version, e.g. "Debian GNU/Linux 13 (trixie)".
    pub os: String,
    /// The kernel's release, when known.
    pub kernel: Option<String>,
    pub arch: String,
    /// The webview engine's version (WebKitGTK on Linux), or why it is unknown.
    pub webview: String,
    /// The provider's name, e.g. "Anthropic", or why the settings could not be read.
    pub provider: String,
    pub model: String,
    pub data_dir: String,
    pub config_dir: String,
    pub log_file: String,
}

/// The report: `facts`, then the last [`LOG_LINES`] lines of `log` (the whole file's text or its
/// end), with every value in `secrets` and everything that looks like a key redacted.
pub fn render(facts: &Facts, log: &str, secrets: &[String]) -> String {
    let lines: Vec<&str> = log.lines().collect();
    let tail = &lines[lines.len().saturating_sub(LOG_LINES)..];
    let model = if facts.model.trim().is_empty() {
        "(not set)"
    } else {
        facts.model.trim()
    };
    let kernel = facts
        .kernel
        .as_deref()
        .map(|k| format!(", kernel {k}"))
        .unwrap_or_default();
    let mut text = format!(
        "Foreman {version}\n\
         OS: {os}{kernel} ({arch})\n\
         WebKitGTK: {webview}\n\
         Provider: {provider}\n\
         Model: {model}\n\
         Data: {data}\n\
         Settings: {config}\n\
         Log: {log_file}\n\
         \n\
         Last {count} log lines:\n",
        version = facts.version,
        os = facts.os,
        arch = facts.arch,
        webview = facts.webview,
        provider = facts.provider,
        data = facts.data_dir,
        config = facts.config_dir,
        log_file = facts.log_file,
        count = tail.len(),
    );
    if tail.is_empty() {
        text.push_str("(the log is empty)\n");
    }
    for line in tail {
        text.push_str(line);
        text.push('\n');
    }
    redact(&text, secrets)
}

/// `text` with each of `secrets` (longest first) and each key-like token replaced.
pub fn redact(text: &str, secrets: &[String]) -> String {
    let mut known: Vec<&str> = secrets
        .iter()
        .map(|s| s.trim())
        .filter(|s| s.len() >= MIN_SECRET_LEN)
        .collect();
    known.sort_by_key(|s| std::cmp::Reverse(s.len()));
    let mut out = text.to_owned();
    for secret in known {
        if out.contains(secret) {
            out = out.replace(secret, REDACTED);
        }
    }
    redact_patterns(&out).into_owned()
}

/// The values of the variables in `env` whose names say they hold a credential
/// ([`foreman_core::secrets::is_credential_name`]).
pub fn secrets_in_environment(env: impl IntoIterator<Item = (String, String)>) -> Vec<String> {
    env.into_iter()
        .filter(|(name, _)| foreman_core::secrets::is_credential_name(name))
        .map(|(_, value)| value)
        .collect()
}

/// Prefixes of API keys and tokens whose rest is a run of key characters.
const KEY_PREFIXES: &[&str] = &[
    "sk-",
    "ghp_",
    "gho_",
    "ghs_",
    "github_pat_",
    "xoxb-",
    "AIza",
];

/// Words after which the next token is a credential: `Bearer <token>`, `x-api-key: <key>`,
/// `api_key=<key>` and the like (matched without regard to case).
const KEY_LABELS: &[&str] = &[
    "bearer ",
    "x-api-key:",
    "x-api-key=",
    "api_key=",
    "api_key:",
    "api-key:",
    "api-key=",
    "apikey=",
    "authorization:",
    "token=",
    "password=",
    "secret=",
];

/// Whether `c` can be part of a key.
fn key_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '~' | '+' | '/' | '=')
}

/// `text` with anything that looks like a key or token replaced by [`REDACTED`]: a token that
/// starts with a known key prefix (`sk-…`, `ghp_…`, `AIza…`) and has at least 8 more key
/// characters, and the token after a credential label (`Bearer`, `x-api-key:`, `token=`…).
pub fn redact_patterns(text: &str) -> Cow<'_, str> {
    let lower = text.to_ascii_lowercase();
    let mut cuts: Vec<(usize, usize)> = Vec::new();
    for prefix in KEY_PREFIXES {
        let mut from = 0;
        while let Some(at) = text[from..].find(prefix).map(|i| i + from) {
            let start_ok = text[..at].chars().next_back().is_none_or(|c| !key_char(c));
            let rest = token_len(&text[at + prefix.len()..]);
            if start_ok && rest >= MIN_SECRET_LEN {
                cuts.push((at, at + prefix.len() + rest));
            }
            from = at + prefix.len();
        }
    }
    for label in KEY_LABELS {
        let mut from = 0;
        while let Some(at) = lower[from..].find(label).map(|i| i + from) {
            let after = at + label.len();
            let spaces = text[after..].len() - text[after..].trim_start_matches(' ').len();
            let start = after + spaces;
            // "Authorization: Bearer x" is cut at "Bearer"'s token, not at "Bearer" itself.
            let word = token_len(&text[start..]);
            let is_scheme = text[start..start + word].eq_ignore_ascii_case("bearer");
            if word > 0 && !is_scheme {
                cuts.push((start, start + word));
            }
            from = after;
        }
    }
    if cuts.is_empty() {
        return Cow::Borrowed(text);
    }
    cuts.sort_unstable();
    let mut out = String::with_capacity(text.len());
    let mut from = 0;
    for (start, end) in cuts {
        if end <= from {
            continue;
        }
        out.push_str(&text[from..start.max(from)]);
        out.push_str(REDACTED);
        from = end;
    }
    out.push_str(&text[from..]);
    Cow::Owned(out)
}

/// The length in bytes of the run of key characters `text` starts with.
fn token_len(text: &str) -> usize {
    text.find(|c: char| !key_char(c)).unwrap_or(text.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts() -> Facts {
        Facts {
            version: "0.1.0".into(),
            os: "Debian GNU/Linux 13 (trixie)".into(),
            kernel: Some("6.1.0".into()),
            arch: "x86_64".into(),
            webview: "2.48.1".into(),
            provider: "Anthropic".into(),
            model: "claude-sonnet-4-5".into(),
            data_dir: "/home/a/.local/share/dev.foreman.app".into(),
            config_dir: "/home/a/.config/dev.foreman.app".into(),
            log_file: "/home/a/.local/share/dev.foreman.app/logs/foreman.log".into(),
        }
    }

    #[test]
    fn the_report_names_versions_provider_paths_and_ends_with_the_last_log_lines() {
        let log: String = (1..=80).map(|i| format!("line {i}\n")).collect();
        let text = render(&facts(), &log, &[]);
        for expected in [
            "Foreman 0.1.0\n",
            "OS: Debian GNU/Linux 13 (trixie), kernel 6.1.0 (x86_64)\n",
            "WebKitGTK: 2.48.1\n",
            "Provider: Anthropic\n",
            "Model: claude-sonnet-4-5\n",
            "Data: /home/a/.local/share/dev.foreman.app\n",
            "Log: /home/a/.local/share/dev.foreman.app/logs/foreman.log\n",
            "Last 50 log lines:\nline 31\n",
        ] {
            assert!(text.contains(expected), "missing {expected:?} in\n{text}");
        }
        assert!(text.ends_with("line 80\n"));
        assert!(!text.contains("line 30\n"), "only the last 50 lines");
    }

    #[test]
    fn an_empty_log_and_an_unset_model_are_said_so() {
        let facts = Facts {
            model: " ".into(),
            ..facts()
        };
        let text = render(&facts, "", &[]);
        assert!(text.contains("Model: (not set)\n"), "{text}");
        assert!(
            text.contains("Last 0 log lines:\n(the log is empty)\n"),
            "{text}"
        );
    }

    #[test]
    fn no_key_from_the_keychain_the_environment_or_the_log_survives() {
        let keychain = "sk-ant-api03-KEYCHAINvalue0123456789".to_owned();
        let env_key = "plain-env-secret-value-42".to_owned();
        let env = vec![
            ("ANTHROPIC_API_KEY".to_owned(), env_key.clone()),
            ("HOME".to_owned(), "/home/a".to_owned()),
        ];
        let mut secrets = secrets_in_environment(env);
        assert_eq!(secrets, vec![env_key.clone()], "only credential variables");
        secrets.push(keychain.clone());
        // The model field of the settings holds a key by mistake; the log quotes all of them.
        let facts = Facts {
            model: keychain.clone(),
            ..facts()
        };
        let log = format!(
            "INFO request with key {keychain}\n\
             WARN env said {env_key}\n\
             DEBUG header Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.payload.sig\n\
             DEBUG unknown key sk-proj-UNSEENbyAnyoneElse999 in a message\n\
             DEBUG x-api-key: another-unseen-key-123\n\
             INFO nothing secret here: sk-short\n"
        );
        let text = render(&facts, &log, &secrets);
        for secret in [
            keychain.as_str(),
            env_key.as_str(),
            "eyJhbGciOiJIUzI1NiJ9",
            "sk-proj-UNSEENbyAnyoneElse999",
            "UNSEEN",
            "another-unseen-key-123",
        ] {
            assert!(!text.contains(secret), "{secret} leaked into\n{text}");
        }
        assert!(text.contains("Model: [REDACTED]\n"), "{text}");
        assert!(text.contains("Authorization: Bearer [REDACTED]"), "{text}");
        assert!(text.contains("x-api-key: [REDACTED]"), "{text}");
        assert!(text.contains("nothing secret here: sk-short"), "{text}");
    }

    #[test]
    fn ordinary_words_are_left_alone() {
        let text = "task-runner asked; disk-usage is fine; Bearer; token= ; a mask-of-names";
        assert_eq!(redact_patterns(text), text);
        assert!(matches!(redact_patterns(text), Cow::Borrowed(_)));
        assert_eq!(
            redact("keep short ones: abc", &["abc".to_owned()]),
            "keep short ones: abc"
        );
    }
}
