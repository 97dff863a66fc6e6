//! Inline images of a prompt: the four types the seed allows, recognised by
//! their magic bytes (never by the file name), sent base64-encoded.

use crate::error::{Error, Result};
use serde_json::{Value, json};
use std::path::Path;

/// Largest image accepted for one prompt, in bytes.
pub const MAX_IMAGE_BYTES: u64 = 20 * 1024 * 1024;

/// An image ready to send.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Image {
    pub mime_type: &'static str,
    pub bytes: Vec<u8>,
}

impl Image {
    /// Reads an image file; png, jpeg, webp and gif only (`invalid_args`
    /// otherwise), at most `MAX_IMAGE_BYTES`.
    pub fn from_file(path: &Path) -> Result<Image> {
        let shown = path.display().to_string();
        let meta = std::fs::metadata(path).map_err(|e| {
            if e.kind() == std::io::ErrorKind::NotFound {
                Error::not_found(format!("no such image: {shown}"))
                    .with_hint("check the path of --image")
                    .with_detail("path", shown.clone())
            } else {
                Error::io("read", path, &e)
            }
        })?;
        if !meta.is_file() {
            return Err(Error::invalid_args(format!("{shown} is not a file"))
                .with_hint("pass the path of a png, jpeg, webp or gif image")
                .with_detail("path", shown));
        }
        if meta.len() > MAX_IMAGE_BYTES {
            return Err(Error::invalid_args(format!(
                "{shown} is {} bytes, over the image limit of {MAX_IMAGE_BYTES}",
                meta.len()
            ))
            .with_hint("scale the image down or compress it")
            .with_limit("max_image_bytes", meta.len(), MAX_IMAGE_BYTES));
        }
        let bytes = std::fs::read(path).map_err(|e| Error::io("read", path, &e))?;
        Image::from_bytes(bytes, &shown)
    }

    /// An image from its bytes; `name` is used in errors.
    pub fn from_bytes(bytes: Vec<u8>, name: &str) -> Result<Image> {
        let mime_type = sniff(&bytes).ok_or_else(|| {
            Error::invalid_args(format!(
                "{name} is not a png, jpeg, webp or gif image"
            ))
            .with_hint("the runtime accepts image/png, image/jpeg, image/webp and image/gif only; convert the image first")
            .with_detail("path", name)
        })?;
        Ok(Image { mime_type, bytes })
    }

    /// The content block of `session/prompt`.
    pub fn block(&self) -> Value {
        json!({"type": "image", "mimeType": self.mime_type, "data": base64(&self.bytes)})
    }
}

/// The MIME type by magic bytes.
fn sniff(b: &[u8]) -> Option<&'static str> {
    if b.starts_with(b"\x89PNG\r\n\x1a\n") {
        Some("image/png")
    } else if b.starts_with(&[0xff, 0xd8, 0xff]) {
        Some("image/jpeg")
    } else if b.starts_with(b"GIF87a") || b.starts_with(b"GIF89a") {
        Some("image/gif")
    } else if b.len() >= 12 && &b[..4] == b"RIFF" && &b[8..12] == b"WEBP" {
        Some("image/webp")
    } else {
        None
    }
}

/// Standard base64 with padding (RFC 4648 §4).
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = (u32::from(chunk[0]) << 16)
            | (u32::from(*chunk.get(1).unwrap_or(&0)) << 8)
            | u32::from(*chunk.get(2).unwrap_or(&0));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[(n >> (18 - 6 * i)) as usize & 63]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_matches_rfc_4648_vectors() {
        for (input, expected) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(base64(input.as_bytes()), expected);
        }
        assert_eq!(base64(&[0xff, 0xfe, 0xfd]), "//79");
    }

    #[test]
    fn types_come_from_magic_bytes() {
        assert_eq!(sniff(b"\x89PNG\r\n\x1a\nrest"), Some("image/png"));
        assert_eq!(sniff(&[0xff, 0xd8, 0xff, 0xe0]), Some("image/jpeg"));
        assert_eq!(sniff(b"GIF89a..."), Some("image/gif"));
        assert_eq!(sniff(b"RIFF\0\0\0\0WEBPVP8 "), Some("image/webp"));
        assert_eq!(sniff(b"RIFF\0\0\0\0WAVEfmt "), None);
        assert_eq!(sniff(b"hello"), None);
        assert!(Image::from_bytes(b"%PDF-1.7".to_vec(), "x.pdf").is_err());
    }
}
