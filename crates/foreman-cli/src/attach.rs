//! `--attach PATH` of `exec`: a file or folder of the workspace (`src/a.rs`, `src/a.rs:10-40`,
//! `src/`) is attached as the app's `@path` is, read by the engine; an image (PNG, JPEG, GIF,
//! WebP, known by its bytes) is read here and may come from anywhere, like a screenshot.

use std::path::{Path, PathBuf};

use foreman_core::attachments::{image, mention};
use foreman_protocol::AttachInput;

/// What `paths` (relative to `cwd`) attach to a message in `workspace` (canonical), or the first
/// that cannot be attached and why.
pub fn attachments(
    paths: &[String],
    cwd: &Path,
    workspace: &Path,
) -> Result<Vec<AttachInput>, String> {
    paths.iter().map(|raw| one(raw, cwd, workspace)).collect()
}

fn one(raw: &str, cwd: &Path, workspace: &Path) -> Result<AttachInput, String> {
    let found = |p: &str| -> Option<PathBuf> { cwd.join(p).canonicalize().ok() };
    // `a.rs:10-40` names lines of `a.rs`, unless a file is really called that.
    let (path, lines) = match found(raw) {
        Some(path) => (path, None),
        None => {
            let m = mention::parse(raw);
            let path = found(m.path)
                .filter(|_| m.lines.is_some())
                .ok_or_else(|| format!("--attach {raw}: no such file or folder"))?;
            (path, m.lines)
        }
    };
    if path.is_file() && lines.is_none() {
        let head = std::fs::read(&path).map_err(|e| format!("--attach {raw}: {e}"))?;
        if image::sniff(&head).is_some() {
            let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
            return image::from_bytes(&head, name)
                .map(AttachInput::Image)
                .map_err(|reason| format!("--attach {raw}: {reason}"));
        }
    }
    let relative = path.strip_prefix(workspace).map_err(|_| {
        format!(
            "--attach {raw}: it is outside the workspace; only images can be attached from \
             elsewhere"
        )
    })?;
    let mut shown = relative.to_string_lossy().into_owned();
    if shown.is_empty() {
        shown.push('.');
    }
    if path.is_dir() && !shown.ends_with('/') {
        shown.push('/');
    }
    if let Some((a, b)) = lines {
        shown = format!("{shown}:{a}-{b}");
    }
    Ok(AttachInput::Path { path: shown })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_folders_ranges_and_images_from_anywhere() {
        let outside = tempfile::tempdir().unwrap();
        let dir = tempfile::tempdir().unwrap();
        let ws = dir.path().canonicalize().unwrap();
        std::fs::create_dir(ws.join("src")).unwrap();
        std::fs::write(ws.join("src/a.rs"), "fn a() {}\n").unwrap();
        std::fs::write(
            outside.path().join("shot.png"),
            b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR",
        )
        .unwrap();
        std::fs::write(outside.path().join("notes.txt"), "x").unwrap();
        let shot = outside.path().join("shot.png").display().to_string();
        let got = attachments(
            &["src/a.rs".into(), "src/a.rs:1-1".into(), "src".into(), shot],
            &ws,
            &ws,
        )
        .unwrap();
        assert_eq!(
            got[0],
            AttachInput::Path {
                path: "src/a.rs".into()
            }
        );
        assert_eq!(
            got[1],
            AttachInput::Path {
                path: "src/a.rs:1-1".into()
            }
        );
        assert_eq!(
            got[2],
            AttachInput::Path {
                path: "src/".into()
            }
        );
        let AttachInput::Image(img) = &got[3] else {
            panic!("{got:?}")
        };
        assert_eq!(
            (img.media_type.as_str(), img.name.as_deref()),
            ("image/png", Some("shot.png"))
        );
        let text = outside.path().join("notes.txt").display().to_string();
        assert_eq!(
            attachments(std::slice::from_ref(&text), &ws, &ws).unwrap_err(),
            format!(
                "--attach {text}: it is outside the workspace; only images can be attached from elsewhere"
            )
        );
        assert_eq!(
            attachments(&["nope.rs".into()], &ws, &ws).unwrap_err(),
            "--attach nope.rs: no such file or folder"
        );
    }
}
