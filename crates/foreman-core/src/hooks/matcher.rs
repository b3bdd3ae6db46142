//! A hook's matcher, as Claude Code reads it: empty or `*` matches everything; names made of
//! letters, digits and `_` joined by `|` match exactly (`Edit|Write`); anything else is a regex
//! that must match the whole name (`Notebook.*`, `mcp__github__.*`). A tool is matched by its
//! Claude Code name (`Bash`) and by ours (`bash`), so either spelling works.

use regex::Regex;

#[derive(Debug, Clone)]
pub enum Matcher {
    All,
    Names(Vec<String>),
    Pattern { source: String, regex: Regex },
}

impl PartialEq for Matcher {
    fn eq(&self, other: &Self) -> bool {
        self.shown() == other.shown()
    }
}

impl Eq for Matcher {}

impl Matcher {
    /// Reads `raw`; `Err` says what is wrong with it.
    pub fn parse(raw: &str) -> Result<Self, String> {
        let raw = raw.trim();
        if raw.is_empty() || raw == "*" {
            return Ok(Self::All);
        }
        let plain = |s: &str| {
            !s.is_empty()
                && s.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        };
        if raw.split('|').all(plain) {
            return Ok(Self::Names(raw.split('|').map(str::to_owned).collect()));
        }
        Regex::new(&format!("^(?:{raw})$"))
            .map(|regex| Self::Pattern {
                source: raw.to_owned(),
                regex,
            })
            .map_err(|e| format!("is not a valid regex ({e})"))
    }

    /// Whether it matches a tool (or a subject such as `startup`) called `claude` in Claude
    /// Code and `ours` here.
    pub fn matches(&self, claude: &str, ours: &str) -> bool {
        match self {
            Self::All => true,
            Self::Names(names) => names.iter().any(|n| n == claude || n == ours),
            Self::Pattern { regex, .. } => regex.is_match(claude) || regex.is_match(ours),
        }
    }

    /// As written; `None` for everything.
    pub fn shown(&self) -> Option<String> {
        match self {
            Self::All => None,
            Self::Names(names) => Some(names.join("|")),
            Self::Pattern { source, .. } => Some(source.clone()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_regexes_and_everything() {
        let names = Matcher::parse("Edit|Write").unwrap();
        assert!(names.matches("Edit", "edit"));
        assert!(names.matches("Write", "write"));
        assert!(!names.matches("MultiEdit", "multi_edit"));
        assert!(Matcher::parse("bash").unwrap().matches("Bash", "bash"));
        let pattern = Matcher::parse("mcp__github__.*").unwrap();
        assert!(pattern.matches("mcp__github__create_issue", "github__create_issue"));
        assert!(!pattern.matches("Bash", "bash"));
        assert!(Matcher::parse("").unwrap().matches("Read", "read"));
        assert!(Matcher::parse("*").unwrap().matches("Read", "read"));
        assert!(Matcher::parse("Edit(").is_err());
        assert_eq!(names.shown().as_deref(), Some("Edit|Write"));
    }
}
