//! The words of a command as the shell sees them: quotes and escapes removed.

/// `raw` (one shell word as written) with its quotes and backslash escapes removed, the way the
/// shell's quote removal does: `r"m"` is `rm`, `'a b'` is `a b`, `a\ b` is `a b`. Expansions
/// (`$HOME`) stay as written; a backslash-newline disappears.
pub fn dequote(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars().peekable();
    let mut single = false;
    let mut double = false;
    while let Some(c) = chars.next() {
        match c {
            '\'' if !double => single = !single,
            '"' if !single => double = !double,
            '\\' if !single => match chars.next() {
                Some('\n') => {}
                // Inside double quotes a backslash only escapes these; elsewhere it stays.
                Some(next) if double && !matches!(next, '$' | '`' | '"' | '\\') => {
                    out.push('\\');
                    out.push(next);
                }
                Some(next) => out.push(next),
                None => out.push('\\'),
            },
            _ => out.push(c),
        }
    }
    out
}

/// Whether `word` is an assignment (`NAME=value`), as in an environment prefix `FOO=1 cmd`.
pub fn is_assignment(word: &str) -> bool {
    let Some((name, _)) = word.split_once('=') else {
        return false;
    };
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The index of the program among a command's words: the first word that is not an assignment.
pub fn program_index(words: &[String]) -> Option<usize> {
    words.iter().position(|w| !is_assignment(w))
}

/// The program's name without its directory (`/usr/bin/env` is `env`).
pub fn program_name(word: &str) -> &str {
    word.rsplit('/').next().unwrap_or(word)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quote_removal() {
        assert_eq!(dequote(r#"r"m""#), "rm");
        assert_eq!(dequote("'a b'"), "a b");
        assert_eq!(dequote(r"a\ b"), "a b");
        assert_eq!(dequote(r#""a\"b""#), "a\"b");
        assert_eq!(dequote(r#""a\nb""#), r"a\nb");
        assert_eq!(dequote("'$(x)'"), "$(x)");
        assert_eq!(dequote("$HOME/x"), "$HOME/x");
        assert_eq!(dequote("a\\\nb"), "ab");
        assert_eq!(dequote(r"\;"), ";");
    }

    #[test]
    fn assignments_and_programs() {
        assert!(is_assignment("FOO=1"));
        assert!(is_assignment("_x2="));
        assert!(!is_assignment("--opt=1"));
        assert!(!is_assignment("1A=2"));
        let words: Vec<String> = ["A=1", "B=2", "/usr/bin/env", "x"]
            .map(String::from)
            .to_vec();
        assert_eq!(program_index(&words), Some(2));
        assert_eq!(program_name(&words[2]), "env");
    }
}
