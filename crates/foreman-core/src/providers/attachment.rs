//! What a user message attaches, in the form the model reads: the text of a file or of a
//! folder's listing, an image, or a note that a mention could not be attached.
//!
//! Both wire formats send a message's text first, then each attachment as a part of its own
//! ([`Attachment::model_text`] for the text ones, the image as an image part), so the user's
//! words stay byte for byte what they wrote.

use serde::{Deserialize, Serialize};

use crate::protocol::AttachmentView;

/// One attachment of a user message, as stored in the history.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Attachment {
    File {
        /// Workspace-relative.
        path: String,
        /// The 1-based first and last line, when a range was asked for.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        lines: Option<(u32, u32)>,
        text: String,
        /// Why less than asked is here ("cut at 256 KiB of 1.2 MiB").
        #[serde(default, skip_serializing_if = "Option::is_none")]
        note: Option<String>,
    },
    Folder {
        path: String,
        entries: u32,
        /// One entry per line, folders ending in `/`.
        text: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        note: Option<String>,
    },
    Image {
        media_type: String,
        /// Base64.
        data: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        name: Option<String>,
    },
    /// A mention that could not be attached: the model is told, as the user is.
    Unavailable { mention: String, reason: String },
}

impl Attachment {
    /// The text part the model reads; `None` for an image (an image part of its own).
    pub fn model_text(&self) -> Option<String> {
        let noted = |note: &Option<String>| {
            note.as_ref()
                .map(|n| format!("\n[{n}]"))
                .unwrap_or_default()
        };
        match self {
            Self::File {
                path,
                lines,
                text,
                note,
            } => {
                let range = lines
                    .map(|(a, b)| format!(" lines=\"{a}-{b}\""))
                    .unwrap_or_default();
                let end = if text.ends_with('\n') || text.is_empty() {
                    ""
                } else {
                    "\n"
                };
                Some(format!(
                    "<attached_file path=\"{path}\"{range}>\n{text}{end}</attached_file>{}",
                    noted(note)
                ))
            }
            Self::Folder {
                path,
                entries,
                text,
                note,
            } => Some(format!(
                "<attached_folder path=\"{path}\" entries=\"{entries}\">\n{text}</attached_folder>{}",
                noted(note)
            )),
            Self::Image { .. } => None,
            Self::Unavailable { mention, reason } => {
                Some(format!("[Could not attach {mention}: {reason}]"))
            }
        }
    }

    /// How the conversation shows it.
    pub fn view(&self) -> AttachmentView {
        match self {
            Self::File {
                path,
                lines,
                text,
                note,
            } => AttachmentView::File {
                path: path.clone(),
                lines: *lines,
                bytes: text.len() as u64,
                note: note.clone(),
            },
            Self::Folder {
                path,
                entries,
                note,
                ..
            } => AttachmentView::Folder {
                path: path.clone(),
                entries: *entries,
                note: note.clone(),
            },
            Self::Image {
                media_type,
                data,
                name,
            } => AttachmentView::Image {
                media_type: media_type.clone(),
                data: data.clone(),
                name: name.clone(),
            },
            Self::Unavailable { mention, reason } => AttachmentView::Unavailable {
                mention: mention.clone(),
                reason: reason.clone(),
            },
        }
    }

    /// The bytes it adds to a request (an image by its base64).
    pub fn bytes(&self) -> usize {
        match self {
            Self::Image { data, .. } => data.len(),
            other => other.model_text().map_or(0, |t| t.len()),
        }
    }

    /// Whether it is an image.
    pub fn is_image(&self) -> bool {
        matches!(self, Self::Image { .. })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_model_reads_where_each_text_came_from() {
        let file = Attachment::File {
            path: "src/a.rs".into(),
            lines: Some((10, 12)),
            text: "a\nb\nc".into(),
            note: Some("lines 10-12 of 40".into()),
        };
        assert_eq!(
            file.model_text().unwrap(),
            "<attached_file path=\"src/a.rs\" lines=\"10-12\">\na\nb\nc\n</attached_file>\n[lines 10-12 of 40]"
        );
        let missing = Attachment::Unavailable {
            mention: "@nope.rs".into(),
            reason: "no such file in the workspace".into(),
        };
        assert_eq!(
            missing.model_text().unwrap(),
            "[Could not attach @nope.rs: no such file in the workspace]"
        );
        let image = Attachment::Image {
            media_type: "image/png".into(),
            data: "iVBORw0KGgo=".into(),
            name: None,
        };
        assert_eq!(image.model_text(), None);
        assert_eq!(image.bytes(), 12);
    }
}
