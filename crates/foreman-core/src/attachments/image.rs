//! Images a message attaches: only PNG, JPEG, GIF and WebP whose bytes are what their type
//! says, and no larger than [`MAX_MESSAGE_IMAGE_BYTES`] (the smallest limit among the providers,
//! named in the refusal). An image is never resized: the user is told the limit instead.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;

use crate::protocol::ImageInput;
use crate::protocol::attachment::{MAX_MESSAGE_IMAGE_BYTES, MESSAGE_IMAGE_TYPES};

/// The image type `bytes` start with, if it is one a message may carry.
pub fn sniff(bytes: &[u8]) -> Option<&'static str> {
    if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        Some("image/png")
    } else if bytes.starts_with(b"\xff\xd8\xff") {
        Some("image/jpeg")
    } else if bytes.starts_with(b"GIF87a") || bytes.starts_with(b"GIF89a") {
        Some("image/gif")
    } else if bytes.len() >= 12 && &bytes[..4] == b"RIFF" && &bytes[8..12] == b"WEBP" {
        Some("image/webp")
    } else {
        None
    }
}

fn mib(bytes: usize) -> String {
    format!("{:.1} MB", bytes as f64 / 1_000_000.0)
}

/// Checks an image the front end sent; `Err` is the reason, for the user and the model.
pub fn check(image: &ImageInput) -> Result<(), String> {
    if !MESSAGE_IMAGE_TYPES.contains(&image.media_type.as_str()) {
        return Err(format!(
            "{} images cannot be sent; PNG, JPEG, GIF and WebP can",
            image.media_type
        ));
    }
    let bytes = STANDARD
        .decode(image.data.as_bytes())
        .map_err(|_| "the image data is damaged (not base64)".to_owned())?;
    if bytes.len() > MAX_MESSAGE_IMAGE_BYTES {
        return Err(format!(
            "the image is {}; the limit is {} per image",
            mib(bytes.len()),
            mib(MAX_MESSAGE_IMAGE_BYTES)
        ));
    }
    match sniff(&bytes) {
        Some(kind) if kind == image.media_type => Ok(()),
        Some(kind) => Err(format!(
            "the image says it is {} but its bytes are {kind}",
            image.media_type
        )),
        None => Err(format!("the data is not a {} image", image.media_type)),
    }
}

/// An image file's bytes as an image to send, or the reason it cannot be.
pub fn from_bytes(bytes: &[u8], name: Option<String>) -> Result<ImageInput, String> {
    let media_type = sniff(bytes).ok_or_else(|| "not a PNG, JPEG, GIF or WebP image".to_owned())?;
    let image = ImageInput {
        media_type: media_type.to_owned(),
        data: STANDARD.encode(bytes),
        name,
    };
    check(&image)?;
    Ok(image)
}

#[cfg(test)]
mod tests {
    use super::*;

    const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR";

    #[test]
    fn an_image_must_be_what_it_says_and_within_the_limit() {
        let png = from_bytes(PNG, Some("shot.png".into())).unwrap();
        assert_eq!(png.media_type, "image/png");
        assert!(check(&png).is_ok());
        let lying = ImageInput {
            media_type: "image/jpeg".into(),
            ..png.clone()
        };
        assert_eq!(
            check(&lying).unwrap_err(),
            "the image says it is image/jpeg but its bytes are image/png"
        );
        let svg = ImageInput {
            media_type: "image/svg+xml".into(),
            ..png.clone()
        };
        assert!(
            check(&svg)
                .unwrap_err()
                .starts_with("image/svg+xml images cannot be sent")
        );
        let damaged = ImageInput {
            data: "not base64!".into(),
            ..png
        };
        assert_eq!(
            check(&damaged).unwrap_err(),
            "the image data is damaged (not base64)"
        );
        let mut huge = PNG.to_vec();
        huge.resize(7_200_000, 0);
        assert_eq!(
            from_bytes(&huge, None).unwrap_err(),
            "the image is 7.2 MB; the limit is 5.0 MB per image"
        );
        assert_eq!(
            from_bytes(b"hello", None).unwrap_err(),
            "not a PNG, JPEG, GIF or WebP image"
        );
    }
}
