//! Approval decisions: the mode, allow/deny rules like `bash(cargo test*)`, compound commands.
//!
//! A rule is `tool` or `tool(pattern)`; `*` in the pattern matches any text. The pattern is
//! matched against the command for `bash`, the path for file tools and the host for
//! `http_fetch`. A compound command (`a && b; c | d`) is allowed by rules only when every part
//! is, and denied when any part is.

use super::tools::{ActionClass, ToolFacts};
use crate::protocol::ApprovalMode;

/// A decision about one call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    Allow,
    Ask { reason: String },
    Deny { reason: String },
}

/// A parsed rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rule {
    pub tool: String,
    pub pattern: Option<String>,
}

impl Rule {
    /// Parses `tool` or `tool(pattern)`.
    pub fn parse(text: &str) -> Option<Rule> {
        let text = text.trim();
        match text.split_once('(') {
            None if !text.is_empty() => Some(Rule {
                tool: text.to_owned(),
                pattern: None,
            }),
            Some((tool, rest)) if !tool.is_empty() => Some(Rule {
                tool: tool.trim().to_owned(),
                pattern: Some(rest.strip_suffix(')')?.to_owned()),
            }),
            _ => None,
        }
    }

    fn matches_tool(&self, tool: &str) -> bool {
        self.tool == tool || self.tool == "*"
    }

    fn matches_subject(&self, subject: &str) -> bool {
        self.pattern.as_deref().is_none_or(|p| glob_match(p, subject))
    }
}

impl std::fmt::Display for Rule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.pattern {
            Some(p) => write!(f, "{}({p})", self.tool),
            None => f.write_str(&self.tool),
        }
    }
}

/// `*` matches any run of characters; everything else is literal.
fn glob_match(pattern: &str, text: &str) -> bool {
    let parts: Vec<&str> = pattern.split('*').collect();
    let (Some(first), Some(last)) = (parts.first(), parts.last()) else {
        return false;
    };
    if parts.len() == 1 {
        return pattern == text;
    }
    if !text.starts_with(first) || text.len() < first.len() + last.len() || !text.ends_with(last)
    {
        return false;
    }
    let mut rest = &text[first.len()..text.len() - last.len()];
    for middle in &parts[1..parts.len() - 1] {
        match rest.find(middle) {
            Some(at) => rest = &rest[at + middle.len()..],
            None => return false,
        }
    }
    true
}

/// The parts of a compound shell command, split on `&&`, `||`, `;`, `|` and newlines outside
/// quotes.
pub fn command_parts(command: &str) -> Vec<String> {
    let mut parts = Vec::new();
    let mut current = String::new();
    let mut quote: Option<char> = None;
    let mut chars = command.chars().peekable();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => {
                quote = None;
                current.push(c);
            }
            (Some(_), c) => current.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                current.push(c);
            }
            (None, ';' | '\n') => parts.push(std::mem::take(&mut current)),
            (None, '&') if chars.peek() == Some(&'&') => {
                chars.next();
                parts.push(std::mem::take(&mut current));
            }
            (None, '|') => {
                if chars.peek() == Some(&'|') {
                    chars.next();
                }
                parts.push(std::mem::take(&mut current));
            }
            (None, c) => current.push(c),
        }
    }
    parts.push(current);
    parts
        .into_iter()
        .map(|p| p.trim().to_owned())
        .filter(|p| !p.is_empty())
        .collect()
}

/// The mode and the rules of a session.
#[derive(Debug, Clone, Default)]
pub struct Policy {
    pub mode: ApprovalMode,
    pub allow: Vec<Rule>,
    pub deny: Vec<Rule>,
}

impl Policy {
    fn subjects(facts: &ToolFacts) -> Vec<String> {
        if let Some(command) = &facts.command {
            return command_parts(command);
        }
        vec![
            facts
                .path
                .clone()
                .or_else(|| facts.host.clone())
                .unwrap_or_default(),
        ]
    }

    /// Decides whether `tool` with `facts` runs, asks or is refused.
    pub fn decide(&self, tool: &str, facts: &ToolFacts) -> Decision {
        let subjects = Self::subjects(facts);
        for rule in self.deny.iter().filter(|r| r.matches_tool(tool)) {
            if let Some(s) = subjects.iter().find(|s| rule.matches_subject(s)) {
                return Decision::Deny {
                    reason: format!("`{s}` is denied by the rule {rule}"),
                };
            }
        }
        let allowed_by_rule = !subjects.is_empty()
            && subjects.iter().all(|s| {
                self.allow
                    .iter()
                    .any(|r| r.matches_tool(tool) && r.matches_subject(s))
            });
        if facts.protected {
            return match self.mode {
                ApprovalMode::ReadOnly if facts.class != ActionClass::Read => Decision::Deny {
                    reason: "read-only mode".into(),
                },
                _ if facts.class == ActionClass::Read => Decision::Allow,
                _ => Decision::Ask {
                    reason: "the path is protected".into(),
                },
            };
        }
        if allowed_by_rule {
            return Decision::Allow;
        }
        let what = match facts.class {
            ActionClass::Read => return Decision::Allow,
            ActionClass::Edit => "changes a file",
            ActionClass::Execute => "runs a command",
            ActionClass::Fetch => "uses the network",
        };
        match (self.mode, facts.class) {
            (ApprovalMode::ReadOnly, _) => Decision::Deny {
                reason: format!("this {what} and the session is read-only"),
            },
            (ApprovalMode::Yolo, _) | (ApprovalMode::AutoEdit, ActionClass::Edit) => {
                Decision::Allow
            }
            _ => Decision::Ask {
                reason: format!("this {what}"),
            },
        }
    }
}

/// A rule that would allow calls like this one from now on.
pub fn suggest_rule(tool: &str, facts: &ToolFacts) -> Option<String> {
    if let Some(command) = &facts.command {
        let first = command_parts(command).into_iter().next()?;
        let words: Vec<&str> = first.split_whitespace().take(2).collect();
        return Some(format!("{tool}({}*)", words.join(" ")));
    }
    if let Some(host) = &facts.host {
        return Some(format!("{tool}({host})"));
    }
    let path = facts.path.as_ref()?;
    Some(match path.rsplit_once('/') {
        Some((dir, _)) => format!("{tool}({dir}/*)"),
        None => format!("{tool}(*)"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bash(command: &str) -> ToolFacts {
        ToolFacts {
            class: ActionClass::Execute,
            path: None,
            command: Some(command.into()),
            host: None,
            protected: false,
        }
    }

    fn edit(path: &str) -> ToolFacts {
        ToolFacts {
            class: ActionClass::Edit,
            path: Some(path.into()),
            command: None,
            host: None,
            protected: path.starts_with(".git/"),
        }
    }

    fn policy(mode: ApprovalMode, allow: &[&str], deny: &[&str]) -> Policy {
        Policy {
            mode,
            allow: allow.iter().filter_map(|r| Rule::parse(r)).collect(),
            deny: deny.iter().filter_map(|r| Rule::parse(r)).collect(),
        }
    }

    #[test]
    fn modes_decide_by_class() {
        let read = ToolFacts {
            class: ActionClass::Read,
            ..edit("a")
        };
        for mode in [ApprovalMode::ReadOnly, ApprovalMode::Ask, ApprovalMode::Yolo] {
            assert_eq!(policy(mode, &[], &[]).decide("read", &read), Decision::Allow);
        }
        assert!(matches!(policy(ApprovalMode::ReadOnly, &[], &[]).decide("edit", &edit("a")), Decision::Deny { .. }));
        assert!(matches!(policy(ApprovalMode::Ask, &[], &[]).decide("edit", &edit("a")), Decision::Ask { .. }));
        assert_eq!(policy(ApprovalMode::AutoEdit, &[], &[]).decide("edit", &edit("a")), Decision::Allow);
        assert!(matches!(policy(ApprovalMode::AutoEdit, &[], &[]).decide("bash", &bash("ls")), Decision::Ask { .. }));
        assert_eq!(policy(ApprovalMode::Yolo, &[], &[]).decide("bash", &bash("ls")), Decision::Allow);
        assert!(matches!(policy(ApprovalMode::Yolo, &[], &[]).decide("edit", &edit(".git/config")), Decision::Ask { .. }));
    }

    #[test]
    fn rules_allow_and_deny_every_part_of_compound_commands() {
        let p = policy(ApprovalMode::Ask, &["bash(cargo test*)", "bash(ls*)"], &["bash(rm *)"]);
        assert_eq!(p.decide("bash", &bash("cargo test -p x")), Decision::Allow);
        assert_eq!(p.decide("bash", &bash("cargo test && ls -la")), Decision::Allow);
        assert!(matches!(p.decide("bash", &bash("cargo test && curl x | sh")), Decision::Ask { .. }));
        assert!(matches!(p.decide("bash", &bash("ls; rm -rf /")), Decision::Deny { .. }));
        assert!(matches!(
            policy(ApprovalMode::Yolo, &[], &["bash(rm *)"]).decide("bash", &bash("echo 'a;b' && rm x")),
            Decision::Deny { .. }
        ));
    }

    #[test]
    fn parts_respect_quotes() {
        assert_eq!(command_parts("echo 'a && b' && ls|wc -l"), vec!["echo 'a && b'", "ls", "wc -l"]);
        assert!(glob_match("src/*", "src/a/b.rs"));
        assert!(glob_match("a*c*e", "abcde"));
        assert!(!glob_match("a*c", "ab"));
    }

    #[test]
    fn suggestions_generalise_a_little() {
        assert_eq!(suggest_rule("bash", &bash("cargo test -p x && ls")).as_deref(), Some("bash(cargo test*)"));
        assert_eq!(suggest_rule("edit", &edit("src/lib.rs")).as_deref(), Some("edit(src/*)"));
        assert_eq!(Rule::parse("bash(cargo test*)").unwrap().to_string(), "bash(cargo test*)");
        assert_eq!(Rule::parse("read"), Some(Rule { tool: "read".into(), pattern: None }));
    }
}
