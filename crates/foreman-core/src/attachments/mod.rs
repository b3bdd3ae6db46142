//! Attachments of a user message, read from the workspace when the model takes the message.
//!
//! - `@path` attaches the file's text, cut at a size cap (256 KiB unless configured) with a
//!   note saying so; `@path:10-40` attaches those lines; `@dir/` (or any folder) its listing; a
//!   path to a PNG, JPEG, GIF or WebP file attaches the image.
//! - Images pasted or dropped arrive as data and are checked ([`image::check`]).
//! - Whatever cannot be attached (no such path, outside the workspace, binary, not UTF-8, an
//!   image over the limit, lines past the end) becomes [`Attachment::Unavailable`] with the
//!   reason: the message still goes, and the model and the user both read why.
//!
//! Paths go through the workspace boundary like the tools' ([`WorkspaceBoundary`]). A whole
//! file attached counts as read for the stale-read guard: the model saw all of it.

pub mod image;
pub mod mention;

use std::io::{BufRead, BufReader, Read};
use std::path::Path;

use crate::boundary::WorkspaceBoundary;
use crate::builtin_tools::WorkspaceFiles;
use crate::builtin_tools::file_kind::detect_binary;
use crate::builtin_tools::stale_guard::{ReadTracker, content_hash};
use crate::protocol::AttachInput;
use crate::providers::Attachment;

/// The most entries a folder's listing attaches.
pub const MAX_FOLDER_ENTRIES: usize = 500;

/// Reads what `inputs` ask for, in order. `max_file_bytes` caps each file's text.
pub fn resolve(
    boundary: &WorkspaceBoundary,
    reads: &ReadTracker,
    inputs: &[AttachInput],
    max_file_bytes: usize,
) -> Vec<Attachment> {
    inputs
        .iter()
        .map(|input| match input {
            AttachInput::Path { path } => attach_path(boundary, reads, path, max_file_bytes)
                .unwrap_or_else(|reason| Attachment::Unavailable {
                    mention: format!("@{path}"),
                    reason,
                }),
            AttachInput::Image(img) => match image::check(img) {
                Ok(()) => Attachment::Image {
                    media_type: img.media_type.clone(),
                    data: img.data.clone(),
                    name: img.name.clone(),
                },
                Err(reason) => Attachment::Unavailable {
                    mention: img
                        .name
                        .clone()
                        .unwrap_or_else(|| "the pasted image".into()),
                    reason,
                },
            },
        })
        .collect()
}

impl WorkspaceFiles {
    /// Reads what a user message attaches ([`resolve`]); a whole file attached counts as read by
    /// the model.
    pub fn attach(&self, inputs: &[AttachInput], max_file_bytes: usize) -> Vec<Attachment> {
        let session = self.session();
        resolve(&session.boundary, &session.reads, inputs, max_file_bytes)
    }
}

fn size(bytes: u64) -> String {
    if bytes >= 1024 * 1024 {
        format!("{:.1} MiB", bytes as f64 / (1024.0 * 1024.0))
    } else {
        format!("{} KiB", bytes.div_ceil(1024))
    }
}

fn attach_path(
    boundary: &WorkspaceBoundary,
    reads: &ReadTracker,
    raw: &str,
    max_bytes: usize,
) -> Result<Attachment, String> {
    let mut mention = mention::parse(raw);
    // A name that really ends in `:7` is that file.
    if mention.lines.is_some() && boundary.resolve(raw).is_ok_and(|p| p.is_file()) {
        mention = mention::Mention {
            path: raw,
            lines: None,
        };
    }
    let resolved = boundary.resolve(mention.path).map_err(|e| e.to_string())?;
    let shown = boundary.display_relative(&resolved);
    let meta = std::fs::metadata(&resolved).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => "no such file or folder in the workspace".to_owned(),
        _ => format!("it cannot be read: {e}"),
    })?;
    if meta.is_dir() {
        return folder(&resolved, shown);
    }
    let file = boundary.open_read(&resolved).map_err(|e| e.to_string())?;
    match mention.lines {
        Some(lines) => line_range(file, shown, lines, max_bytes),
        None => whole_file(file, &resolved, shown, meta.len(), reads, max_bytes),
    }
}

fn whole_file(
    file: std::fs::File,
    resolved: &Path,
    shown: String,
    len: u64,
    reads: &ReadTracker,
    max_bytes: usize,
) -> Result<Attachment, String> {
    let mut bytes = Vec::new();
    let limit = u64::try_from(max_bytes).unwrap_or(u64::MAX);
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| format!("it cannot be read: {e}"))?;
    if let Some(kind) = image::sniff(&bytes) {
        let mut all = bytes;
        if len > limit {
            all = std::fs::read(resolved).map_err(|e| format!("it cannot be read: {e}"))?;
        }
        let name = Some(shown.clone());
        return image::from_bytes(&all, name)
            .map(|img| Attachment::Image {
                media_type: img.media_type,
                data: img.data,
                name: img.name,
            })
            .map_err(|reason| format!("{kind} file: {reason}"));
    }
    if let Some(kind) = detect_binary(&bytes) {
        return Err(format!("it is a binary file ({kind}), not text"));
    }
    let cut = bytes.len() > max_bytes;
    if cut {
        bytes.truncate(max_bytes);
        // Cut at the last whole line, so no character or line is split.
        if let Some(end) = bytes.iter().rposition(|b| *b == b'\n') {
            bytes.truncate(end + 1);
        }
    }
    let text = match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) if cut => {
            let valid = e.utf8_error().valid_up_to();
            let mut bytes = e.into_bytes();
            bytes.truncate(valid);
            String::from_utf8(bytes).map_err(|_| "it is not UTF-8 text".to_owned())?
        }
        Err(_) => return Err("it is not UTF-8 text".to_owned()),
    };
    let note = if cut {
        let lines = text.lines().count();
        Some(format!(
            "cut at {} of {}: the first {lines} lines are attached; read the rest with the read tool",
            size(limit),
            size(len)
        ))
    } else {
        reads.record(resolved, content_hash(text.as_bytes()));
        None
    };
    Ok(Attachment::File {
        path: shown,
        lines: None,
        text,
        note,
    })
}

fn line_range(
    file: std::fs::File,
    shown: String,
    (first, last): (u32, u32),
    max_bytes: usize,
) -> Result<Attachment, String> {
    let mut reader = BufReader::new(file);
    let mut text = String::new();
    let mut line = Vec::new();
    let mut number = 0u32;
    let mut cut_at = None;
    loop {
        line.clear();
        let n = reader
            .read_until(b'\n', &mut line)
            .map_err(|e| format!("it cannot be read: {e}"))?;
        if n == 0 {
            break;
        }
        number += 1;
        if number < first {
            continue;
        }
        if number > last {
            break;
        }
        if detect_binary(&line).is_some() {
            return Err("it is a binary file, not text".to_owned());
        }
        let piece = std::str::from_utf8(&line).map_err(|_| "it is not UTF-8 text".to_owned())?;
        if text.len() + piece.len() > max_bytes {
            cut_at = Some(number);
            break;
        }
        text.push_str(piece);
    }
    if number < first {
        return Err(format!(
            "it has {number} lines, so lines {first}-{last} are not there"
        ));
    }
    let end = match cut_at {
        Some(n) => n - 1,
        None => last.min(number),
    };
    let note = match cut_at {
        Some(_) => Some(format!(
            "lines {first}-{end} attached of the {first}-{last} asked for: cut at {}",
            size(u64::try_from(max_bytes).unwrap_or(u64::MAX))
        )),
        None if end < last => Some(format!("the file ends at line {end}")),
        None => None,
    };
    Ok(Attachment::File {
        path: shown,
        lines: Some((first, end)),
        text,
        note,
    })
}

fn folder(resolved: &Path, shown: String) -> Result<Attachment, String> {
    let mut entries: Vec<String> = std::fs::read_dir(resolved)
        .map_err(|e| format!("it cannot be listed: {e}"))?
        .filter_map(Result::ok)
        .map(|entry| {
            let name = entry.file_name().to_string_lossy().into_owned();
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                format!("{name}/")
            } else {
                name
            }
        })
        .filter(|name| name != ".git/")
        .collect();
    entries.sort();
    let total = entries.len();
    let note = (total > MAX_FOLDER_ENTRIES)
        .then(|| format!("the first {MAX_FOLDER_ENTRIES} of {total} entries are listed"));
    entries.truncate(MAX_FOLDER_ENTRIES);
    let mut text = entries.join("\n");
    if !text.is_empty() {
        text.push('\n');
    }
    let path = if shown.ends_with('/') || shown == "." {
        shown
    } else {
        format!("{shown}/")
    };
    Ok(Attachment::Folder {
        path,
        entries: u32::try_from(total).unwrap_or(u32::MAX),
        text,
        note,
    })
}

#[cfg(test)]
mod tests;
