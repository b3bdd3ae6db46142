//! The YAML front matter of a `SKILL.md` or a command file: the lines between a first `---` line
//! and the next `---` (or `...`) line.
//!
//! A hand-written parser of the part of YAML these files use, so the release binary carries no
//! YAML library: `key: value` at the left edge, plain, `"double"` (with `\` escapes) and
//! `'single'` quoted values, `|` and `>` block scalars (with `-`/`+` chomping), plain values
//! continued on indented lines, lists (`[a, b]` or `- item` lines), and `#` comments. A nested
//! mapping (the Agent Skills format's `metadata:`) is accepted and kept as [`Value::Nested`].
//! Anything else is an error naming its line, so a file this parser misreads is reported, not
//! guessed at.

use thiserror::Error;

/// A field's value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    Text(String),
    List(Vec<String>),
    /// A `[a, b]` list, with the text as written (`argument-hint: [pr-number]` is shown so).
    Flow {
        items: Vec<String>,
        raw: String,
    },
    /// A nested mapping, not interpreted.
    Nested,
}

/// The fields of a front matter, in file order, and the body after it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FrontMatter {
    pub fields: Vec<(String, Value)>,
}

impl FrontMatter {
    /// The field `key` as text (a list is joined with `, `); `None` when missing or empty.
    pub fn text(&self, key: &str) -> Option<String> {
        let value = self.fields.iter().find(|(k, _)| k == key).map(|(_, v)| v)?;
        let text = match value {
            Value::Text(text) => text.trim().to_owned(),
            Value::List(items) => items.join(", "),
            Value::Flow { raw, .. } => raw.clone(),
            Value::Nested => return None,
        };
        Some(text).filter(|t| !t.is_empty())
    }

    /// The field `key` as a list: a YAML list as it is, a text split into its items (see
    /// [`split_items`]).
    pub fn list(&self, key: &str) -> Vec<String> {
        match self.fields.iter().find(|(k, _)| k == key).map(|(_, v)| v) {
            Some(Value::List(items) | Value::Flow { items, .. }) => items.clone(),
            Some(Value::Text(text)) => split_items(text),
            _ => Vec::new(),
        }
    }
}

/// Why a front matter could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum FrontMatterError {
    #[error("the front matter that starts on line 1 has no closing `---` line")]
    Unclosed,
    #[error("line {line}: {problem}")]
    Line { line: usize, problem: String },
}

/// Splits `text` into its front matter and its body. A text that does not start with a `---`
/// line has none (`Ok((None, text))`).
pub fn split(text: &str) -> Result<(Option<FrontMatter>, &str), FrontMatterError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = text.split_inclusive('\n');
    let Some(first) = lines.next() else {
        return Ok((None, text));
    };
    if first.trim_end() != "---" {
        return Ok((None, text));
    }
    let mut offset = first.len();
    let mut inner = Vec::new();
    for line in lines {
        let bare = line.trim_end();
        offset += line.len();
        if bare == "---" || bare == "..." {
            let front = parse(&inner)?;
            return Ok((Some(front), &text[offset..]));
        }
        inner.push(line.trim_end_matches(['\n', '\r']));
    }
    Err(FrontMatterError::Unclosed)
}

/// Parses the lines between the markers (the first is line 2 of the file).
fn parse(lines: &[&str]) -> Result<FrontMatter, FrontMatterError> {
    let mut fields = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let number = i + 2;
        let fail = |problem: String| FrontMatterError::Line {
            line: number,
            problem,
        };
        i += 1;
        if is_blank_or_comment(line) {
            continue;
        }
        if line.starts_with([' ', '\t']) {
            return Err(fail(
                "an indented line where a `key: value` line should be".into(),
            ));
        }
        let Some((key, rest)) = line.split_once(':') else {
            return Err(fail(format!(
                "expected `key: value`, found `{}`",
                line.trim()
            )));
        };
        let key = key.trim();
        if key.is_empty()
            || !key
                .chars()
                .all(|c| c.is_alphanumeric() || c == '-' || c == '_')
        {
            return Err(fail(format!("`{key}` is not a key")));
        }
        let rest = rest.trim();
        // The indented lines that belong to this key.
        let start = i;
        while i < lines.len() && (lines[i].trim().is_empty() || lines[i].starts_with([' ', '\t'])) {
            i += 1;
        }
        let block = &lines[start..i];
        let value = value(rest, block).map_err(fail)?;
        fields.push((key.to_owned(), value));
    }
    Ok(FrontMatter { fields })
}

/// The value of a key from what follows its colon and its indented lines.
fn value(rest: &str, block: &[&str]) -> Result<Value, String> {
    let content: Vec<&str> = block
        .iter()
        .copied()
        .filter(|l| !is_blank_or_comment(l))
        .collect();
    if let Some(indicator) = rest.strip_prefix(['|', '>']) {
        let folded = rest.starts_with('>');
        return block_scalar(folded, indicator, block).map(Value::Text);
    }
    if rest.is_empty() || rest.starts_with('#') {
        return match content.first() {
            None => Ok(Value::Text(String::new())),
            Some(first) if first.trim_start().starts_with('-') => list_lines(&content),
            Some(_) => Ok(Value::Nested),
        };
    }
    if rest.starts_with('[') {
        let raw = strip_comment(rest).to_owned();
        // `[pr-number] [priority]` is not one list: Claude Code's hints are written so.
        return Ok(match flow_list(rest) {
            Ok(items) if !items.iter().any(|i| i.contains(['[', ']'])) => {
                Value::Flow { items, raw }
            }
            _ if raw.ends_with(']') => Value::Text(raw),
            Err(problem) => return Err(problem),
            Ok(_) => Value::Text(raw),
        });
    }
    if rest.starts_with(['"', '\'']) {
        let joined = std::iter::once(rest)
            .chain(content.iter().map(|l| l.trim()))
            .collect::<Vec<_>>()
            .join(" ");
        return quoted(&joined).map(Value::Text);
    }
    // A plain value, folded with its continuation lines.
    let mut text = strip_comment(rest).to_owned();
    for line in content {
        text.push(' ');
        text.push_str(strip_comment(line.trim()));
    }
    Ok(Value::Text(text))
}

/// A `|` or `>` block: its lines without their common indentation; `>` joins lines with spaces
/// (an empty line stays a line break). `-` drops the final line break, `+` keeps every one.
fn block_scalar(folded: bool, indicator: &str, block: &[&str]) -> Result<String, String> {
    let indicator = strip_comment(indicator.trim());
    let (strip, keep) = match indicator.trim_matches(|c: char| c.is_ascii_digit()) {
        "" => (false, false),
        "-" => (true, false),
        "+" => (false, true),
        other => {
            return Err(format!(
                "`{other}` after a block indicator is not understood"
            ));
        }
    };
    let indent = block
        .iter()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start().len())
        .min()
        .unwrap_or(0);
    let lines: Vec<&str> = block
        .iter()
        .map(|l| {
            if l.trim().is_empty() {
                ""
            } else {
                &l[indent..]
            }
        })
        .collect();
    let mut text = String::new();
    for (n, line) in lines.iter().enumerate() {
        if n > 0 {
            let previous = lines[n - 1];
            match (folded, previous.is_empty(), line.is_empty()) {
                // Folded: lines join with a space; the break before empty lines goes.
                (true, false, false) => text.push(' '),
                (true, false, true) => {}
                _ => text.push('\n'),
            }
        }
        text.push_str(line);
    }
    let body = text.trim_end_matches('\n');
    let trailing = text.len() - body.len();
    let mut out = body.to_owned();
    if keep {
        out.push_str(&"\n".repeat(trailing + 1));
    } else if !strip && !body.is_empty() {
        out.push('\n');
    }
    Ok(out)
}

/// `- item` lines.
fn list_lines(lines: &[&str]) -> Result<Value, String> {
    lines
        .iter()
        .map(|line| {
            let item = line
                .trim_start()
                .strip_prefix('-')
                .ok_or_else(|| format!("`{}` in a list is not a `- item` line", line.trim()))?
                .trim();
            scalar(item)
        })
        .collect::<Result<_, _>>()
        .map(Value::List)
}

/// `[a, "b", c]`.
fn flow_list(rest: &str) -> Result<Vec<String>, String> {
    let rest = strip_comment(rest);
    let inner = rest
        .strip_prefix('[')
        .and_then(|r| r.strip_suffix(']'))
        .ok_or_else(|| format!("the list `{rest}` has no closing `]`"))?;
    split_outside(inner, |c| c == ',')
        .into_iter()
        .filter(|item| !item.trim().is_empty())
        .map(|item| scalar(item.trim()))
        .collect()
}

/// One scalar: quoted, or plain without a trailing comment.
fn scalar(item: &str) -> Result<String, String> {
    if item.starts_with(['"', '\'']) {
        quoted(item)
    } else {
        Ok(strip_comment(item).to_owned())
    }
}

/// A `"double"` (with escapes) or `'single'` (with `''`) quoted value; only a comment may follow.
fn quoted(text: &str) -> Result<String, String> {
    let mut chars = text.chars();
    let quote = chars.next().unwrap_or('"');
    let mut out = String::new();
    loop {
        let Some(c) = chars.next() else {
            return Err(format!("the quoted value {text} has no closing {quote}"));
        };
        match (quote, c) {
            ('\'', '\'') if chars.clone().next() == Some('\'') => {
                chars.next();
                out.push('\'');
            }
            ('"', '\\') => match chars.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some('r') => out.push('\r'),
                Some('0') => out.push('\0'),
                Some(other @ ('"' | '\\' | '/' | ' ')) => out.push(other),
                Some(other) => {
                    return Err(format!("`\\{other}` is not an escape this reader knows"));
                }
                None => return Err(format!("the quoted value {text} ends in `\\`")),
            },
            (q, c) if c == q => break,
            (_, c) => out.push(c),
        }
    }
    let after = chars.as_str().trim();
    if after.is_empty() || after.starts_with('#') {
        Ok(out)
    } else {
        Err(format!(
            "`{after}` follows the quoted value {quote}{out}{quote}"
        ))
    }
}

/// Items of a tool list written as text: `Bash(git add:*), Read` or `Bash(git:*) Read`: split at
/// commas, and at spaces when there are no commas, but never inside parentheses.
pub fn split_items(text: &str) -> Vec<String> {
    let by_commas = split_outside(text, |c| c == ',');
    let parts = if by_commas.len() > 1 {
        by_commas
    } else {
        split_outside(text, char::is_whitespace)
    };
    parts
        .into_iter()
        .map(|p| p.trim().to_owned())
        .filter(|p| !p.is_empty())
        .collect()
}

/// Splits `text` at the characters `at` accepts that are not inside parentheses or quotes.
fn split_outside(text: &str, at: impl Fn(char) -> bool) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut quote, mut start) = (0u32, None, 0);
    for (i, c) in text.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '(') => depth += 1,
            (None, ')') => depth = depth.saturating_sub(1),
            (None, c) if depth == 0 && at(c) => {
                parts.push(&text[start..i]);
                start = i + c.len_utf8();
            }
            _ => {}
        }
    }
    parts.push(&text[start..]);
    parts
}

/// A plain value without its ` # comment`.
fn strip_comment(text: &str) -> &str {
    match text.find(" #") {
        Some(at) => text[..at].trim_end(),
        None if text.starts_with('#') => "",
        None => text,
    }
}

fn is_blank_or_comment(line: &str) -> bool {
    let trimmed = line.trim();
    trimmed.is_empty() || trimmed.starts_with('#')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(text: &str) -> FrontMatter {
        split(text).unwrap().0.unwrap()
    }

    #[test]
    fn plain_and_quoted_values_and_the_body() {
        let text = "---\nname: pdf\ndescription: \"Fill \\\"PDF\\\" forms\" # why\nargument-hint: '[pr-number] it''s'\nmodel: claude-haiku # cheap\n---\nBody line\n";
        let (front, body) = split(text).unwrap();
        let front = front.unwrap();
        assert_eq!(front.text("name").as_deref(), Some("pdf"));
        assert_eq!(
            front.text("description").as_deref(),
            Some("Fill \"PDF\" forms")
        );
        assert_eq!(
            front.text("argument-hint").as_deref(),
            Some("[pr-number] it's")
        );
        assert_eq!(front.text("model").as_deref(), Some("claude-haiku"));
        assert_eq!(body, "Body line\n");
    }

    #[test]
    fn block_scalars_fold_or_keep_lines() {
        let front = fields(
            "---\ndescription: >\n  Extracts text\n  from PDFs.\n\n  Use for forms.\nnotes: |-\n  one\n    two\nname: x\n---\n",
        );
        assert_eq!(
            front.text("description").as_deref(),
            Some("Extracts text from PDFs.\nUse for forms.")
        );
        assert_eq!(front.fields[1].1, Value::Text("one\n  two".into()));
        assert_eq!(front.text("name").as_deref(), Some("x"));
    }

    #[test]
    fn plain_values_continue_on_indented_lines() {
        let front =
            fields("---\ndescription: Reviews a pull request\n  and says what to fix\n---\n");
        assert_eq!(
            front.text("description").as_deref(),
            Some("Reviews a pull request and says what to fix")
        );
    }

    #[test]
    fn tool_lists_in_every_spelling() {
        let front = fields(
            "---\nallowed-tools: Bash(git add:*), Bash(git status:*), Read\nb: [Read, \"Grep\"]\nc:\n  - Bash(ls -la, x)\n  - Edit\nd: Bash(git:*) Read\nmetadata:\n  author: me\n---\n",
        );
        assert_eq!(
            front.list("allowed-tools"),
            ["Bash(git add:*)", "Bash(git status:*)", "Read"]
        );
        assert_eq!(front.list("b"), ["Read", "Grep"]);
        assert_eq!(front.text("b").as_deref(), Some("[Read, \"Grep\"]"));
        assert_eq!(front.list("c"), ["Bash(ls -la, x)", "Edit"]);
        assert_eq!(front.list("d"), ["Bash(git:*)", "Read"]);
        assert_eq!(front.fields[4].1, Value::Nested);
        assert_eq!(front.text("metadata"), None);
    }

    #[test]
    fn argument_hints_keep_their_brackets() {
        let front = fields("---\na: [pr-number]\nb: [pr-number] [priority]\n---\n");
        assert_eq!(front.text("a").as_deref(), Some("[pr-number]"));
        assert_eq!(front.text("b").as_deref(), Some("[pr-number] [priority]"));
    }

    #[test]
    fn no_front_matter_is_not_an_error() {
        let (front, body) = split("# Title\n---\n").unwrap();
        assert_eq!((front, body), (None, "# Title\n---\n"));
        assert_eq!(split("").unwrap().0, None);
        // Windows line ends and a byte-order mark.
        let front = fields("\u{feff}---\r\nname: a\r\n---\r\nbody");
        assert_eq!(front.text("name").as_deref(), Some("a"));
    }

    #[test]
    fn broken_front_matter_names_its_line() {
        assert_eq!(
            split("---\nname: a\nbody\n").unwrap_err(),
            FrontMatterError::Unclosed
        );
        let err = split("---\nname: a\njust words\n---\n").unwrap_err();
        assert_eq!(
            err.to_string(),
            "line 3: expected `key: value`, found `just words`"
        );
        let err = split("---\ndescription: \"open\n---\n").unwrap_err();
        assert!(
            err.to_string().starts_with("line 2: the quoted value"),
            "{err}"
        );
        let err = split("---\ntools: [a, b\n---\n").unwrap_err();
        assert!(err.to_string().contains("no closing `]`"), "{err}");
    }
}
