//! Incremental parsing of a JSON document that arrives in fragments.
//!
//! Model providers stream a tool call's arguments as fragments of one JSON document
//! (`{"locati`, `on": "P`, `aris"}`). [`PartialJsonParser`] shows the value received so far at any
//! time and reports each change as a small [`Patch`], so a UI can show a file's content growing as
//! the model writes it without re-parsing or copying everything after every fragment.
//! [`parse_partial`] is the one-shot form for a prefix held whole.
//!
//! # What a prefix shows
//!
//! - A string is shown with the text received so far, minus an escape that is not complete yet
//!   (a lone `\`, a partial `\u00`, a high surrogate waiting for its low half).
//! - An object key appears only once the key string is complete and its value has begun, and
//!   then with that value's best-effort form: `""` (or the text so far) for a string, `{}` or
//!   `[]` for a container. A number or literal value appears, with its key, only once complete.
//! - A number appears only once something ends it (`,` `}` `]` or whitespace), or at
//!   [`PartialJsonParser::finish`] if it ends the document: `12` may yet become `123`. So a whole
//!   document that is a bare number shows `null` until `finish`.
//! - `true`, `false` and `null` appear only once all their letters have arrived.
//! - Open containers are shown closed; empty (or whitespace-only) input is `null`.
//! - Input that is not a prefix of any JSON document (`[abc`, `{"a" 1}`, `{"a":1}}`, trailing
//!   garbage, a raw control character in a string, a lone surrogate) is an error, never
//!   silently accepted.
//!
//! Numbers are converted exactly as `serde_json` converts them, so after `finish` the value equals
//! `serde_json::from_str` of the whole input.

mod error;
mod escape;
mod literal;
mod number;
mod parser;
#[cfg(test)]
mod proptests;
mod scan;

pub use crate::patch::{Patch, apply_patch};
pub use crate::path::{JsonPath, PathSegment};
/// The inline string type of [`Patch::Append`]'s text.
pub use compact_str::CompactString;
pub use error::PartialJsonError;
pub use parser::{MAX_DEPTH, PartialJsonParser};

use serde_json::Value;

/// The best-effort value of `input`, a prefix of a JSON document (see the module docs).
///
/// `input` is taken as a prefix, not a whole document: a trailing number is not shown, since
/// more digits could follow. This equals the snapshot of a [`PartialJsonParser`] fed `input`.
pub fn parse_partial(input: &str) -> Result<Value, PartialJsonError> {
    let mut parser = PartialJsonParser::new();
    parser.push(input)?;
    Ok(parser.snapshot())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn push_into_reports_what_push_reports_and_leaves_out_as_it_was_on_an_error() {
        let doc = r#"{"path": "a.rs", "content": "x\ty \u00e9 \ud83d\ude00", "n": [1, true]}"#;
        let (mut by_push, mut by_into) = (PartialJsonParser::new(), PartialJsonParser::new());
        let (mut pushed, mut into) = (Vec::new(), Vec::new());
        for piece in doc.as_bytes().chunks(3) {
            let piece = std::str::from_utf8(piece).unwrap();
            pushed.extend(by_push.push(piece).unwrap());
            by_into.push_into(piece, &mut into).unwrap();
        }
        assert_eq!(pushed, into);
        assert_eq!(by_push.snapshot(), by_into.snapshot());

        let mut parser = PartialJsonParser::new();
        let mut out = parser.push("{\"a\": [").unwrap();
        let kept = out.clone();
        assert!(parser.push_into("1, 2}", &mut out).is_err());
        assert_eq!(out, kept);
        assert!(
            parser.push_into("]", &mut out).is_err(),
            "a failed parser stays failed"
        );
    }
    use serde_json::json;

    fn partial(input: &str) -> Value {
        parse_partial(input).unwrap()
    }

    /// Feeds `input` one char at a time, checking after every push that the patches so far
    /// rebuild the snapshot; returns the parser.
    fn feed_chars(input: &str) -> PartialJsonParser {
        let mut parser = PartialJsonParser::new();
        let mut mirror = Value::Null;
        let mut buf = [0; 4];
        for c in input.chars() {
            for patch in parser.push(c.encode_utf8(&mut buf)).unwrap() {
                apply_patch(&mut mirror, &patch);
            }
            assert_eq!(mirror, parser.snapshot(), "after {c:?} of {input:?}");
        }
        parser
    }

    #[test]
    fn empty_and_whitespace_input_is_null() {
        assert_eq!(partial(""), Value::Null);
        assert_eq!(partial(" \n\t\r"), Value::Null);
    }

    #[test]
    fn open_strings_show_the_text_so_far() {
        assert_eq!(partial("\"hel"), json!("hel"));
        assert_eq!(partial("{\"a\": \"hel"), json!({"a": "hel"}));
        assert_eq!(partial("[\"x\", \"y"), json!(["x", "y"]));
    }

    #[test]
    fn incomplete_escapes_are_hidden() {
        assert_eq!(partial(r#""ab\"#), json!("ab"));
        assert_eq!(partial(r#""ab\u"#), json!("ab"));
        assert_eq!(partial(r#""ab\u00"#), json!("ab"));
        assert_eq!(partial(r#""ab\u00e9"#), json!("abé"));
        assert_eq!(partial(r#""ab\n"#), json!("ab\n"));
        assert_eq!(partial(r#""a\ud83d"#), json!("a"));
        assert_eq!(partial(r#""a\ud83d\"#), json!("a"));
        assert_eq!(partial(r#""a\ud83d\u"#), json!("a"));
        assert_eq!(partial(r#""a\ud83d\ude0"#), json!("a"));
        assert_eq!(partial(r#""a\ud83d\ude00"#), json!("a😀"));
    }

    #[test]
    fn escapes_split_across_fragments_decode() {
        let mut parser = PartialJsonParser::new();
        for fragment in [
            "[\"caf", "\\", "u0", "0e", "9 \\ud8", "3d", "\\", "ude", "00\"]",
        ] {
            parser.push(fragment).unwrap();
        }
        parser.finish().unwrap();
        assert_eq!(parser.snapshot(), json!(["café 😀"]));
    }

    #[test]
    fn keys_appear_once_complete_and_their_value_has_begun() {
        assert_eq!(partial("{\"ke"), json!({}));
        assert_eq!(partial("{\"key\""), json!({}));
        assert_eq!(partial("{\"key\":"), json!({}));
        assert_eq!(partial("{\"key\": "), json!({}));
        assert_eq!(partial("{\"key\": \""), json!({"key": ""}));
        assert_eq!(partial("{\"key\": {"), json!({"key": {}}));
        assert_eq!(partial("{\"key\": ["), json!({"key": []}));
        assert_eq!(partial("{\"a\": 1, \"b"), json!({"a": 1}));
    }

    #[test]
    fn numbers_appear_only_once_terminated() {
        assert_eq!(partial("12"), Value::Null);
        assert_eq!(partial("[12"), json!([]));
        assert_eq!(partial("[12,"), json!([12]));
        assert_eq!(partial("[12 "), json!([12]));
        assert_eq!(partial("[12]"), json!([12]));
        assert_eq!(partial("{\"a\": -1.5e3"), json!({}));
        assert_eq!(partial("{\"a\": -1.5e3}"), json!({"a": -1500.0}));
        assert_eq!(partial("{\"a\": 7\n"), json!({"a": 7}));
    }

    #[test]
    fn finish_completes_a_trailing_number() {
        let mut parser = PartialJsonParser::new();
        parser.push("-0.25").unwrap();
        assert_eq!(parser.snapshot(), Value::Null);
        let patches = parser.finish().unwrap();
        assert_eq!(parser.snapshot(), json!(-0.25));
        let mut mirror = Value::Null;
        for patch in &patches {
            apply_patch(&mut mirror, patch);
        }
        assert_eq!(mirror, json!(-0.25));
        assert!(parser.is_finished());
    }

    #[test]
    fn the_complete_value_is_there_only_after_finish() {
        let mut parser = PartialJsonParser::new();
        parser.push(r#"{"a": [1, "x"]}"#).unwrap();
        assert_eq!(parser.complete_value(), None, "not finished yet");
        parser.finish().unwrap();
        assert_eq!(parser.complete_value(), Some(&json!({"a": [1, "x"]})));
        let mut open = PartialJsonParser::new();
        open.push(r#"{"a": "#).unwrap();
        assert!(open.finish().is_err());
        assert_eq!(open.complete_value(), None);
    }

    #[test]
    fn literals_appear_only_when_complete() {
        assert_eq!(partial("[tru"), json!([]));
        assert_eq!(partial("[true"), json!([true]));
        assert_eq!(partial("{\"a\": fals"), json!({}));
        assert_eq!(partial("{\"a\": false"), json!({"a": false}));
        assert_eq!(partial("{\"a\": nul"), json!({}));
        assert_eq!(partial("{\"a\": null"), json!({"a": null}));
        assert_eq!(partial("true"), json!(true));
    }

    #[test]
    fn open_containers_are_closed_in_the_snapshot() {
        assert_eq!(partial("[[[1, [\"a"), json!([[[1, ["a"]]]]));
        assert_eq!(partial("{\"a\": [{\"b\": {"), json!({"a": [{"b": {}}]}));
    }

    #[test]
    fn input_that_is_no_json_prefix_is_an_error() {
        for input in [
            "[abc",
            "{\"a\" 1}",
            "{\"a\":1}}",
            "{\"a\":1} x",
            "1 2",
            "[1,]",
            "[,1]",
            "{,}",
            "{\"a\":1,}",
            "{1:2}",
            "[01]",
            "[1.]",
            "[-]",
            "[1x]",
            "[tx",
            "nulll",
            "\"a\nb\"",
            "\"\\x\"",
            "\"\\u00zz\"",
            "\"\\udc00\"",
            "\"\\ud83d\\u0041\"",
            "[1e400]",
            "}",
            "]",
            ":",
        ] {
            assert!(parse_partial(input).is_err(), "accepted {input:?}");
        }
    }

    #[test]
    fn errors_carry_the_offset_and_stick() {
        let mut parser = PartialJsonParser::new();
        parser.push("{\"a\": 1").unwrap();
        let error = parser.push("}}").unwrap_err();
        assert_eq!(
            error,
            PartialJsonError::Unexpected {
                found: '}',
                offset: 8,
                expected: "the end of input"
            }
        );
        assert_eq!(parser.push(" ").unwrap_err(), error);
        assert_eq!(parser.finish().unwrap_err(), error);
    }

    #[test]
    fn raw_control_characters_in_strings_are_rejected() {
        assert_eq!(
            parse_partial("\"a\u{1}").unwrap_err(),
            PartialJsonError::ControlCharacter { code: 1, offset: 2 }
        );
    }

    #[test]
    fn finish_on_an_incomplete_document_is_an_error() {
        for input in ["", "[1", "{\"a\": \"b", "tru", "-", "1.", "\"\\u00"] {
            let mut parser = PartialJsonParser::new();
            parser.push(input).unwrap();
            let snapshot = parser.snapshot();
            assert!(
                matches!(parser.finish(), Err(PartialJsonError::Incomplete { .. })),
                "{input:?}"
            );
            assert_eq!(parser.snapshot(), snapshot);
        }
    }

    #[test]
    fn push_after_finish_is_an_error() {
        let mut parser = PartialJsonParser::new();
        parser.push("[]").unwrap();
        parser.finish().unwrap();
        assert_eq!(parser.push(" ").unwrap_err(), PartialJsonError::Finished);
    }

    #[test]
    fn nesting_beyond_the_limit_is_rejected() {
        let deep = "[".repeat(MAX_DEPTH);
        assert!(parse_partial(&deep).is_ok());
        let too_deep = "[".repeat(MAX_DEPTH + 1);
        assert!(matches!(
            parse_partial(&too_deep),
            Err(PartialJsonError::TooDeep { .. })
        ));
    }

    #[test]
    fn the_complete_document_equals_serde_json() {
        let input = r#" {"path": "src/a.rs", "n": [1, -2, 3.5, 1e2, 18446744073709551615, -9223372036854775808],
            "flags": {"x": true, "y": false, "z": null}, "s": "tab\there \"q\" \\ \/ \u00e9 \ud83d\ude00 \b\f\r"} "#;
        let parser = feed_chars(input);
        let mut parser = parser;
        parser.finish().unwrap();
        let expected: Value = serde_json::from_str(input).unwrap();
        assert_eq!(parser.snapshot(), expected);
    }

    #[test]
    fn patches_are_small_and_describe_each_change() {
        let mut parser = PartialJsonParser::new();
        let patches = parser.push("{\"a\": [1, \"x").unwrap();
        let path = |segments: Vec<PathSegment>| -> JsonPath { segments.into() };
        let key = |k: &str| PathSegment::Key(k.into());
        assert_eq!(
            patches,
            vec![
                Patch::Set {
                    path: path(vec![]),
                    value: json!({})
                },
                Patch::Set {
                    path: path(vec![key("a")]),
                    value: json!([])
                },
                Patch::Push {
                    path: path(vec![key("a")]),
                    value: json!(1)
                },
                Patch::Push {
                    path: path(vec![key("a")]),
                    value: json!("x")
                },
            ]
        );
        let patches = parser.push("yz\"]").unwrap();
        assert_eq!(
            patches,
            vec![
                Patch::Append {
                    path: path(vec![key("a"), PathSegment::Index(1)]),
                    text: "yz".into()
                },
                Patch::Close {
                    path: path(vec![key("a")])
                },
            ]
        );
        let patches = parser.push("}").unwrap();
        assert_eq!(patches, vec![Patch::Close { path: path(vec![]) }]);
    }

    #[test]
    fn a_string_split_into_many_fragments_reports_only_the_new_text() {
        let mut parser = PartialJsonParser::new();
        parser.push("{\"content\": \"").unwrap();
        for fragment in ["abc", "def", "\\n", "g"] {
            let patches = parser.push(fragment).unwrap();
            let expected = if fragment == "\\n" { "\n" } else { fragment };
            assert!(
                matches!(&patches[..], [Patch::Append { text, .. }] if text == expected),
                "{patches:?}"
            );
        }
        assert_eq!(parser.snapshot(), json!({"content": "abcdef\ng"}));
    }

    #[test]
    fn a_pending_escape_reports_nothing_until_complete() {
        let mut parser = PartialJsonParser::new();
        parser.push("\"a").unwrap();
        assert!(parser.push("\\u00").unwrap().is_empty());
        assert_eq!(parser.snapshot(), json!("a"));
        let patches = parser.push("e9").unwrap();
        assert!(matches!(&patches[..], [Patch::Append { text, .. }] if text == "é"));
    }

    #[test]
    fn duplicate_keys_keep_the_last_value_like_serde_json() {
        let input = r#"{"a": 1, "a": [2]}"#;
        let mut parser = feed_chars(input);
        parser.finish().unwrap();
        assert_eq!(
            parser.snapshot(),
            serde_json::from_str::<Value>(input).unwrap()
        );
    }
}
