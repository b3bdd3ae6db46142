//! Command patterns of rules: `cargo test *`, `npm run build`, `git status*`.
//!
//! A pattern is compared with a command's words (quotes removed, joined by single spaces). `*`
//! matches any run of characters; a pattern ending in ` *` also matches the command without
//! further words (`cargo test *` matches `cargo test`, not `cargo tests`). When a pattern allows,
//! its `*` never crosses a shell metacharacter, so `echo hello*` cannot take in `; rm` even if
//! quoted; when a pattern denies or asks, `*` matches anything.

use super::shell::{dequote, program_index, program_name};

/// Characters a `*` of an allow rule never matches.
const METACHARACTERS: [char; 9] = [';', '&', '|', '<', '>', '(', ')', '`', '\n'];

/// How far a pattern's `*` reaches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reach {
    /// Never across a shell metacharacter (allow rules).
    Plain,
    /// Across anything (deny and ask rules).
    Anywhere,
}

/// A rule's command pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandPattern {
    pattern: Vec<char>,
}

impl CommandPattern {
    pub fn new(raw: &str) -> Self {
        Self {
            pattern: normalise(&dequote(raw)).chars().collect(),
        }
    }

    /// Whether the command `words` matches. Reaching anywhere, the command also matches
    /// without its environment prefix and with its program's directory left out
    /// (`FOO=1 /bin/rm -rf x` is `rm -rf x` to a deny rule).
    pub fn matches(&self, words: &[String], reach: Reach) -> bool {
        if self.matches_words(words, reach) {
            return true;
        }
        if reach == Reach::Plain {
            return false;
        }
        let Some(at) = program_index(words) else {
            return false;
        };
        let mut bare = words[at..].to_vec();
        bare[0] = program_name(&bare[0]).to_owned();
        self.matches_words(&bare, reach)
    }

    fn matches_words(&self, words: &[String], reach: Reach) -> bool {
        let text: Vec<char> = normalise(&words.join(" ")).chars().collect();
        if let Some(head) = self.pattern.strip_suffix(&[' ', '*'])
            && head == text.as_slice()
        {
            return true;
        }
        glob(&self.pattern, &text, reach)
    }

    /// Whether the raw text `line` matches, `*` reaching anywhere.
    pub fn matches_text(&self, line: &str) -> bool {
        let text: Vec<char> = normalise(line).chars().collect();
        glob(&self.pattern, &text, Reach::Anywhere)
    }
}

fn normalise(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `*`-only glob matching by dynamic programming over (pattern, text) positions.
fn glob(pattern: &[char], text: &[char], reach: Reach) -> bool {
    // reachable[j]: the pattern so far can end exactly before text[j].
    let mut reachable = vec![false; text.len() + 1];
    reachable[0] = true;
    for &p in pattern {
        let mut next = vec![false; text.len() + 1];
        if p == '*' {
            for j in 0..=text.len() {
                let carried = j > 0
                    && next[j - 1]
                    && (reach == Reach::Anywhere || !METACHARACTERS.contains(&text[j - 1]));
                next[j] = reachable[j] || carried;
            }
        } else {
            for j in 1..=text.len() {
                next[j] = reachable[j - 1] && text[j - 1] == p;
            }
        }
        reachable = next;
    }
    reachable[text.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(text: &str) -> Vec<String> {
        text.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn wildcards_match_like_a_shell_pattern() {
        let p = |pattern: &str, words: &str| {
            CommandPattern::new(pattern).matches(&w(words), Reach::Plain)
        };
        assert!(p("cargo test*", "cargo test"));
        assert!(p("cargo test*", "cargo test --workspace"));
        assert!(!p("cargo test*", "cargo build"));
        assert!(p("npm run *", "npm  run   lint"));
        assert!(p("*.sh", "run.sh"));
        assert!(p("a*b*c", "axxbyyc"));
        assert!(!p("a*b*c", "axxbyy"));
        assert!(p("ls", "ls"));
        assert!(!p("ls", "ls -la"));
    }

    #[test]
    fn a_trailing_word_wildcard_stops_at_the_word() {
        let p = |pattern: &str, words: &str| {
            CommandPattern::new(pattern).matches(&w(words), Reach::Plain)
        };
        assert!(p("cargo test *", "cargo test"));
        assert!(p("cargo test *", "cargo test -p x"));
        assert!(!p("cargo test *", "cargo tests"));
    }

    #[test]
    fn an_allowing_wildcard_never_crosses_a_metacharacter() {
        let words = vec!["echo".to_owned(), "hello; touch x".to_owned()];
        let pattern = CommandPattern::new("echo hello*");
        assert!(!pattern.matches(&words, Reach::Plain));
        assert!(pattern.matches(&words, Reach::Anywhere));
        assert!(!CommandPattern::new("echo *").matches(&w("echo a>b"), Reach::Plain));
        // Quotes in a pattern are removed as in the command.
        assert!(
            CommandPattern::new("git commit -m \"wip\"")
                .matches(&w("git commit -m wip"), Reach::Plain)
        );
    }
}
