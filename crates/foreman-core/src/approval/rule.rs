//! Approval rules: `tool`, `tool(pattern)`, `bash(cargo test *)`, `edit(src/**)`,
//! `http_fetch(domain:docs.rs)`.

use globset::{GlobBuilder, GlobMatcher};
use thiserror::Error;

use super::facts::{Access, ActionClass, CallFacts};
use super::pattern::{CommandPattern, Reach};
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
    /// A shell command (`cargo test *`), see [`CommandPattern`].
    Command(CommandPattern),
    /// A workspace-relative path glob (`src/**`).
    Path(GlobMatcher),
    /// A host or any of its subdomains (`domain:docs.rs`).
    Domain(String),
}

/// What a rule is compared with.
#[derive(Debug, Clone, Copy)]
pub(super) enum Subject<'a> {
    /// The call as a whole (its path or host; a command's raw line).
    Call,
    /// One command of the call's line, as words, with the wildcard's reach.
    Command(&'a [String], Reach),
}

/// A parsed rule with its action.
#[derive(Debug, Clone)]
pub struct Rule {
    pub action: RuleAction,
    /// The text as written, e.g. `bash(cargo test *)`.
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
                    Matcher::Command(CommandPattern::new(inner))
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
        // `edit(...)` covers every tool that edits files (write, edit, multi_edit, …), and
        // `read(path)` every tool that looks at a path (read, ls, glob, grep).
        self.tool == call.tool
            || (self.tool == "edit" && call.class == ActionClass::Edit)
            || (self.tool == "read"
                && call.class == ActionClass::Read
                && matches!(self.matcher, Matcher::Path(_)))
    }

    /// A deny rule on a path, which also keeps commands from the files it names (fully only
    /// in the sandbox).
    pub fn denies_a_path(&self) -> bool {
        self.denied_path().is_some()
    }

    /// For a deny rule on a path (`read(…)`, `edit(…)`, `write(…)`): what it keeps from
    /// commands too, and its path pattern (see `approval/denied.rs`).
    pub(super) fn denied_path(&self) -> Option<(Access, &GlobMatcher)> {
        let Matcher::Path(glob) = &self.matcher else {
            return None;
        };
        if self.action != RuleAction::Deny {
            return None;
        }
        match self.tool.as_str() {
            "read" => Some((Access::Read, glob)),
            "edit" | "write" => Some((Access::Write, glob)),
            _ => None,
        }
    }

    /// Whether the rule matches `subject` of `call`.
    pub(super) fn matches(&self, call: &CallFacts, subject: Subject<'_>) -> bool {
        if !self.applies_to_tool(call) {
            return false;
        }
        match (&self.matcher, subject) {
            (Matcher::Any, _) => true,
            (Matcher::Command(pattern), Subject::Command(words, reach)) => {
                pattern.matches(words, reach)
            }
            (Matcher::Command(pattern), Subject::Call) => call
                .command_text()
                .is_some_and(|line| pattern.matches_text(line)),
            (Matcher::Path(glob), _) => call.path.as_deref().is_some_and(|p| glob.is_match(p)),
            (Matcher::Domain(_), _) => self.names_host(call),
        }
    }

    /// Whether the rule names the call's host (`domain:` a host it is, or is under).
    pub(super) fn names_host(&self, call: &CallFacts) -> bool {
        let Matcher::Domain(domain) = &self.matcher else {
            return false;
        };
        self.applies_to_tool(call)
            && call.host.as_deref().is_some_and(|host| {
                let host = host.to_lowercase();
                host == *domain || host.ends_with(&format!(".{domain}"))
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
