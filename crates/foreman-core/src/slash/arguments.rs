//! Filling a command's prompt with what the user typed after its name, as Claude Code does:
//! `$ARGUMENTS` is all of it, `$1`, `$2`… its words (split as a shell would, quotes respected).
//! A prompt with neither gets the arguments appended (`ARGUMENTS: …`).

/// The words of `args`: split at whitespace, with `"…"` and `'…'` keeping spaces and `\`
/// escaping the next character (outside single quotes). An unclosed quote runs to the end.
pub fn words(args: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut started = false;
    let mut quote: Option<char> = None;
    let mut chars = args.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some('\''), c) => word.push(c),
            (_, '\\') => {
                if let Some(next) = chars.next() {
                    word.push(next);
                }
                started = true;
            }
            (Some(_), c) => word.push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                started = true;
            }
            (None, c) if c.is_whitespace() => {
                if started || !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
                started = false;
            }
            (None, c) => word.push(c),
        }
    }
    if started || !word.is_empty() {
        words.push(word);
    }
    words
}

/// The highest `$N` in `body` (0 when none).
pub fn highest_position(body: &str) -> usize {
    positions(body).map(|(_, _, n)| n).max().unwrap_or(0)
}

/// `body` with `$ARGUMENTS` and `$1`, `$2`… filled in from `args`; a missing word is empty (the
/// caller refuses that first). A body with neither gets `ARGUMENTS: args` appended when there
/// are arguments.
pub fn fill(body: &str, args: &str) -> String {
    let args = args.trim();
    let words = words(args);
    let has_all = body.contains("$ARGUMENTS");
    let has_positions = positions(body).next().is_some();
    let mut out = String::with_capacity(body.len() + args.len());
    let mut last = 0;
    for (start, end, n) in positions(body) {
        out.push_str(&body[last..start]);
        out.push_str(words.get(n - 1).map(String::as_str).unwrap_or_default());
        last = end;
    }
    out.push_str(&body[last..]);
    let mut out = out.replace("$ARGUMENTS", args);
    if !has_all && !has_positions && !args.is_empty() {
        if !out.ends_with('\n') {
            out.push('\n');
        }
        out.push_str(&format!("\nARGUMENTS: {args}\n"));
    }
    out
}

/// Each `$N` (N ≥ 1) in `body`: its byte range and N.
fn positions(body: &str) -> impl Iterator<Item = (usize, usize, usize)> + '_ {
    body.match_indices('$').filter_map(move |(at, _)| {
        let digits = body[at + 1..]
            .bytes()
            .take_while(u8::is_ascii_digit)
            .count();
        let n: usize = body[at + 1..at + 1 + digits].parse().ok()?;
        (n >= 1).then_some((at, at + 1 + digits, n))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_split_like_a_shell() {
        assert_eq!(
            words("42 \"two words\" 'it\"s' a\\ b ''"),
            ["42", "two words", "it\"s", "a b", ""]
        );
        assert_eq!(words("  "), Vec::<String>::new());
        assert_eq!(words("\"unclosed rest"), ["unclosed rest"]);
    }

    #[test]
    fn arguments_and_positions_are_filled() {
        assert_eq!(
            fill("Review PR $1 ($ARGUMENTS).", " 42 high "),
            "Review PR 42 (42 high)."
        );
        assert_eq!(fill("$2 then $1, $10", "a \"b c\""), "b c then a, ");
        assert_eq!(fill("Costs $ and $0.", ""), "Costs $ and $0.");
        assert_eq!(highest_position("use $1 and $3"), 3);
        assert_eq!(highest_position("no $ here"), 0);
    }

    #[test]
    fn a_prompt_without_placeholders_gets_the_arguments_appended() {
        assert_eq!(
            fill("Fix the tests.", "in core"),
            "Fix the tests.\n\nARGUMENTS: in core\n"
        );
        assert_eq!(fill("Fix the tests.\n", ""), "Fix the tests.\n");
    }
}
