//! Patches: the small changes a
//! [`PartialJsonParser`](crate::partial_json::PartialJsonParser) reports.
//!
//! A consumer that mirrors the parsed value (a UI showing a tool call's arguments as they stream,
//! say) applies each patch with [`apply_patch`] instead of copying the whole value after every
//! fragment. Applying every patch of every `push`, in order, to `Value::Null` gives exactly the
//! parser's `snapshot()`.

use compact_str::CompactString;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::path::{JsonPath, PathSegment};

/// One change to the parsed value.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Patch {
    /// The value at `path` was set: an object key appeared (its value has begun), or the root
    /// value began. Containers are set empty and strings with the text received so far.
    Set {
        /// Where; the last segment is the key.
        path: JsonPath,
        /// The initial value.
        value: Value,
    },
    /// `text` was appended to the open string at `path`.
    Append {
        /// The string.
        path: JsonPath,
        /// What was added. Usually a fragment's worth of text, so stored inline (up to 24 bytes)
        /// without a heap allocation; it serialises as a plain JSON string.
        text: CompactString,
    },
    /// `value` was pushed onto the array at `path`.
    Push {
        /// The array.
        path: JsonPath,
        /// The new element.
        value: Value,
    },
    /// The container at `path` was closed: it is complete and will not change again.
    Close {
        /// The container.
        path: JsonPath,
    },
}

impl Patch {
    /// The path this patch applies to.
    pub fn path(&self) -> &[PathSegment] {
        match self {
            Patch::Set { path, .. }
            | Patch::Append { path, .. }
            | Patch::Push { path, .. }
            | Patch::Close { path } => path,
        }
    }
}

/// Applies `patch` to `value`.
///
/// A patch whose path does not lead to a value of the right kind (which cannot happen when the
/// patches of one parser are applied in order to `Value::Null`) changes nothing.
pub fn apply_patch(value: &mut Value, patch: &Patch) {
    match patch {
        Patch::Set {
            path,
            value: new_value,
        } => match path.split_last() {
            None => *value = new_value.clone(),
            Some((last, parent)) => match (resolve_mut(value, parent), last) {
                (Some(Value::Object(map)), PathSegment::Key(key)) => {
                    map.insert(key.to_string(), new_value.clone());
                }
                (Some(Value::Array(items)), PathSegment::Index(index)) => {
                    if let Some(slot) = items.get_mut(*index) {
                        *slot = new_value.clone();
                    } else if *index == items.len() {
                        items.push(new_value.clone());
                    }
                }
                _ => {}
            },
        },
        Patch::Append { path, text } => {
            if let Some(Value::String(target)) = resolve_mut(value, path) {
                target.push_str(text);
            }
        }
        Patch::Push {
            path,
            value: new_value,
        } => {
            if let Some(Value::Array(items)) = resolve_mut(value, path) {
                items.push(new_value.clone());
            }
        }
        Patch::Close { .. } => {}
    }
}

fn resolve_mut<'a>(mut value: &'a mut Value, path: &[PathSegment]) -> Option<&'a mut Value> {
    for segment in path {
        value = match (value, segment) {
            (Value::Object(map), PathSegment::Key(key)) => map.get_mut(key.as_str())?,
            (Value::Array(items), PathSegment::Index(index)) => items.get_mut(*index)?,
            _ => return None,
        };
    }
    Some(value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn path(segments: &[PathSegment]) -> JsonPath {
        segments.to_vec().into()
    }

    fn key(k: &str) -> PathSegment {
        PathSegment::Key(k.into())
    }

    #[test]
    fn set_on_empty_path_replaces_the_root() {
        let mut value = Value::Null;
        apply_patch(
            &mut value,
            &Patch::Set {
                path: path(&[]),
                value: json!({}),
            },
        );
        assert_eq!(value, json!({}));
    }

    #[test]
    fn set_append_push_build_a_nested_value() {
        let mut value = json!({"a": []});
        let patches = [
            Patch::Push {
                path: path(&[key("a")]),
                value: json!({}),
            },
            Patch::Set {
                path: path(&[key("a"), PathSegment::Index(0), key("s")]),
                value: json!("he"),
            },
            Patch::Append {
                path: path(&[key("a"), PathSegment::Index(0), key("s")]),
                text: "llo".into(),
            },
            Patch::Close {
                path: path(&[key("a")]),
            },
        ];
        for patch in &patches {
            apply_patch(&mut value, patch);
        }
        assert_eq!(value, json!({"a": [{"s": "hello"}]}));
    }

    #[test]
    fn patch_with_a_dangling_path_changes_nothing() {
        let mut value = json!({"a": 1});
        let before = value.clone();
        apply_patch(
            &mut value,
            &Patch::Append {
                path: path(&[key("a")]),
                text: "x".into(),
            },
        );
        apply_patch(
            &mut value,
            &Patch::Push {
                path: path(&[key("missing")]),
                value: json!(1),
            },
        );
        assert_eq!(value, before);
    }

    #[test]
    fn patches_serialise_with_an_op_tag_and_untagged_paths() {
        let patch = Patch::Append {
            path: path(&[key("files"), PathSegment::Index(2)]),
            text: "x".into(),
        };
        let encoded = serde_json::to_value(&patch).unwrap();
        assert_eq!(
            encoded,
            json!({"op": "append", "path": ["files", 2], "text": "x"})
        );
        let decoded: Patch = serde_json::from_value(encoded).unwrap();
        assert_eq!(decoded, patch);
    }
}
