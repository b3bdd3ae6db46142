//! Hashes that pin what the user approves.

use sha2::{Digest, Sha256};

/// JSON text with object keys sorted at every level, so equal values hash equally whatever the
/// order the model wrote them in.
pub fn canonical_json(value: &serde_json::Value) -> String {
    let mut out = String::new();
    write_canonical(value, &mut out);
    out
}

fn write_canonical(value: &serde_json::Value, out: &mut String) {
    match value {
        serde_json::Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            out.push('{');
            for (i, key) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&serde_json::Value::String(key.clone()).to_string());
                out.push(':');
                if let Some(v) = map.get(key) {
                    write_canonical(v, out);
                }
            }
            out.push('}');
        }
        serde_json::Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_canonical(item, out);
            }
            out.push(']');
        }
        scalar => out.push_str(&scalar.to_string()),
    }
}

/// SHA-256 of a file's bytes, hex encoded.
pub fn content_hash(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

/// The hash an approval must carry: over the tool name, the final parameters and, for a file
/// change, the hash of the file's current content (`None` when the file does not exist).
pub fn preview_hash(tool: &str, params: &serde_json::Value, file_hash: Option<&str>) -> String {
    let mut hasher = Sha256::new();
    for part in [tool, &canonical_json(params), file_hash.unwrap_or("-")] {
        hasher.update((part.len() as u64).to_le_bytes());
        hasher.update(part.as_bytes());
    }
    hex(&hasher.finalize())
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn key_order_does_not_change_the_hash() {
        let a =
            json!({"path": "a.rs", "content": "x", "nested": {"b": 1, "a": [1, {"z": 0, "y": 1}]}});
        let b: serde_json::Value = serde_json::from_str(
            r#"{"nested":{"a":[1,{"y":1,"z":0}],"b":1},"content":"x","path":"a.rs"}"#,
        )
        .unwrap();
        assert_eq!(canonical_json(&a), canonical_json(&b));
        assert_eq!(
            preview_hash("write", &a, None),
            preview_hash("write", &b, None)
        );
    }

    #[test]
    fn any_change_changes_the_hash() {
        let p = json!({"path": "a.rs", "content": "x"});
        let base = preview_hash("write", &p, Some("h1"));
        assert_ne!(base, preview_hash("edit", &p, Some("h1")));
        assert_ne!(
            base,
            preview_hash(
                "write",
                &json!({"path": "a.rs", "content": "y"}),
                Some("h1")
            )
        );
        assert_ne!(base, preview_hash("write", &p, Some("h2")));
        assert_ne!(base, preview_hash("write", &p, None));
        assert_eq!(base.len(), 64);
    }

    #[test]
    fn content_hash_is_sha256() {
        assert_eq!(
            content_hash(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
