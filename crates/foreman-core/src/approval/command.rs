//! Splitting a shell command line into the commands it runs.

/// Splits `command` on `&&`, `||`, `;`, `|` and newlines outside quotes, returning each part
/// trimmed. Subshells and substitutions (`$(…)`, backticks, `(…)`) are kept inside their part,
/// and such a part never matches a narrow allow rule because its text includes them.
pub fn split_compound_command(command: &str) -> Vec<String> {
    let mut parts = Vec::new();
    let mut current = String::new();
    let mut chars = command.chars().peekable();
    let mut single = false;
    let mut double = false;
    let mut depth = 0usize;
    while let Some(c) = chars.next() {
        match c {
            '\\' if !single => {
                current.push(c);
                if let Some(next) = chars.next() {
                    current.push(next);
                }
            }
            '\'' if !double => {
                single = !single;
                current.push(c);
            }
            '"' if !single => {
                double = !double;
                current.push(c);
            }
            '(' if !single && !double => {
                depth += 1;
                current.push(c);
            }
            ')' if !single && !double => {
                depth = depth.saturating_sub(1);
                current.push(c);
            }
            ';' | '\n' if !single && !double && depth == 0 => flush(&mut parts, &mut current),
            '&' if !single && !double && depth == 0 && chars.peek() == Some(&'&') => {
                chars.next();
                flush(&mut parts, &mut current);
            }
            '|' if !single && !double && depth == 0 => {
                if chars.peek() == Some(&'|') {
                    chars.next();
                }
                flush(&mut parts, &mut current);
            }
            _ => current.push(c),
        }
    }
    flush(&mut parts, &mut current);
    parts
}

fn flush(parts: &mut Vec<String>, current: &mut String) {
    let part = current.trim();
    if !part.is_empty() {
        parts.push(part.to_owned());
    }
    current.clear();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_on_operators_outside_quotes() {
        assert_eq!(
            split_compound_command("cargo test && rm -rf /"),
            ["cargo test", "rm -rf /"]
        );
        assert_eq!(
            split_compound_command("a || b; c | d\ne"),
            ["a", "b", "c", "d", "e"]
        );
        assert_eq!(
            split_compound_command("echo 'a && b' \"c; d\""),
            ["echo 'a && b' \"c; d\""]
        );
        assert_eq!(split_compound_command("echo a\\;b"), ["echo a\\;b"]);
        assert_eq!(split_compound_command("(cd x && make)"), ["(cd x && make)"]);
        assert_eq!(
            split_compound_command("echo $(a; b) ; c"),
            ["echo $(a; b)", "c"]
        );
        assert!(split_compound_command("  ;; ").is_empty());
    }
}
