//! What a message attaches, as the provider receives it: files, line ranges, folders and images
//! on both wire formats, what cannot be attached, a reopened session, and a model that refuses
//! images.

use foreman_core::attachments::image;
use foreman_core::conversation::load_transcript;
use foreman_core::protocol::transcript::TranscriptItem;
use foreman_core::protocol::{
    AttachInput, AttachmentView, EventMsg, ImageInput, Op, TaskEndReason,
};
use foreman_core::store::Store;
use foreman_core::testing::scripts::text;
use foreman_core::testing::sse_server::ScriptedResponse;
use serde_json::{Value, json};

use super::common::*;

fn png() -> ImageInput {
    let mut bytes = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
    bytes.extend_from_slice(&[0; 8]);
    image::from_bytes(&bytes, Some("shot.png".into())).unwrap()
}

fn path(p: &str) -> AttachInput {
    AttachInput::Path { path: p.into() }
}

fn message(text: &str, attach: Vec<AttachInput>) -> Op {
    Op::UserMessage {
        text: text.into(),
        attach,
    }
}

/// The blocks of request `n` from the user's text `starting` on (engine notes may come first in
/// the same user turn).
fn user_blocks(h: &Harness, n: usize, starting: &str) -> Vec<Value> {
    let body: Value = serde_json::from_str(&h.request_text(n)).unwrap();
    let blocks: Vec<Value> = body["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["role"] == "user")
        .flat_map(|m| m["content"].as_array().cloned().unwrap_or_default())
        .collect();
    let at = blocks
        .iter()
        .position(|b| b["text"].as_str().is_some_and(|t| t.starts_with(starting)))
        .unwrap_or_else(|| panic!("no block starts with {starting:?}: {blocks:?}"));
    blocks[at..].to_vec()
}

/// The content of the OpenAI-format user message of request `n` that starts with `starting`.
fn user_content(h: &Harness, n: usize, starting: &str) -> Value {
    let body: Value = serde_json::from_str(&h.request_text(n)).unwrap();
    body["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["role"] == "user")
        .map(|m| m["content"].clone())
        .find(|c| {
            let first = c.as_str().or_else(|| c[0]["text"].as_str()).unwrap_or("");
            first.starts_with(starting)
        })
        .unwrap_or_else(|| panic!("no user message starts with {starting:?}"))
}

const NOTES: &str = "<attached_file path=\"notes.txt\">\nalpha\nbeta\n</attached_file>";
const LINE_2: &str = "<attached_file path=\"notes.txt\" lines=\"2-2\">\nbeta\n</attached_file>";
const MISSING: &str = "[Could not attach @gone.rs: no such file or folder in the workspace]";

#[tokio::test]
async fn anthropic_gets_the_text_then_each_attachment_as_a_block() {
    let mut h = start_turns(Wire::Anthropic, &[vec![text("Seen.")]], |_| {}).await;
    std::fs::create_dir(h.dir.path().join("docs")).unwrap();
    std::fs::write(h.dir.path().join("docs/a.md"), "# A\n").unwrap();
    let shot = png();
    h.send(message(
        "compare these",
        vec![
            path("notes.txt"),
            path("notes.txt:2-2"),
            path("docs/"),
            path("gone.rs"),
            AttachInput::Image(shot.clone()),
        ],
    ));
    assert!(h.end().await.is_success());
    let content = user_blocks(&h, 0, "compare these");
    // A breakpoint marks the newest user turn; it is not part of the content.
    let mut last = content[5].clone();
    last.as_object_mut().unwrap().remove("cache_control");
    assert_eq!(content[0], json!({"type": "text", "text": "compare these"}));
    assert_eq!(content[1], json!({"type": "text", "text": NOTES}));
    assert_eq!(content[2], json!({"type": "text", "text": LINE_2}));
    assert_eq!(
        content[3],
        json!({"type": "text", "text": "<attached_folder path=\"docs/\" entries=\"1\">\na.md\n</attached_folder>"})
    );
    assert_eq!(content[4], json!({"type": "text", "text": MISSING}));
    assert_eq!(
        last,
        json!({"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": shot.data}})
    );
    // The user sees what was attached, and what was not and why.
    let taken = h
        .seen
        .iter()
        .find_map(|e| match &e.msg {
            EventMsg::UserMessageTaken { attachments, .. } => Some(attachments.clone()),
            _ => None,
        })
        .unwrap();
    assert_eq!(
        taken[0],
        AttachmentView::File {
            path: "notes.txt".into(),
            lines: None,
            bytes: 11,
            note: None
        }
    );
    assert_eq!(
        taken[3],
        AttachmentView::Unavailable {
            mention: "@gone.rs".into(),
            reason: "no such file or folder in the workspace".into()
        }
    );
    assert!(matches!(&taken[4], AttachmentView::Image { name: Some(n), .. } if n == "shot.png"));
}

#[tokio::test]
async fn openai_gets_one_string_without_images_and_parts_with_them() {
    let mut h = start_turns(
        Wire::OpenAi,
        &[vec![text("Seen.")], vec![text("Seen too.")]],
        |_| {},
    )
    .await;
    h.send(message("read this", vec![path("notes.txt")]));
    assert!(h.end().await.is_success());
    assert_eq!(
        user_content(&h, 0, "read this"),
        json!(format!("read this\n\n{NOTES}"))
    );
    let shot = png();
    h.send(message(
        "and this",
        vec![path("notes.txt:2-2"), AttachInput::Image(shot.clone())],
    ));
    assert!(h.end().await.is_success());
    assert_eq!(
        user_content(&h, 1, "and this"),
        json!([
            {"type": "text", "text": "and this"},
            {"type": "text", "text": LINE_2},
            {"type": "image_url", "image_url": {"url": format!("data:image/png;base64,{}", shot.data)}},
        ])
    );
}

#[tokio::test]
async fn a_reopened_session_shows_what_was_attached() {
    let store = Store::open_in_memory().await.unwrap();
    let session = store.create_session("/w", 1).await.unwrap();
    let responses = vec![ScriptedResponse::sse(body(Wire::Anthropic, &[text("ok")]))];
    let mut h = start_stored("claude-sonnet-4", &store, &session.id, responses).await;
    h.send(message(
        "look",
        vec![path("notes.txt"), AttachInput::Image(png())],
    ));
    assert!(h.end().await.is_success());
    let transcript = load_transcript(&store, &session.id).await.unwrap();
    let TranscriptItem::User { text, attachments } = &transcript.items[0] else {
        panic!("{:?}", transcript.items)
    };
    assert_eq!(text, "look");
    assert_eq!(attachments.len(), 2);
    assert!(matches!(&attachments[0], AttachmentView::File { path, .. } if path == "notes.txt"));
    assert!(
        matches!(&attachments[1], AttachmentView::Image { media_type, .. } if media_type == "image/png")
    );
}

#[tokio::test]
async fn a_model_that_refuses_images_keeps_the_text_and_a_retry_goes_without_them() {
    let refusal = r#"{"type":"error","error":{"type":"invalid_request_error","message":"This model does not support image input."}}"#;
    let responses = vec![
        ScriptedResponse::json(400, refusal),
        ScriptedResponse::sse(body(Wire::Anthropic, &[text("Read your text.")])),
    ];
    let mut h = start_with(Wire::Anthropic, responses, |_| {}).await;
    h.send(message(
        "what is wrong here?",
        vec![AttachInput::Image(png())],
    ));
    let TaskEndReason::Error { message, retryable } = h.end().await else {
        panic!("the request should fail")
    };
    assert!(retryable);
    assert!(
        message.contains("This model does not support image input"),
        "{message}"
    );
    assert!(
        message.contains("they are out of the conversation now (your text stays)"),
        "{message}"
    );
    h.send(Op::Retry);
    assert!(h.end().await.is_success());
    let content = user_blocks(&h, 1, "what is wrong here?");
    assert_eq!(
        content[1]["text"],
        "[Could not attach shot.png: taken out after the model or server refused a request with images]"
    );
    assert!(!h.request_text(1).contains("\"type\":\"image\""));
}
