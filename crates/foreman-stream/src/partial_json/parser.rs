//! The incremental parser: fragments in, patches out, a best-effort snapshot at any time.
//!
//! The parser is a byte-driven state machine with an explicit stack of open containers, so it
//! never recurses and never looks at a byte twice. Each open container owns its finished
//! children; the value being built (an open string, or a child container) is attached to its
//! parent only when it completes. Appending to the open string is therefore a `push_str` onto one
//! buffer, and a `push` costs time proportional to its fragment (plus the depth of the path for
//! the patches it reports), however much was received before.

use compact_str::CompactString;
use serde_json::{Map, Value};

use super::error::PartialJsonError;
use super::escape::{Escape, EscapeFault, EscapeStep};
use super::literal::Literal;
use super::number::{self, NumberState, NumberStep};
use super::scan::{Stop, scan_string};
use crate::patch::Patch;
use crate::path::{JsonPath, PathSegment};

/// How deep containers may nest. Deeper input is rejected rather than risking the stack of
/// whoever recursively drops or serialises the value.
pub const MAX_DEPTH: usize = 512;

/// An open container and its finished children.
#[derive(Debug, Clone)]
enum Frame {
    Array(Vec<Value>),
    Object {
        map: Map<String, Value>,
        /// The key of the member being parsed (valid once its key string is complete).
        key: String,
    },
}

impl Frame {
    /// The path segment of the child being built inside this container.
    fn child_segment(&self) -> PathSegment {
        match self {
            Frame::Array(items) => PathSegment::Index(items.len()),
            Frame::Object { key, .. } => PathSegment::Key(CompactString::from(key.as_str())),
        }
    }
}

/// What the parser expects next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// A value must start (at the root, after `:`, after `,` in an array).
    Value,
    /// Just after `[`: a value or `]`.
    ArrayFirst,
    /// Just after `{`: a key or `}`.
    ObjectFirst,
    /// After `,` in an object: a key.
    Key,
    /// After a key: `:`.
    Colon,
    /// After a value: `,` or the closing bracket, or (at the root) only whitespace.
    AfterValue,
    /// Inside a string: a key or a value; `escape` is an escape in progress.
    Str { key: bool, escape: Option<Escape> },
    /// Inside a number whose text is in `PartialJsonParser::number`.
    Number(NumberState),
    /// Inside a literal, `matched` letters in.
    Literal { literal: Literal, matched: usize },
}

/// An incremental parser of one JSON document received in fragments.
///
/// Feed fragments with [`push`](Self::push), which reports what changed as [`Patch`]es; call
/// [`finish`](Self::finish) at the end of input. [`snapshot`](Self::snapshot) shows the
/// best-effort value of what was received so far (see the [module docs](super) for the rules).
/// After an error every further call returns the same error.
#[derive(Debug, Clone)]
pub struct PartialJsonParser {
    state: State,
    stack: Vec<Frame>,
    /// The root value, once complete.
    root: Option<Value>,
    /// The open value string's text (escapes decoded).
    text: String,
    /// The open key string's text.
    key: String,
    /// The pending number's text.
    number: String,
    /// Whether the open value string has been reported (by a `Set` or `Push`).
    text_announced: bool,
    /// How many bytes of `text` have been reported.
    text_reported: usize,
    /// The open value string's path, computed once per string.
    text_path: Option<JsonPath>,
    /// Bytes received before the current fragment.
    offset: usize,
    failed: Option<PartialJsonError>,
    finished: bool,
}

impl Default for PartialJsonParser {
    fn default() -> Self {
        Self::new()
    }
}

impl PartialJsonParser {
    /// A parser that has received nothing; its snapshot is `null`.
    pub fn new() -> Self {
        Self {
            state: State::Value,
            stack: Vec::new(),
            root: None,
            text: String::new(),
            key: String::new(),
            number: String::new(),
            text_announced: false,
            text_reported: 0,
            text_path: None,
            offset: 0,
            failed: None,
            finished: false,
        }
    }

    /// Feeds the next fragment and returns what it changed.
    ///
    /// Fails as soon as the input is no longer a prefix of any JSON document; the parser then
    /// stays failed.
    pub fn push(&mut self, fragment: &str) -> Result<Vec<Patch>, PartialJsonError> {
        // Almost every push of a streamed string reports exactly one patch (an `Append`).
        let mut patches = Vec::with_capacity(1);
        self.push_into(fragment, &mut patches)?;
        Ok(patches)
    }

    /// Like [`push`](Self::push), but appends the patches to `out`, so a consumer that keeps one
    /// buffer (and empties it as it applies them) allocates nothing per fragment. On an error
    /// `out` is left as it was.
    pub fn push_into(
        &mut self,
        fragment: &str,
        out: &mut Vec<Patch>,
    ) -> Result<(), PartialJsonError> {
        self.check_usable()?;
        let before = out.len();
        match self.feed(fragment, out) {
            Ok(()) => {
                if matches!(self.state, State::Str { key: false, .. }) {
                    self.flush_text(out);
                }
                self.offset += fragment.len();
                Ok(())
            }
            Err(error) => {
                out.truncate(before);
                Err(self.fail(error))
            }
        }
    }

    /// Declares the end of input: a number at the very end of the document is completed.
    ///
    /// Fails with [`PartialJsonError::Incomplete`] if the document is not complete; the snapshot
    /// is then left as it was.
    pub fn finish(&mut self) -> Result<Vec<Patch>, PartialJsonError> {
        self.check_usable()?;
        let mut patches = Vec::new();
        let complete = self.stack.is_empty()
            && match self.state {
                State::AfterValue => true,
                State::Number(number) => number.is_complete(),
                _ => false,
            };
        if !complete {
            return Err(self.fail(PartialJsonError::Incomplete {
                offset: self.offset,
            }));
        }
        if let State::Number(_) = self.state
            && let Err(error) = self.complete_number(self.offset, &mut patches)
        {
            return Err(self.fail(error));
        }
        self.finished = true;
        Ok(patches)
    }

    /// Whether `finish` has succeeded.
    pub fn is_finished(&self) -> bool {
        self.finished
    }

    /// The complete value, once `finish` has succeeded (borrowed: unlike
    /// [`snapshot`](Self::snapshot) it copies nothing).
    pub fn complete_value(&self) -> Option<&Value> {
        self.root.as_ref().filter(|_| self.finished)
    }

    /// The best-effort value of the input so far; open containers are shown closed.
    ///
    /// This copies the value (it is the one call whose cost grows with the document); consumers
    /// that follow a stream should apply the patches instead.
    pub fn snapshot(&self) -> Value {
        let mut child = match self.state {
            State::Str { key: false, .. } => Some(Value::String(self.text.clone())),
            _ => None,
        };
        for frame in self.stack.iter().rev() {
            child = Some(match frame {
                Frame::Array(items) => {
                    let mut items = items.clone();
                    items.extend(child);
                    Value::Array(items)
                }
                Frame::Object { map, key } => {
                    let mut map = map.clone();
                    if let Some(value) = child {
                        map.insert(key.clone(), value);
                    }
                    Value::Object(map)
                }
            });
        }
        child.or_else(|| self.root.clone()).unwrap_or(Value::Null)
    }

    fn check_usable(&self) -> Result<(), PartialJsonError> {
        if let Some(error) = &self.failed {
            return Err(error.clone());
        }
        if self.finished {
            return Err(PartialJsonError::Finished);
        }
        Ok(())
    }

    fn fail(&mut self, error: PartialJsonError) -> PartialJsonError {
        self.failed = Some(error.clone());
        error
    }

    fn feed(&mut self, fragment: &str, patches: &mut Vec<Patch>) -> Result<(), PartialJsonError> {
        let bytes = fragment.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let offset = self.offset + i;
            match self.state {
                State::Str { key, escape: None } => {
                    let buf = if key { &mut self.key } else { &mut self.text };
                    let (stop_at, stop) = scan_string(fragment, i, buf);
                    i = stop_at;
                    match stop {
                        Stop::End => break,
                        Stop::Quote => self.close_string(key, patches),
                        Stop::Backslash => {
                            self.state = State::Str {
                                key,
                                escape: Some(Escape::Backslash),
                            }
                        }
                        Stop::Control(byte) => {
                            return Err(PartialJsonError::ControlCharacter {
                                code: u32::from(byte),
                                offset: self.offset + i,
                            });
                        }
                    }
                    i += 1;
                }
                State::Str {
                    key,
                    escape: Some(escape),
                } => {
                    let step = escape.step(bytes[i]).map_err(|fault| match fault {
                        EscapeFault::Invalid => PartialJsonError::InvalidEscape { offset },
                        EscapeFault::LoneSurrogate => PartialJsonError::LoneSurrogate { offset },
                    })?;
                    let escape = match step {
                        EscapeStep::Continue(next) => Some(next),
                        EscapeStep::Char(c) => {
                            if key {
                                self.key.push(c);
                            } else {
                                self.text.push(c);
                            }
                            None
                        }
                    };
                    self.state = State::Str { key, escape };
                    i += 1;
                }
                State::Number(number) => match number.step(bytes[i]) {
                    NumberStep::Continue(next) => {
                        self.number.push(char::from(bytes[i]));
                        self.state = State::Number(next);
                        i += 1;
                    }
                    // The terminating byte is left for the state after the value.
                    NumberStep::End => self.complete_number(offset, patches)?,
                    NumberStep::Invalid => {
                        return Err(unexpected(fragment, i, offset, number.expected()));
                    }
                },
                State::Literal { literal, matched } => {
                    if !literal.matches(matched, bytes[i]) {
                        return Err(unexpected(fragment, i, offset, literal.text()));
                    }
                    let matched = matched + 1;
                    if literal.is_complete(matched) {
                        self.complete_scalar(literal.value(), patches);
                    } else {
                        self.state = State::Literal { literal, matched };
                    }
                    i += 1;
                }
                State::Value
                | State::ArrayFirst
                | State::ObjectFirst
                | State::Key
                | State::Colon
                | State::AfterValue => {
                    let byte = bytes[i];
                    if !matches!(byte, b' ' | b'\t' | b'\n' | b'\r') {
                        self.structural(fragment, i, offset, patches)?;
                    }
                    i += 1;
                }
            }
        }
        Ok(())
    }

    /// Handles a non-whitespace byte between tokens.
    fn structural(
        &mut self,
        fragment: &str,
        i: usize,
        offset: usize,
        patches: &mut Vec<Patch>,
    ) -> Result<(), PartialJsonError> {
        let byte = fragment.as_bytes()[i];
        match self.state {
            State::ArrayFirst if byte == b']' => self.close_container(patches),
            State::Value | State::ArrayFirst => self.begin_value(fragment, i, offset, patches)?,
            State::ObjectFirst if byte == b'}' => self.close_container(patches),
            State::ObjectFirst | State::Key if byte == b'"' => {
                self.key.clear();
                self.state = State::Str {
                    key: true,
                    escape: None,
                };
            }
            State::ObjectFirst => return Err(unexpected(fragment, i, offset, "a key or `}`")),
            State::Key => return Err(unexpected(fragment, i, offset, "a key")),
            State::Colon if byte == b':' => self.state = State::Value,
            State::Colon => return Err(unexpected(fragment, i, offset, "`:`")),
            State::AfterValue => match (self.stack.last(), byte) {
                (Some(Frame::Array(_)), b',') => self.state = State::Value,
                (Some(Frame::Object { .. }), b',') => self.state = State::Key,
                (Some(Frame::Array(_)), b']') | (Some(Frame::Object { .. }), b'}') => {
                    self.close_container(patches)
                }
                (Some(Frame::Array(_)), _) => {
                    return Err(unexpected(fragment, i, offset, "`,` or `]`"));
                }
                (Some(Frame::Object { .. }), _) => {
                    return Err(unexpected(fragment, i, offset, "`,` or `}`"));
                }
                (None, _) => return Err(unexpected(fragment, i, offset, "the end of input")),
            },
            State::Str { .. } | State::Number(_) | State::Literal { .. } => {
                return Err(unexpected(fragment, i, offset, "a token boundary"));
            }
        }
        Ok(())
    }

    fn begin_value(
        &mut self,
        fragment: &str,
        i: usize,
        offset: usize,
        patches: &mut Vec<Patch>,
    ) -> Result<(), PartialJsonError> {
        let byte = fragment.as_bytes()[i];
        match byte {
            b'"' => {
                self.text.clear();
                self.text_announced = false;
                self.text_reported = 0;
                self.text_path = None;
                self.state = State::Str {
                    key: false,
                    escape: None,
                };
            }
            b'[' | b'{' => {
                if self.stack.len() >= MAX_DEPTH {
                    return Err(PartialJsonError::TooDeep {
                        limit: MAX_DEPTH,
                        offset,
                    });
                }
                let (frame, empty, state) = if byte == b'[' {
                    (
                        Frame::Array(Vec::new()),
                        Value::Array(Vec::new()),
                        State::ArrayFirst,
                    )
                } else {
                    let frame = Frame::Object {
                        map: Map::new(),
                        key: String::new(),
                    };
                    (frame, Value::Object(Map::new()), State::ObjectFirst)
                };
                self.announce(empty, patches);
                self.stack.push(frame);
                self.state = state;
            }
            _ => {
                if let Some(number) = NumberState::start(byte) {
                    self.number.clear();
                    self.number.push(char::from(byte));
                    self.state = State::Number(number);
                } else if let Some(literal) = Literal::start(byte) {
                    self.state = State::Literal {
                        literal,
                        matched: 1,
                    };
                } else {
                    return Err(unexpected(fragment, i, offset, "a JSON value"));
                }
            }
        }
        Ok(())
    }

    fn complete_number(
        &mut self,
        offset: usize,
        patches: &mut Vec<Patch>,
    ) -> Result<(), PartialJsonError> {
        let value =
            number::to_number(&self.number).ok_or_else(|| PartialJsonError::NumberOutOfRange {
                text: self.number.clone(),
                offset,
            })?;
        self.complete_scalar(Value::Number(value), patches);
        Ok(())
    }

    /// A number or literal is complete: it appears now.
    fn complete_scalar(&mut self, value: Value, patches: &mut Vec<Patch>) {
        self.announce(value.clone(), patches);
        self.attach(value);
    }

    fn close_string(&mut self, key: bool, patches: &mut Vec<Patch>) {
        if key {
            if let Some(Frame::Object { key, .. }) = self.stack.last_mut() {
                std::mem::swap(key, &mut self.key);
            }
            self.state = State::Colon;
        } else {
            self.flush_text(patches);
            self.text_path = None;
            let text = std::mem::take(&mut self.text);
            self.attach(Value::String(text));
        }
    }

    fn close_container(&mut self, patches: &mut Vec<Patch>) {
        let path = self.path_to(self.stack.len().saturating_sub(1));
        if let Some(frame) = self.stack.pop() {
            patches.push(Patch::Close { path });
            let value = match frame {
                Frame::Array(items) => Value::Array(items),
                Frame::Object { map, .. } => Value::Object(map),
            };
            self.attach(value);
        }
    }

    /// Puts a complete value into its parent (or makes it the root).
    fn attach(&mut self, value: Value) {
        match self.stack.last_mut() {
            None => self.root = Some(value),
            Some(Frame::Array(items)) => items.push(value),
            Some(Frame::Object { map, key }) => {
                map.insert(std::mem::take(key), value);
            }
        }
        self.state = State::AfterValue;
    }

    /// Reports that a value began at the current position: `Set` for the root or an object
    /// member, `Push` for an array element.
    fn announce(&self, value: Value, patches: &mut Vec<Patch>) {
        let patch = match self.stack.last() {
            Some(Frame::Array(_)) => Patch::Push {
                path: self.path_to(self.stack.len() - 1),
                value,
            },
            None | Some(Frame::Object { .. }) => Patch::Set {
                path: self.path_to(self.stack.len()),
                value,
            },
        };
        patches.push(patch);
    }

    /// Reports the open value string's text that has not been reported yet.
    fn flush_text(&mut self, patches: &mut Vec<Patch>) {
        if !self.text_announced {
            self.announce(Value::String(self.text.clone()), patches);
            self.text_announced = true;
        } else if let Some(text) = self.text.get(self.text_reported..)
            && !text.is_empty()
        {
            let path = match &self.text_path {
                Some(path) => path.clone(),
                None => {
                    let path = self.path_to(self.stack.len());
                    self.text_path = Some(path.clone());
                    path
                }
            };
            patches.push(Patch::Append {
                path,
                text: CompactString::from(text),
            });
        }
        self.text_reported = self.text.len();
    }

    /// The path through the first `depth` open containers: with `depth == stack.len()` the path
    /// of the child being built in the innermost container.
    fn path_to(&self, depth: usize) -> JsonPath {
        self.stack
            .iter()
            .take(depth)
            .map(Frame::child_segment)
            .collect()
    }
}

fn unexpected(fragment: &str, i: usize, offset: usize, expected: &'static str) -> PartialJsonError {
    let found = fragment
        .get(i..)
        .and_then(|rest| rest.chars().next())
        .unwrap_or(char::REPLACEMENT_CHARACTER);
    PartialJsonError::Unexpected {
        found,
        offset,
        expected,
    }
}
