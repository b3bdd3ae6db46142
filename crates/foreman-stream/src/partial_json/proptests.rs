//! Property tests of the partial-JSON parser: any value, serialised and fed in fragments split
//! anywhere, parses back to itself, with snapshots that only grow and patches that rebuild them.

use proptest::prelude::*;
use serde_json::Value;

use super::{PartialJsonParser, apply_patch, parse_partial};

fn arb_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>()
            .prop_filter("JSON has no NaN or infinity", |f| f.is_finite())
            .prop_map(Value::from),
        any::<String>().prop_map(Value::String),
        "[a-z\\\\\"\n\t é😀]{0,12}".prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::btree_map("[a-z\"\\\\é😀]{0,6}", inner, 0..6)
                .prop_map(|map| Value::Object(map.into_iter().collect())),
        ]
    })
}

/// Rewrites every non-ASCII character (which serialised JSON only has inside strings) as `\u`
/// escapes, surrogate pairs included, so escapes get split across fragments too.
fn escape_non_ascii(json: &str) -> String {
    let mut out = String::with_capacity(json.len());
    let mut units = [0u16; 2];
    for c in json.chars() {
        if c.is_ascii() {
            out.push(c);
        } else {
            for unit in c.encode_utf16(&mut units) {
                out.push_str(&format!("\\u{unit:04x}"));
            }
        }
    }
    out
}

/// Whether `next` could be a later snapshot of the same document than `prev`: strings only
/// grow, keys and elements only appear, scalars never change.
fn extends(prev: &Value, next: &Value) -> bool {
    match (prev, next) {
        (Value::String(a), Value::String(b)) => b.starts_with(a.as_str()),
        (Value::Array(a), Value::Array(b)) => {
            a.len() <= b.len() && a.iter().zip(b).all(|(x, y)| extends(x, y))
        }
        (Value::Object(a), Value::Object(b)) => a
            .iter()
            .all(|(key, x)| b.get(key).is_some_and(|y| extends(x, y))),
        (a, b) => a == b,
    }
}

/// Cuts `text` at the given positions, moved back to char boundaries.
fn split(text: &str, mut cuts: Vec<usize>) -> Vec<&str> {
    for cut in &mut cuts {
        *cut %= text.len() + 1;
        while !text.is_char_boundary(*cut) {
            *cut -= 1;
        }
    }
    cuts.push(0);
    cuts.push(text.len());
    cuts.sort_unstable();
    cuts.dedup();
    cuts.windows(2).map(|w| &text[w[0]..w[1]]).collect()
}

fn check_round_trip(original: &Value, text: &str, cuts: Vec<usize>) {
    let mut parser = PartialJsonParser::new();
    let mut mirror = Value::Null;
    let mut previous = Value::Null;
    let mut received = 0;
    for fragment in split(text, cuts) {
        for patch in parser.push(fragment).unwrap() {
            apply_patch(&mut mirror, &patch);
        }
        received += fragment.len();
        let snapshot = parser.snapshot();
        assert_eq!(
            mirror, snapshot,
            "patches vs snapshot after {received} bytes"
        );
        // The root is `null` until the document's value begins.
        assert!(
            previous.is_null() || extends(&previous, &snapshot),
            "not monotone: {previous} then {snapshot}"
        );
        assert_eq!(parse_partial(&text[..received]).unwrap(), snapshot);
        previous = snapshot;
    }
    for patch in parser.finish().unwrap() {
        apply_patch(&mut mirror, &patch);
    }
    assert_eq!(&parser.snapshot(), original);
    assert_eq!(&mirror, original);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn any_value_split_anywhere_round_trips(
        value in arb_value(),
        cuts in prop::collection::vec(any::<usize>(), 0..24),
        pretty in any::<bool>(),
    ) {
        let text = if pretty {
            serde_json::to_string_pretty(&value).unwrap()
        } else {
            serde_json::to_string(&value).unwrap()
        };
        check_round_trip(&value, &text, cuts.clone());
        check_round_trip(&value, &escape_non_ascii(&text), cuts);
    }

    #[test]
    fn every_prefix_parses_like_the_parser_fed_it(
        value in arb_value(),
        cut in any::<usize>(),
    ) {
        let text = serde_json::to_string(&value).unwrap();
        let pieces = split(&text, vec![cut]);
        let prefix = pieces[0];
        let mut parser = PartialJsonParser::new();
        for c in prefix.chars() {
            parser.push(c.encode_utf8(&mut [0; 4])).unwrap();
        }
        prop_assert_eq!(parse_partial(prefix).unwrap(), parser.snapshot());
    }
}
