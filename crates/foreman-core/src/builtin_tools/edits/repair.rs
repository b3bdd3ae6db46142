//! What models get wrong in the strings of an edit, and how each is read instead: each repair
//! is tried only after the strings as sent found nothing, is kept only when it finds exactly one
//! match, and is named in the result ([`Tolerance`]) so the model learns. A `new_string` that
//! replaces code with a placeholder is refused ([`placeholder`]).

/// A way the edit's strings were read other than as sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Tolerance {
    /// Line-number prefixes copied from `read` output were removed.
    LineNumbers,
    /// Blank lines at the start or end of `old_string` that the file does not have there.
    BlankLines,
    /// `\n`, `\t`, `\"` written as two characters where the file has the character.
    Unescaped,
    /// Indentation and trailing spaces.
    Indentation,
    /// Runs of spaces and tabs inside a line.
    InnerWhitespace,
    /// Unicode dashes, quotes and spaces matched as their ASCII forms.
    Punctuation,
    /// Spaces and tabs next to punctuation inside a line (`myFunc( a, b )` for
    /// `myFunc(a, b)`), read as optional; between two words a space is still needed.
    TokenSpacing,
    /// A deletion of whole lines quoted without their indentation took the lines whole.
    WholeLines,
}

impl Tolerance {
    /// What the model is told, as a sentence.
    pub fn describe(self) -> &'static str {
        match self {
            Self::LineNumbers => {
                "the line-number prefixes copied from read output were removed from old_string \
                 (and from new_string where every line had one); send the text without them"
            }
            Self::BlankLines => {
                "blank lines at the start or end of old_string, which the file does not have \
                 there, were left out"
            }
            Self::Unescaped => {
                "old_string matched only after reading its escape sequences (\\n, \\t, \\\") as \
                 the characters they stand for; send real newlines and quotes"
            }
            Self::Indentation => {
                "old_string matched only after normalising indentation and trailing spaces; the \
                 replacement was re-indented to fit"
            }
            Self::InnerWhitespace => {
                "old_string matched only after reading runs of spaces and tabs inside lines as \
                 one space"
            }
            Self::Punctuation => {
                "old_string matched only after reading Unicode dashes, quotes and spaces as their \
                 ASCII forms; the file has the ASCII ones"
            }
            Self::TokenSpacing => {
                "old_string matched only after ignoring spaces and tabs next to brackets, commas \
                 and other punctuation inside lines; the file spaces its tokens differently"
            }
            Self::WholeLines => {
                "the deleted lines were removed whole, with their indentation, so the next line \
                 keeps its own"
            }
        }
    }
}

/// The edit's strings with one repair applied to both, when it changes `old`.
pub type Repaired = (String, String);

/// `old` and `new` without the line-number prefixes `read` (or `cat -n`, `12 | `, `12→`) puts
/// before lines, when every line of `old` has one, numbered one after another; `new` loses its
/// prefixes only when every line of it has one too.
pub fn strip_line_numbers(old: &str, new: &str) -> Option<Repaired> {
    let stripped_old = strip_numbered(old)?;
    let stripped_new = strip_numbered(new).unwrap_or_else(|| new.to_owned());
    Some((stripped_old, stripped_new))
}

fn strip_numbered(text: &str) -> Option<String> {
    let ends = text.ends_with('\n');
    let body = text.strip_suffix('\n').unwrap_or(text);
    let mut out = Vec::new();
    let mut previous: Option<u64> = None;
    for line in body.split('\n') {
        let (number, rest) = numbered(line)?;
        if previous.is_some_and(|p| p + 1 != number) {
            return None;
        }
        previous = Some(number);
        out.push(rest);
    }
    let mut joined = out.join("\n");
    if ends {
        joined.push('\n');
    }
    Some(joined)
}

/// The number and the rest of a line that starts with a line-number prefix.
fn numbered(line: &str) -> Option<(u64, &str)> {
    let digits_at = line.len() - line.trim_start_matches(' ').len();
    let after_spaces = &line[digits_at..];
    let digits = after_spaces.len()
        - after_spaces
            .trim_start_matches(|c: char| c.is_ascii_digit())
            .len();
    if digits == 0 {
        return None;
    }
    let number = after_spaces[..digits].parse().ok()?;
    let rest = &after_spaces[digits..];
    let rest = ["\t", "→", " | ", " |", ": ", " → "]
        .iter()
        .find_map(|sep| rest.strip_prefix(sep))?;
    Some((number, rest))
}

/// `old` without the blank lines at its start and end, `new` without as many of its own.
pub fn trim_blank_lines(old: &str, new: &str) -> Option<Repaired> {
    let (trimmed, lead, trail) = trim_blank(old, usize::MAX, usize::MAX)?;
    if trimmed.trim().is_empty() {
        return None;
    }
    let new = trim_blank(new, lead, trail).map_or_else(|| new.to_owned(), |(t, _, _)| t);
    Some((trimmed, new))
}

/// `text` without at most `lead` blank lines at its start and `trail` at its end (a final line
/// break stays); the counts removed. `None` when none was.
fn trim_blank(text: &str, lead: usize, trail: usize) -> Option<(String, usize, usize)> {
    let ends = text.ends_with('\n');
    let body = text.strip_suffix('\n').unwrap_or(text);
    let lines: Vec<&str> = body.split('\n').collect();
    let blank = |l: &&&str| l.trim().is_empty();
    let leading = lines.iter().take_while(blank).count().min(lead);
    let trailing = lines[leading..]
        .iter()
        .rev()
        .take_while(blank)
        .count()
        .min(trail);
    if leading + trailing == 0 {
        return None;
    }
    let mut out = lines[leading..lines.len() - trailing].join("\n");
    if ends || trailing > 0 {
        out.push('\n');
    }
    Some((out, leading, trailing))
}

/// `old` and `new` with `\n`, `\t`, `\"`, `\'` and `\\` written out read as what they stand for,
/// when `old` has any.
pub fn unescape(old: &str, new: &str) -> Option<Repaired> {
    let fixed = unescaped(old)?;
    Some((fixed, unescaped(new).unwrap_or_else(|| new.to_owned())))
}

fn unescaped(text: &str) -> Option<String> {
    if !text.contains('\\') {
        return None;
    }
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    let mut changed = false;
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.clone().next() {
            Some(e @ ('n' | 't' | '"' | '\'' | '\\')) => {
                chars.next();
                changed = true;
                out.push(match e {
                    'n' => '\n',
                    't' => '\t',
                    other => other,
                });
            }
            _ => out.push(c),
        }
    }
    changed.then_some(out)
}

/// The first line of `new` that stands in for code instead of being code (`// ... rest of the
/// code ...`, `(rest of methods unchanged)`) and that `old` does not have.
pub fn placeholder(old: &str, new: &str) -> Option<String> {
    new.lines()
        .map(str::trim)
        .filter(|line| is_placeholder(line))
        .find(|line| !old.lines().any(|o| o.trim() == *line))
        .map(str::to_owned)
}

fn is_placeholder(line: &str) -> bool {
    let marked = [
        "//", "#", "/*", "*", "--", "<!--", "(", "[", "{/*", "...", "…",
    ]
    .iter()
    .any(|m| line.starts_with(m));
    if !marked {
        return false;
    }
    let lower = line.to_lowercase();
    let ellipsis = lower.contains("...") || lower.contains('…');
    let words: String = lower
        .chars()
        .map(|c| if c.is_alphanumeric() { c } else { ' ' })
        .collect();
    let words: Vec<&str> = words.split_whitespace().collect();
    if words.is_empty() || words.len() > 10 {
        return false;
    }
    let starts = [
        "rest",
        "remaining",
        "remainder",
        "existing",
        "other",
        "previous",
        "unchanged",
        "same",
    ];
    let about = [
        "code",
        "codes",
        "method",
        "methods",
        "function",
        "functions",
        "implementation",
        "file",
        "content",
        "contents",
        "lines",
        "logic",
        "class",
        "body",
        "unchanged",
    ];
    let leads = words
        .iter()
        .position(|w| starts.contains(w))
        .is_some_and(|i| i <= 1);
    let names_code = words.iter().any(|w| about.contains(w));
    let says_kept =
        words.contains(&"unchanged") || words.contains(&"omitted") || lower.contains("as before");
    leads && names_code && (ellipsis || says_kept)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_numbers_in_every_form_come_off_only_when_consecutive() {
        let (old, new) =
            strip_line_numbers("    12\tlet a = 1;\n    13\tlet b = 2;\n", "x\n").unwrap();
        assert_eq!(
            (old.as_str(), new.as_str()),
            ("let a = 1;\nlet b = 2;\n", "x\n")
        );
        assert_eq!(strip_numbered("12→a\n13→b").unwrap(), "a\nb");
        assert_eq!(strip_numbered("12 | a\n13 | b").unwrap(), "a\nb");
        assert_eq!(strip_numbered("7: a").unwrap(), "a");
        assert!(strip_numbered("12\ta\n14\tb").is_none(), "not consecutive");
        assert!(
            strip_numbered("1 apple\n2 pears").is_none(),
            "a plain space is not a prefix"
        );
        assert!(
            strip_numbered("a\n2\tb").is_none(),
            "every line must have one"
        );
    }

    #[test]
    fn blank_lines_come_off_old_and_as_many_off_new() {
        let (old, new) = trim_blank_lines("\n\nfoo\n\n", "\nbar\n\n\n").unwrap();
        assert_eq!((old.as_str(), new.as_str()), ("foo\n", "bar\n\n"));
        assert!(trim_blank_lines("foo\n", "bar").is_none());
        assert!(
            trim_blank_lines("\n \n", "x").is_none(),
            "nothing but blank lines"
        );
    }

    #[test]
    fn escapes_are_read_and_a_lone_backslash_stays() {
        let (old, new) = unescape(r#"say(\"hi\")\nnext"#, r"a\tb").unwrap();
        assert_eq!(old, "say(\"hi\")\nnext");
        assert_eq!(new, "a\tb");
        assert!(unescape(r"C:\path", "x").is_none());
    }

    #[test]
    fn placeholders_are_found_and_real_comments_are_not() {
        for line in [
            "// ... rest of the code ...",
            "(rest of methods unchanged)",
            "# ... existing code ...",
            "/* rest of file unchanged */",
            "// … other methods …",
        ] {
            assert_eq!(
                placeholder("fn a() {}", &format!("x\n{line}\n")).as_deref(),
                Some(line),
                "{line}"
            );
        }
        for line in [
            "// rest of the function handles errors",
            "...",
            "// the same as before we check the cache",
            "other_code(); // ... unchanged",
        ] {
            assert_eq!(placeholder("", line), None, "{line}");
        }
        let kept = "    // ... rest of the code ...";
        assert_eq!(
            placeholder(kept, kept),
            None,
            "a placeholder the text already had"
        );
    }
}
