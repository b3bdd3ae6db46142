//! Telling text from binary content: well-known magic numbers first, then NUL bytes.

/// Magic-number prefixes of common binary formats and their names.
const MAGIC: &[(&[u8], &str)] = &[
    (b"\x89PNG\r\n\x1a\n", "PNG image"),
    (b"\xff\xd8\xff", "JPEG image"),
    (b"GIF87a", "GIF image"),
    (b"GIF89a", "GIF image"),
    (b"%PDF-", "PDF document"),
    (b"PK\x03\x04", "ZIP archive"),
    (b"\x1f\x8b", "gzip archive"),
    (b"BZh", "bzip2 archive"),
    (b"\xfd7zXZ\x00", "xz archive"),
    (b"7z\xbc\xaf\x27\x1c", "7-Zip archive"),
    (b"\x28\xb5\x2f\xfd", "zstd archive"),
    (b"\x7fELF", "ELF executable"),
    (b"\0asm", "WebAssembly module"),
    (b"\xcf\xfa\xed\xfe", "Mach-O executable"),
    (b"MZ", "Windows executable"),
    (b"SQLite format 3\0", "SQLite database"),
    (b"RIFF", "RIFF media (WAV/AVI/WebP)"),
    (b"OggS", "Ogg media"),
    (b"ID3", "MP3 audio"),
    (b"fLaC", "FLAC audio"),
    (b"wOFF", "WOFF font"),
    (b"wOF2", "WOFF2 font"),
    (b"\x00\x01\x00\x00\x00", "TrueType font"),
];

/// How many leading bytes are inspected for NUL bytes.
const SNIFF_LEN: usize = 8192;

/// Returns a description of the binary format if `bytes` look binary, `None` for text.
pub fn detect_binary(bytes: &[u8]) -> Option<&'static str> {
    if let Some((_, name)) = MAGIC.iter().find(|(magic, _)| bytes.starts_with(magic)) {
        return Some(name);
    }
    let head = &bytes[..bytes.len().min(SNIFF_LEN)];
    // UTF-16 text with a BOM contains NULs but is text; it is still not something we can show
    // line by line, so report it as such.
    if head.starts_with(b"\xff\xfe") || head.starts_with(b"\xfe\xff") {
        return Some("UTF-16 text (not UTF-8)");
    }
    if head.contains(&0) {
        return Some("binary data (contains NUL bytes)");
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_magic_and_nul() {
        assert_eq!(detect_binary(b"\x89PNG\r\n\x1a\nrest"), Some("PNG image"));
        assert_eq!(detect_binary(b"\x7fELF\x02\x01"), Some("ELF executable"));
        assert_eq!(
            detect_binary(b"abc\0def"),
            Some("binary data (contains NUL bytes)")
        );
        assert_eq!(detect_binary("plain text, ünïcode".as_bytes()), None);
        assert_eq!(detect_binary(b""), None);
        assert_eq!(detect_binary(b"caf\xe9 latin-1"), None);
    }
}
