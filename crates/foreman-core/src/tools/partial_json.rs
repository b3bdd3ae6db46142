//! Incremental scanning of streaming JSON arguments, and completing a prefix into a value.
//!
//! [`JsonScanner`] is fed the argument text piece by piece in O(piece) and counts the top-level
//! values that started, so the throttle can invoke on new keys without parsing. [`complete_prefix`] turns any prefix of a JSON object into the value it promises so
//! far (open strings closed, dangling keys and partial scalars dropped, containers closed).

use serde_json::Value;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Expect {
    /// In an object, before a key (or `}`).
    Key,
    /// In an object, after a key, before `:`.
    Colon,
    /// Before a value (object member value, array element or top level).
    Value,
    /// Inside a scalar (number or literal) value.
    Scalar,
    /// After a value, before `,` or the closing bracket.
    After,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Frame {
    object: bool,
    expect: Expect,
    /// Byte offset up to which the frame's content is complete (after the bracket or the last
    /// complete member).
    safe: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum StringRole {
    Key,
    Value,
}

/// An incremental JSON tokenizer that tracks just enough to complete a prefix.
#[derive(Debug, Clone, Default)]
pub struct JsonScanner {
    len: usize,
    stack: Vec<Frame>,
    string: Option<StringRole>,
    escape: bool,
    unicode_left: u8,
    escape_start: usize,
    top_level_values: u64,
    done: bool,
}

impl JsonScanner {
    pub fn new() -> Self {
        Self::default()
    }

    /// Bytes fed so far.
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Counts top-level members whose value started; grows when a new key's value arrives.
    pub fn top_level_values(&self) -> u64 {
        self.top_level_values
    }

    /// Feeds the next piece of the text.
    #[inline]
    pub fn feed(&mut self, piece: &str) {
        let bytes = piece.as_bytes();
        let mut i = 0;
        while let Some(&byte) = bytes.get(i) {
            if self.string.is_some() && !self.escape && self.unicode_left == 0 {
                // Inside a string only a quote or a backslash matter: skip to the next one.
                let rest = bytes.get(i..).unwrap_or_default();
                match memchr::memchr2(b'"', b'\\', rest) {
                    Some(0) => {}
                    Some(offset) => {
                        i += offset;
                        continue;
                    }
                    None => break,
                }
            }
            self.step(self.len + i, byte);
            i += 1;
        }
        self.len += bytes.len();
    }

    fn top_level(&self) -> bool {
        self.stack.len() == 1
    }

    fn value_started(&mut self) {
        if self.top_level() {
            self.top_level_values += 1;
        }
    }

    fn value_finished(&mut self, end: usize) {
        if let Some(frame) = self.stack.last_mut() {
            frame.expect = Expect::After;
            frame.safe = end;
        } else {
            self.done = true;
        }
    }

    fn step(&mut self, pos: usize, byte: u8) {
        if let Some(role) = self.string {
            if self.unicode_left > 0 {
                self.unicode_left -= 1;
            } else if self.escape {
                self.escape = false;
                if byte == b'u' {
                    self.unicode_left = 4;
                }
            } else if byte == b'\\' {
                self.escape = true;
                self.escape_start = pos;
            } else if byte == b'"' {
                self.string = None;
                match role {
                    StringRole::Key => {
                        if let Some(frame) = self.stack.last_mut() {
                            frame.expect = Expect::Colon;
                        }
                    }
                    StringRole::Value => self.value_finished(pos + 1),
                }
            }
            return;
        }
        let expect = self.stack.last().map(|f| f.expect);
        if expect == Some(Expect::Scalar)
            && matches!(byte, b',' | b'}' | b']' | b' ' | b'\n' | b'\r' | b'\t')
        {
            self.value_finished(pos);
        }
        let expect = self.stack.last().map(|f| f.expect);
        match byte {
            b' ' | b'\n' | b'\r' | b'\t' => {}
            b'"' => {
                if expect == Some(Expect::Key) {
                    self.string = Some(StringRole::Key);
                } else {
                    self.value_started();
                    self.string = Some(StringRole::Value);
                }
            }
            b'{' | b'[' => {
                if !self.stack.is_empty() {
                    self.value_started();
                }
                self.stack.push(Frame {
                    object: byte == b'{',
                    expect: if byte == b'{' {
                        Expect::Key
                    } else {
                        Expect::Value
                    },
                    safe: pos + 1,
                });
            }
            b'}' | b']' => {
                self.stack.pop();
                self.value_finished(pos + 1);
            }
            b':' => {
                if let Some(frame) = self.stack.last_mut() {
                    frame.expect = Expect::Value;
                }
            }
            b',' => {
                if let Some(frame) = self.stack.last_mut() {
                    frame.safe = pos;
                    frame.expect = if frame.object {
                        Expect::Key
                    } else {
                        Expect::Value
                    };
                }
            }
            _ => {
                if expect == Some(Expect::Value) {
                    self.value_started();
                    if let Some(frame) = self.stack.last_mut() {
                        frame.expect = Expect::Scalar;
                    }
                }
            }
        }
    }

    /// What to append to the text fed so far to close it, when that alone can complete it (an
    /// open value string without a pending escape, or no open string); `None` otherwise.
    pub fn closing_suffix(&self) -> Option<String> {
        if self.done {
            return Some(String::new());
        }
        if self.stack.is_empty() {
            return None;
        }
        let mut suffix = String::with_capacity(self.stack.len() + 1);
        match self.string {
            Some(StringRole::Value) if !self.escape && self.unicode_left == 0 => suffix.push('"'),
            Some(_) => return None,
            None => {}
        }
        close(&mut suffix, &self.stack);
        Some(suffix)
    }

    /// The value `text` (everything fed to this scanner) promises so far, or `None` when nothing
    /// usable has arrived (e.g. no `{` yet).
    pub fn complete(&self, text: &str) -> Option<Value> {
        if self.done || self.stack.is_empty() {
            return serde_json::from_str(text).ok();
        }
        // First try: keep an open value string or a finished-looking scalar.
        let mut attempt = String::with_capacity(text.len() + self.stack.len() + 1);
        let innermost = self.stack.last().copied();
        match self.string {
            Some(StringRole::Value) => {
                let end = if self.escape || self.unicode_left > 0 {
                    self.escape_start
                } else {
                    text.len()
                };
                attempt.push_str(text.get(..end)?);
                attempt.push('"');
            }
            Some(StringRole::Key) => {}
            None => attempt.push_str(text),
        }
        if !attempt.is_empty() {
            close(&mut attempt, &self.stack);
            if let Ok(value) = serde_json::from_str(&attempt) {
                return Some(value);
            }
        }
        // Fallback: cut back to the innermost frame's last complete member.
        let frame = innermost?;
        attempt.clear();
        attempt.push_str(text.get(..frame.safe)?);
        close(&mut attempt, &self.stack);
        serde_json::from_str(&attempt).ok()
    }
}

fn close(text: &mut String, stack: &[Frame]) {
    for frame in stack.iter().rev() {
        text.push(if frame.object { '}' } else { ']' });
    }
}

/// Completes a prefix of a JSON text in one go (see [`JsonScanner::complete`]).
pub fn complete_prefix(text: &str) -> Option<Value> {
    let mut scanner = JsonScanner::new();
    scanner.feed(text);
    scanner.complete(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    #[test]
    fn open_strings_are_closed_and_dangling_keys_dropped() {
        assert_eq!(
            complete_prefix(r#"{"path": "src/ma"#),
            Some(json!({"path": "src/ma"}))
        );
        assert_eq!(
            complete_prefix(r#"{"path": "a", "con"#),
            Some(json!({"path": "a"}))
        );
        assert_eq!(
            complete_prefix(r#"{"path": "a", "content":"#),
            Some(json!({"path": "a"}))
        );
        assert_eq!(
            complete_prefix(r#"{"path": "a", "n": 12"#),
            Some(json!({"path": "a", "n": 12}))
        );
        assert_eq!(
            complete_prefix(r#"{"path": "a", "b": tr"#),
            Some(json!({"path": "a"}))
        );
        assert_eq!(
            complete_prefix(r#"{"e": [{"o": "x"}, {"o": "#),
            Some(json!({"e": [{"o": "x"}, {}]}))
        );
        assert_eq!(complete_prefix(r#"{"s": "a\"#), Some(json!({"s": "a"})));
        assert_eq!(complete_prefix(r#"{"s": "a\u00"#), Some(json!({"s": "a"})));
        assert_eq!(complete_prefix(""), None);
        assert_eq!(complete_prefix("{"), Some(json!({})));
    }

    #[test]
    fn closing_suffixes_close_open_strings_and_containers() {
        let suffix = |text: &str| {
            let mut scanner = JsonScanner::new();
            scanner.feed(text);
            scanner.closing_suffix()
        };
        assert_eq!(suffix(r#"{"a": [{"b": "x"#).as_deref(), Some("\"}]}"));
        assert_eq!(suffix(r#"{"a": 1"#).as_deref(), Some("}"));
        assert_eq!(suffix(r#"{"a": "x\"#), None, "pending escape");
        assert_eq!(suffix(r#"{"ke"#), None, "open key");
        assert_eq!(suffix("{}").as_deref(), Some(""));
        assert_eq!(suffix(""), None);
    }

    #[test]
    fn top_level_values_count_value_starts() {
        let mut scanner = JsonScanner::new();
        scanner.feed(r#"{"path": "#);
        assert_eq!(scanner.top_level_values(), 0);
        scanner.feed(r#""a"#);
        assert_eq!(scanner.top_level_values(), 1);
        scanner.feed(r#"", "nested": {"x": [1, 2]"#);
        assert_eq!(scanner.top_level_values(), 2, "nested members do not count");
        scanner.feed("}, \"n\": 5}");
        assert_eq!(scanner.top_level_values(), 3);
    }

    fn json_value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(Value::from),
            (-1e6f64..1e6).prop_map(Value::from),
            "[a-z\"\\\\\\u{e9}\\u{1F600}\n ]{0,8}".prop_map(Value::String),
        ];
        leaf.prop_recursive(3, 24, 4, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
                prop::collection::btree_map("[a-z]{1,3}", inner, 0..4)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    fn object() -> impl Strategy<Value = Value> {
        prop::collection::btree_map("[a-z]{1,3}", json_value(), 0..5)
            .prop_map(|m| Value::Object(m.into_iter().collect()))
    }

    proptest! {
        #[test]
        fn every_prefix_completes_to_an_object_and_the_whole_to_itself(
            value in object(),
            pretty in any::<bool>(),
            piece in 1usize..7,
        ) {
            let text = if pretty {
                serde_json::to_string_pretty(&value).unwrap()
            } else {
                serde_json::to_string(&value).unwrap()
            };
            let mut scanner = JsonScanner::new();
            let mut fed = String::new();
            let chars: Vec<char> = text.chars().collect();
            for chunk in chars.chunks(piece) {
                let piece: String = chunk.iter().collect();
                scanner.feed(&piece);
                fed.push_str(&piece);
                let completed = scanner.complete(&fed);
                prop_assert!(
                    matches!(completed, Some(Value::Object(_))),
                    "prefix {:?} gave {:?}", fed, completed
                );
            }
            prop_assert_eq!(scanner.complete(&fed), Some(value));
        }
    }
}
