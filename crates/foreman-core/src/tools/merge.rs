//! Deep merge of JSON params and the inverse diff used to emit patches.
//!
//! [`deep_merge`] folds a patch into accumulated params: objects merge key by key (recursively),
//! anything else replaces. [`diff`] computes, for an `old → new` change where `new` grew out of
//! `old`, the smallest [`ParamsPatch`]: a merge patch of changed values plus, for strings that only
//! grew, the appended suffix instead of the whole string.

use serde_json::{Map, Value};

/// Merges `patch` into `target`: objects recursively, other values replace. `null` is a value
/// like any other (it does not delete), so params are never lost by merging.
pub fn deep_merge(target: &mut Value, patch: Value) {
    match (target, patch) {
        (Value::Object(target_map), Value::Object(patch_map)) => {
            for (key, value) in patch_map {
                match target_map.get_mut(&key) {
                    Some(slot) => deep_merge(slot, value),
                    None => {
                        target_map.insert(key, value);
                    }
                }
            }
        }
        (slot, value) => *slot = value,
    }
}

/// The change between two params values, split for the wire: `set` is a merge patch of values
/// that changed (or appeared), `append` mirrors the object structure with string suffixes to
/// append to strings that only grew.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ParamsPatch {
    pub set: Option<Value>,
    pub append: Option<Value>,
}

impl ParamsPatch {
    /// Whether nothing changed.
    pub fn is_empty(&self) -> bool {
        self.set.is_none() && self.append.is_none()
    }

    /// Applies this patch to `target` (the inverse of [`diff`]).
    pub fn apply_to(&self, target: &mut Value) {
        if let Some(append) = &self.append {
            apply_append(target, append);
        }
        if let Some(set) = &self.set {
            deep_merge(target, set.clone());
        }
    }
}

fn apply_append(target: &mut Value, append: &Value) {
    match (target, append) {
        (Value::Object(target_map), Value::Object(append_map)) => {
            for (key, suffix) in append_map {
                if let Some(slot) = target_map.get_mut(key) {
                    apply_append(slot, suffix);
                }
            }
        }
        (Value::String(text), Value::String(suffix)) => text.push_str(suffix),
        _ => {}
    }
}

/// The patch that turns `old` into `new`.
pub fn diff(old: &Value, new: &Value) -> ParamsPatch {
    let mut patch = ParamsPatch::default();
    match (old, new) {
        (Value::Object(old_map), Value::Object(new_map)) => {
            let mut set = Map::new();
            let mut append = Map::new();
            for (key, new_value) in new_map {
                match old_map.get(key) {
                    None => {
                        set.insert(key.clone(), new_value.clone());
                    }
                    Some(old_value) if old_value == new_value => {}
                    Some(old_value) => {
                        let inner = diff(old_value, new_value);
                        if let Some(value) = inner.set {
                            set.insert(key.clone(), value);
                        }
                        if let Some(value) = inner.append {
                            append.insert(key.clone(), value);
                        }
                    }
                }
            }
            patch.set = (!set.is_empty()).then_some(Value::Object(set));
            patch.append = (!append.is_empty()).then_some(Value::Object(append));
        }
        (Value::String(old_text), Value::String(new_text))
            if new_text.len() > old_text.len() && new_text.starts_with(old_text.as_str()) =>
        {
            patch.append = Some(Value::String(new_text[old_text.len()..].to_owned()));
        }
        _ if old == new => {}
        _ => patch.set = Some(new.clone()),
    }
    patch
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    #[test]
    fn nested_objects_merge_and_scalars_replace() {
        let mut params = json!({"path": "a.rs", "opts": {"a": 1, "b": 2}});
        deep_merge(&mut params, json!({"opts": {"b": 3, "c": 4}, "line": 7}));
        assert_eq!(
            params,
            json!({"path": "a.rs", "opts": {"a": 1, "b": 3, "c": 4}, "line": 7})
        );
    }

    #[test]
    fn diff_reports_growing_strings_as_appends() {
        let old = json!({"path": "a.rs", "content": "fn ma"});
        let new = json!({"path": "a.rs", "content": "fn main() {}", "mode": "w"});
        let patch = diff(&old, &new);
        assert_eq!(patch.set, Some(json!({"mode": "w"})));
        assert_eq!(patch.append, Some(json!({"content": "in() {}"})));
        let mut rebuilt = old.clone();
        patch.apply_to(&mut rebuilt);
        assert_eq!(rebuilt, new);
        assert!(diff(&new, &new).is_empty());
    }

    /// JSON values whose keys fix their type (`s*` strings, `n*` numbers, `o*` objects), so
    /// successive patches of the same params never change a key's type, as streamed params don't.
    fn shaped(depth: u32) -> BoxedStrategy<Value> {
        let leaf_keys = prop_oneof![
            ("s[a-c]", "[a-z]{0,4}").prop_map(|(k, v)| (k, Value::String(v))),
            ("n[a-c]", any::<i32>()).prop_map(|(k, v)| (k, json!(v))),
        ];
        if depth == 0 {
            prop::collection::vec(leaf_keys, 0..4)
                .prop_map(|entries| Value::Object(entries.into_iter().collect()))
                .boxed()
        } else {
            let nested = ("o[a-b]", shaped(depth - 1));
            prop::collection::vec(prop_oneof![leaf_keys, nested], 0..5)
                .prop_map(|entries| Value::Object(entries.into_iter().collect()))
                .boxed()
        }
    }

    fn merged(mut a: Value, b: Value) -> Value {
        deep_merge(&mut a, b);
        a
    }

    fn paths(value: &Value, prefix: String, out: &mut Vec<String>) {
        if let Value::Object(map) = value {
            for (key, inner) in map {
                let path = format!("{prefix}/{key}");
                out.push(path.clone());
                paths(inner, path, out);
            }
        }
    }

    proptest! {
        #[test]
        fn successive_merges_are_associative(a in shaped(2), b in shaped(2), c in shaped(2)) {
            let left = merged(merged(a.clone(), b.clone()), c.clone());
            let right = merged(a, merged(b, c));
            prop_assert_eq!(left, right);
        }

        #[test]
        fn merging_the_same_patch_twice_is_idempotent(a in shaped(2), p in shaped(2)) {
            let once = merged(a, p.clone());
            let twice = merged(once.clone(), p);
            prop_assert_eq!(once, twice);
        }

        #[test]
        fn params_are_never_lost(a in shaped(2), p in shaped(2)) {
            let result = merged(a.clone(), p);
            let mut before = Vec::new();
            paths(&a, String::new(), &mut before);
            for path in before {
                prop_assert!(result.pointer(&path).is_some(), "lost {}", path);
            }
        }

        #[test]
        fn diff_then_apply_rebuilds_the_merge(a in shaped(2), p in shaped(2)) {
            let new = merged(a.clone(), p);
            let patch = diff(&a, &new);
            let mut rebuilt = a;
            patch.apply_to(&mut rebuilt);
            prop_assert_eq!(rebuilt, new);
        }
    }
}
