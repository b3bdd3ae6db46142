//! What a user's message carries besides its text: files and folders of the workspace it
//! mentions (`@path`, `@path:10-40`, `@dir/`) and images they pasted or dropped.
//!
//! The front end sends [`AttachInput`]s with [`Op::UserMessage`](crate::Op::UserMessage); the
//! engine reads the files when the model first reads the message and says what it attached with
//! [`AttachmentView`]s ([`EventMsg::UserMessageTaken`](crate::EventMsg::UserMessageTaken) and the
//! transcript), so a reopened session shows what was sent.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// The image types a message may carry.
pub const MESSAGE_IMAGE_TYPES: [&str; 4] = ["image/png", "image/jpeg", "image/gif", "image/webp"];
/// The largest image a message may carry, decoded: the smallest limit of the providers
/// (Anthropic's 5 MB per image).
pub const MAX_MESSAGE_IMAGE_BYTES: usize = 5 * 1000 * 1000;
/// The most of one file a message attaches.
pub const DEFAULT_MAX_ATTACHED_FILE_BYTES: usize = 256 * 1024;

/// An image as the front end sends it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ImageInput {
    /// One of [`MESSAGE_IMAGE_TYPES`].
    pub media_type: String,
    /// The image, base64 (standard alphabet).
    pub data: String,
    /// The file's name, when it had one (a dropped file); pasted images have none.
    #[serde(default)]
    #[ts(optional = nullable)]
    pub name: Option<String>,
}

/// One thing to attach to a message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum AttachInput {
    /// A workspace path as mentioned: `src/a.rs`, `src/a.rs:10-40` (a line range) or `src/`
    /// (a folder's listing).
    Path {
        path: String,
    },
    Image(ImageInput),
}

/// What the engine attached, as the conversation shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum AttachmentView {
    /// A file's text (or some of its lines).
    File {
        path: String,
        /// The 1-based first and last line attached, when a range was asked for.
        #[ts(optional = nullable)]
        lines: Option<(u32, u32)>,
        /// Bytes of text attached.
        #[ts(type = "number")]
        bytes: u64,
        /// Why less than asked was attached ("cut at 256 KiB of 1.2 MiB").
        #[ts(optional = nullable)]
        note: Option<String>,
    },
    /// A folder's listing.
    Folder {
        path: String,
        entries: u32,
        #[ts(optional = nullable)]
        note: Option<String>,
    },
    /// An image, shown as a thumbnail.
    Image {
        media_type: String,
        data: String,
        #[ts(optional = nullable)]
        name: Option<String>,
    },
    /// A mention that could not be attached, and why (no such file, binary, outside the
    /// workspace, an image too large). The model is told the same.
    Unavailable { mention: String, reason: String },
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bindings::assert_bindings_current;
    use serde_json::json;

    #[test]
    fn inputs_are_tagged_by_kind() {
        let path: AttachInput =
            serde_json::from_value(json!({"kind": "path", "path": "a.rs:1-2"})).unwrap();
        assert_eq!(
            path,
            AttachInput::Path {
                path: "a.rs:1-2".into()
            }
        );
        let image: AttachInput = serde_json::from_value(
            json!({"kind": "image", "media_type": "image/png", "data": "iVBO"}),
        )
        .unwrap();
        assert_eq!(
            image,
            AttachInput::Image(ImageInput {
                media_type: "image/png".into(),
                data: "iVBO".into(),
                name: None
            })
        );
    }

    #[test]
    fn bindings_are_current() {
        assert_bindings_current::<ImageInput>();
        assert_bindings_current::<AttachInput>();
        assert_bindings_current::<AttachmentView>();
    }
}
