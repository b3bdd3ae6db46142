//! Approval rules: `tool`, `tool(pattern)`, `edit(src/**)`, `http_fetch(domain:docs.rs)`.

use globset::{GlobBuilder, GlobMatcher};
use thiserror::Error;

use super::policy::{ActionClass, CallFacts};
use crate::store::RuleAction;

#[derive(Debug, Error, PartialEq, Eq)]
pub enum RuleParseError {
    #[error("empty rule")]
    Empty,
    #[error("rule `{0}` has an unclosed `(`")]
    Unclosed(String),
    #[error("rule `{rule}` has an invalid path pattern: {reason}")]
    BadGlob { rule: String, reason: String },
}

#[derive(Debug, Clone)]
enum Matcher {
    /// Any call of the tool.
    Any,
    /// A shell command, with `*` as a wildcard (`cargo test*`).
    Command(String),
    /// A workspace-relative path glob (`src/**`).
    Path(GlobMatcher),
    /// A host or any of its subdomains (`domain:docs.rs`).
    Domain(String),
}

/// A parsed rule with its action.
#[derive(Debug, Clone)]
pub struct Rule {
    pub action: RuleAction,
    /// The text as written, e.g. `bash(cargo test*)`.
    pub text: String,
    tool: String,
    matcher: Matcher,
}

impl Rule {
    pub fn parse(action: RuleAction, text: &str) -> Result<Self, RuleParseError> {
        let text = text.trim();
        if text.is_empty() {
            return Err(RuleParseError::Empty);
        }
        let (tool, inner) = match text.find('(') {
            None => (text, None),
            Some(open) => {
                let inner = text[open + 1..]
                    .strip_suffix(')')
                    .ok_or_else(|| RuleParseError::Unclosed(text.to_owned()))?;
                (&text[..open], Some(inner.trim()))
            }
        };
        let tool = tool.trim().to_owned();
        let matcher = match inner {
            None | Some("") | Some("*") => Matcher::Any,
            Some(inner) => {
                if let Some(domain) = inner.strip_prefix("domain:") {
                    Matcher::Domain(domain.trim().trim_start_matches("*.").to_lowercase())
                } else if tool == "bash" || tool == "shell" {
                    Matcher::Command(inner.to_owned())
                } else {
                    let glob = GlobBuilder::new(inner)
                        .literal_separator(true)
                        .build()
                        .map_err(|e| RuleParseError::BadGlob {
                            rule: text.to_owned(),
                            reason: e.to_string(),
                        })?;
                    Matcher::Path(glob.compile_matcher())
                }
            }
        };
        Ok(Self {
            action,
            text: text.to_owned(),
            tool,
            matcher,
        })
    }

    fn applies_to_tool(&self, call: &CallFacts) -> bool {
        // `edit(...)` covers every tool that edits files (write, edit, multi_edit, …).
        self.tool == call.tool || (self.tool == "edit" && call.class == ActionClass::Edit)
    }

    /// Whether the rule matches the call. For shell commands, `part` is one command of a
    /// compound line.
    pub(super) fn matches(&self, call: &CallFacts, part: Option<&str>) -> bool {
        if !self.applies_to_tool(call) {
            return false;
        }
        match &self.matcher {
            Matcher::Any => true,
            Matcher::Command(pattern) => part
                .or(call.command.as_deref())
                .is_some_and(|cmd| wildcard_match(pattern, cmd)),
            Matcher::Path(glob) => call.path.as_deref().is_some_and(|p| glob.is_match(p)),
            Matcher::Domain(domain) => call.host.as_deref().is_some_and(|host| {
                let host = host.to_lowercase();
                host == *domain || host.ends_with(&format!(".{domain}"))
            }),
        }
    }
}

/// `*` matches any run of characters; everything else literally. Whitespace runs compare equal.
fn wildcard_match(pattern: &str, text: &str) -> bool {
    let pattern = normalise_spaces(pattern);
    let text = normalise_spaces(text);
    let pieces: Vec<&str> = pattern.split('*').collect();
    let Some((first, rest)) = pieces.split_first() else {
        return text.is_empty();
    };
    let Some(mut remaining) = text.strip_prefix(first) else {
        return false;
    };
    let Some((last, middle)) = rest.split_last() else {
        return remaining.is_empty();
    };
    for piece in middle {
        match remaining.find(piece) {
            Some(at) => remaining = &remaining[at + piece.len()..],
            None => return false,
        }
    }
    remaining.ends_with(last)
}

fn normalise_spaces(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The rule an "Always allow" on this call would add, for the person to review or edit:
/// the command's first two words for shell commands, the file's folder for edits, the host for
/// fetches, the whole tool otherwise.
pub fn suggest_rule(call: &CallFacts) -> String {
    if let Some(command) = &call.command {
        let words: Vec<&str> = command.split_whitespace().take(2).collect();
        return format!("{}({}*)", call.tool, words.join(" "));
    }
    if let Some(path) = &call.path {
        let tool = if call.class == ActionClass::Edit {
            "edit"
        } else {
            call.tool.as_str()
        };
        return match path.rfind('/') {
            Some(slash) => format!("{tool}({}/**)", &path[..slash]),
            None => format!("{tool}({path})"),
        };
    }
    if let Some(host) = &call.host {
        return format!("{}(domain:{host})", call.tool);
    }
    call.tool.clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wildcards_match_like_a_shell_pattern() {
        assert!(wildcard_match("cargo test*", "cargo test"));
        assert!(wildcard_match("cargo test*", "cargo test --workspace"));
        assert!(!wildcard_match("cargo test*", "cargo build"));
        assert!(wildcard_match("npm run *", "npm  run   lint"));
        assert!(wildcard_match("*.sh", "run.sh"));
        assert!(wildcard_match("a*b*c", "axxbyyc"));
        assert!(!wildcard_match("a*b*c", "axxbyy"));
        assert!(wildcard_match("ls", "ls"));
        assert!(!wildcard_match("ls", "ls -la"));
    }

    #[test]
    fn parse_errors_are_clear() {
        assert_eq!(
            Rule::parse(RuleAction::Allow, " ").unwrap_err(),
            RuleParseError::Empty
        );
        assert!(matches!(
            Rule::parse(RuleAction::Allow, "bash(ls").unwrap_err(),
            RuleParseError::Unclosed(_)
        ));
        assert!(matches!(
            Rule::parse(RuleAction::Allow, "edit(src/[)").unwrap_err(),
            RuleParseError::BadGlob { .. }
        ));
    }
}
