//! Images a tool returned, for the user's card. The model gets only a note like
//! `[image image/png, 12 KiB]`; the card shows the image itself.
//!
//! Only PNG, JPEG, GIF and WebP are kept (no SVG: it can carry script), the base64 must be
//! well-formed, and sizes are capped per image and per call so one huge result does not bloat the
//! events and the stored session. What is left out is counted by reason, for the card to say so.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// The image types shown in a card.
pub const ALLOWED_IMAGE_TYPES: [&str; 4] = ["image/png", "image/jpeg", "image/gif", "image/webp"];
/// The largest image shown, decoded.
pub const MAX_IMAGE_BYTES: usize = 1024 * 1024;
/// The most image bytes one call shows, decoded.
pub const MAX_CALL_IMAGE_BYTES: usize = 2 * 1024 * 1024;
/// The most images one call shows.
pub const MAX_CALL_IMAGES: usize = 16;

/// One image shown in the card.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ToolImage {
    /// One of `image/png`, `image/jpeg`, `image/gif`, `image/webp`.
    pub mime_type: String,
    /// The image, base64 (standard alphabet, padded as the tool sent it).
    pub data: String,
}

/// Why an image was not shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ImageLeftOut {
    /// Larger than [`MAX_IMAGE_BYTES`].
    TooLarge,
    /// The call already shows [`MAX_CALL_IMAGES`] images or [`MAX_CALL_IMAGE_BYTES`] bytes.
    CallLimit,
    /// Not PNG, JPEG, GIF or WebP.
    UnsupportedType,
    /// The data is not base64.
    InvalidData,
}

/// How many images were left out for one reason.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ImagesLeftOut {
    pub reason: ImageLeftOut,
    pub count: u32,
}

/// The images of one call's result, for the user.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct CallImages {
    /// Shown, in the order the tool returned them.
    pub shown: Vec<ToolImage>,
    /// Not shown, counted by reason (in the order the reasons first occurred).
    pub left_out: Vec<ImagesLeftOut>,
}

/// The decoded size of well-formed base64, or `None` when `data` is not base64.
fn decoded_len(data: &str) -> Option<usize> {
    let bytes = data.as_bytes();
    if !bytes.len().is_multiple_of(4) {
        return None;
    }
    let padding = bytes.iter().rev().take_while(|b| **b == b'=').count();
    if padding > 2 {
        return None;
    }
    let body = &bytes[..bytes.len() - padding];
    if !body
        .iter()
        .all(|b| b.is_ascii_alphanumeric() || *b == b'+' || *b == b'/')
    {
        return None;
    }
    Some(bytes.len() / 4 * 3 - padding)
}

impl CallImages {
    /// Adds an image the tool returned: shown when its type, data and size allow, counted as
    /// left out otherwise. Line breaks and blanks in the base64 are dropped.
    pub fn push(&mut self, mime_type: &str, data: &str) {
        let mime = mime_type.trim().to_ascii_lowercase();
        let data: String = if data.bytes().any(|b| b.is_ascii_whitespace()) {
            data.chars().filter(|c| !c.is_ascii_whitespace()).collect()
        } else {
            data.to_owned()
        };
        if !ALLOWED_IMAGE_TYPES.contains(&mime.as_str()) {
            return self.leave_out(ImageLeftOut::UnsupportedType);
        }
        let Some(size) = decoded_len(&data).filter(|n| *n > 0) else {
            return self.leave_out(ImageLeftOut::InvalidData);
        };
        if size > MAX_IMAGE_BYTES {
            return self.leave_out(ImageLeftOut::TooLarge);
        }
        let used: usize = self.shown.iter().filter_map(|i| decoded_len(&i.data)).sum();
        if self.shown.len() >= MAX_CALL_IMAGES || used + size > MAX_CALL_IMAGE_BYTES {
            return self.leave_out(ImageLeftOut::CallLimit);
        }
        self.shown.push(ToolImage {
            mime_type: mime,
            data,
        });
    }

    fn leave_out(&mut self, reason: ImageLeftOut) {
        match self.left_out.iter_mut().find(|l| l.reason == reason) {
            Some(entry) => entry.count = entry.count.saturating_add(1),
            None => self.left_out.push(ImagesLeftOut { reason, count: 1 }),
        }
    }

    /// True when the tool returned no image at all.
    pub fn is_empty(&self) -> bool {
        self.shown.is_empty() && self.left_out.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Base64 of `n` zero bytes.
    fn zeros(n: usize) -> String {
        let mut s = "A".repeat(n.div_ceil(3) * 4);
        match n % 3 {
            1 => s.replace_range(s.len() - 2.., "=="),
            2 => s.replace_range(s.len() - 1.., "="),
            _ => {}
        }
        s
    }

    #[test]
    fn sizes_of_base64() {
        assert_eq!(decoded_len(&zeros(1)), Some(1));
        assert_eq!(decoded_len(&zeros(2)), Some(2));
        assert_eq!(decoded_len(&zeros(3)), Some(3));
        assert_eq!(decoded_len("iVBORw0KGgo="), Some(8));
        assert_eq!(decoded_len("abc"), None);
        assert_eq!(decoded_len("ab=c"), None);
        assert_eq!(decoded_len("a==="), None);
        assert_eq!(decoded_len("ab\"c"), None);
    }

    #[test]
    fn allowed_images_are_shown_and_the_rest_counted_by_reason() {
        let mut images = CallImages::default();
        images.push("image/png", "iVBORw0KGgo=");
        images.push(" Image/JPEG ", "/9j/\n4AAQ");
        images.push("image/svg+xml", "PHN2Zz4=");
        images.push("text/html", "PGI+");
        images.push("image/png", "not base64!");
        images.push("image/gif", "");
        images.push("image/webp", &zeros(MAX_IMAGE_BYTES + 1));
        assert_eq!(
            images.shown,
            vec![
                ToolImage {
                    mime_type: "image/png".into(),
                    data: "iVBORw0KGgo=".into()
                },
                ToolImage {
                    mime_type: "image/jpeg".into(),
                    data: "/9j/4AAQ".into()
                },
            ]
        );
        assert_eq!(
            images.left_out,
            vec![
                ImagesLeftOut {
                    reason: ImageLeftOut::UnsupportedType,
                    count: 2
                },
                ImagesLeftOut {
                    reason: ImageLeftOut::InvalidData,
                    count: 2
                },
                ImagesLeftOut {
                    reason: ImageLeftOut::TooLarge,
                    count: 1
                },
            ]
        );
    }

    #[test]
    fn a_call_shows_a_bounded_number_of_bytes_and_images() {
        let mut big = CallImages::default();
        for _ in 0..3 {
            big.push("image/png", &zeros(MAX_IMAGE_BYTES));
        }
        assert_eq!(big.shown.len(), 2);
        assert_eq!(
            big.left_out,
            vec![ImagesLeftOut {
                reason: ImageLeftOut::CallLimit,
                count: 1
            }]
        );
        let mut many = CallImages::default();
        for _ in 0..MAX_CALL_IMAGES + 5 {
            many.push("image/gif", &zeros(10));
        }
        assert_eq!(many.shown.len(), MAX_CALL_IMAGES);
        assert_eq!(many.left_out[0].count, 5);
        assert!(!many.is_empty() && CallImages::default().is_empty());
    }
}
