//! A `tools/call` result, split into its two channels: the model's text ([`outcome`]) and the
//! images for the user's card ([`images`]).
//!
//! The providers send tool results as text only, so an image (or audio) is kept for the model as
//! a note like `[image image/png, 12 KiB]`; text parts, resource links, embedded text resources and
//! structured content (as JSON text) are passed through. `isError` makes the outcome an error.
//! The images themselves go to the card, within the limits of [`CallImages::push`].

use serde_json::Value;

use crate::protocol::CallImages;
use crate::tools::{ToolError, codes};

fn size(base64: &str) -> String {
    let bytes = base64.trim_end_matches('=').len() * 3 / 4;
    if bytes < 1024 {
        format!("{bytes} B")
    } else {
        format!("{} KiB", bytes.div_ceil(1024))
    }
}

fn part_text(part: &Value) -> Option<String> {
    let field = |k: &str| part.get(k).and_then(Value::as_str);
    let mime = field("mimeType").unwrap_or("unknown type");
    match field("type")? {
        "text" => field("text").map(str::to_owned),
        kind @ ("image" | "audio") => Some(format!(
            "[{kind} {mime}, {}]",
            size(field("data").unwrap_or(""))
        )),
        "resource_link" => {
            let uri = field("uri").unwrap_or("");
            Some(match field("name") {
                Some(name) => format!("[resource {name}: {uri}]"),
                None => format!("[resource {uri}]"),
            })
        }
        "resource" => {
            let resource = part.get("resource")?;
            let uri = resource.get("uri").and_then(Value::as_str).unwrap_or("");
            match resource.get("text").and_then(Value::as_str) {
                Some(text) => Some(format!("[resource {uri}]\n{text}")),
                None => {
                    let mime = resource
                        .get("mimeType")
                        .and_then(Value::as_str)
                        .unwrap_or("unknown type");
                    let blob = resource.get("blob").and_then(Value::as_str).unwrap_or("");
                    Some(format!("[resource {uri}, {mime}, {}]", size(blob)))
                }
            }
        }
        other => Some(format!("[{other} content]")),
    }
}

/// What an external tool's call gives: its text for the model, or why it failed.
pub type McpOutcome = Result<String, ToolError>;

/// Converts a `CallToolResult` (as JSON) to the outcome for the model.
pub fn outcome(result: &Value) -> McpOutcome {
    let mut parts: Vec<String> = result
        .get("content")
        .and_then(Value::as_array)
        .map(|c| c.iter().filter_map(part_text).collect())
        .unwrap_or_default();
    if let Some(structured) = result.get("structuredContent").filter(|v| !v.is_null()) {
        let already = parts
            .iter()
            .any(|p| serde_json::from_str::<Value>(p).is_ok_and(|v| &v == structured));
        if !already {
            parts.push(structured.to_string());
        }
    }
    let text = parts.join("\n");
    if result.get("isError").and_then(Value::as_bool) == Some(true) {
        Err(ToolError::new(
            codes::TOOL_ERROR,
            if text.is_empty() {
                "the tool reported an error".to_owned()
            } else {
                text
            },
        ))
    } else {
        Ok(text)
    }
}

/// The `image` parts of a `CallToolResult` (as JSON), for the user.
pub fn images(result: &Value) -> CallImages {
    let mut images = CallImages::default();
    let parts = result.get("content").and_then(Value::as_array);
    for part in parts.into_iter().flatten() {
        if part.get("type").and_then(Value::as_str) == Some("image") {
            let field = |k: &str| part.get(k).and_then(Value::as_str).unwrap_or_default();
            images.push(field("mimeType"), field("data"));
        }
    }
    images
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn text_images_links_and_structured_content() {
        let r = json!({
            "content": [
                {"type": "text", "text": "hello"},
                {"type": "image", "data": "A".repeat(16384), "mimeType": "image/png"},
                {"type": "resource_link", "uri": "file:///a.txt", "name": "a.txt"},
                {"type": "resource", "resource": {"uri": "mem://x", "text": "inside"}}
            ],
            "structuredContent": {"temperature": 21}
        });
        assert_eq!(
            outcome(&r),
            Ok("hello\n[image image/png, 12 KiB]\n[resource a.txt: file:///a.txt]\n[resource mem://x]\ninside\n{\"temperature\":21}".to_owned())
        );
    }

    #[test]
    fn images_go_to_the_user_and_other_parts_do_not() {
        let r = json!({
            "content": [
                {"type": "text", "text": "a chart"},
                {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"},
                {"type": "image", "data": "PHN2Zz4=", "mimeType": "image/svg+xml"},
                {"type": "audio", "data": "AAAA", "mimeType": "audio/wav"}
            ]
        });
        let found = images(&r);
        assert_eq!(found.shown.len(), 1);
        assert_eq!(found.shown[0].mime_type, "image/png");
        assert_eq!(found.shown[0].data, "iVBORw0KGgo=");
        assert_eq!(found.left_out.len(), 1);
        assert!(images(&json!({"content": [{"type": "text", "text": "x"}]})).is_empty());
        assert!(images(&json!({})).is_empty());
    }

    #[test]
    fn structured_content_already_in_text_is_not_repeated() {
        let r = json!({
            "content": [{"type": "text", "text": "{\"a\": 1}"}],
            "structuredContent": {"a": 1}
        });
        assert_eq!(outcome(&r), Ok("{\"a\": 1}".to_owned()));
    }

    #[test]
    fn is_error_is_an_error_outcome() {
        let r = json!({"content": [{"type": "text", "text": "bad input"}], "isError": true});
        assert_eq!(
            outcome(&r),
            Err(ToolError::new(codes::TOOL_ERROR, "bad input"))
        );
        assert_eq!(
            outcome(&json!({"content": [], "isError": true})),
            Err(ToolError::new(
                codes::TOOL_ERROR,
                "the tool reported an error"
            ))
        );
    }
}
