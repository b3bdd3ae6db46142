use super::*;
use crate::protocol::ImageInput;

fn setup() -> (tempfile::TempDir, WorkspaceBoundary, ReadTracker) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir_all(root.join("src/nested")).unwrap();
    let lines: String = (1..=50).map(|n| format!("line {n}\n")).collect();
    std::fs::write(root.join("src/lib.rs"), &lines).unwrap();
    std::fs::write(root.join("src/logo.png"), b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR").unwrap();
    std::fs::write(root.join("blob.bin"), b"\0\x01\x02 binary").unwrap();
    std::fs::write(root.join("latin1.txt"), b"caf\xe9\n").unwrap();
    let boundary = WorkspaceBoundary::new(root).unwrap();
    (dir, boundary, ReadTracker::new())
}

fn path(p: &str) -> AttachInput {
    AttachInput::Path { path: p.into() }
}

fn unavailable(a: &Attachment) -> String {
    match a {
        Attachment::Unavailable { mention, reason } => format!("{mention}: {reason}"),
        other => panic!("attached: {other:?}"),
    }
}

#[test]
fn a_whole_file_is_attached_and_counts_as_read() {
    let (_dir, boundary, reads) = setup();
    let got = resolve(&boundary, &reads, &[path("src/lib.rs")], 256 * 1024);
    let Attachment::File {
        path,
        lines,
        text,
        note,
    } = &got[0]
    else {
        panic!("{got:?}")
    };
    assert_eq!((path.as_str(), *lines, note), ("src/lib.rs", None, &None));
    assert!(text.starts_with("line 1\n") && text.ends_with("line 50\n"));
    let resolved = boundary.resolve("src/lib.rs").unwrap();
    assert!(
        reads.baseline(&resolved).is_some(),
        "the model saw the whole file"
    );
}

#[test]
fn a_range_attaches_those_lines_and_says_where_the_file_ends() {
    let (_dir, boundary, reads) = setup();
    let got = resolve(
        &boundary,
        &reads,
        &[
            path("src/lib.rs:10-12"),
            path("src/lib.rs:48-60"),
            path("src/lib.rs:70-80"),
        ],
        256 * 1024,
    );
    assert_eq!(
        got[0],
        Attachment::File {
            path: "src/lib.rs".into(),
            lines: Some((10, 12)),
            text: "line 10\nline 11\nline 12\n".into(),
            note: None,
        }
    );
    let Attachment::File { lines, note, .. } = &got[1] else {
        panic!()
    };
    assert_eq!(
        (*lines, note.as_deref()),
        (Some((48, 50)), Some("the file ends at line 50"))
    );
    assert_eq!(
        unavailable(&got[2]),
        "@src/lib.rs:70-80: it has 50 lines, so lines 70-80 are not there"
    );
    let resolved = boundary.resolve("src/lib.rs").unwrap();
    assert!(
        reads.baseline(&resolved).is_none(),
        "a range is not the whole file"
    );
}

#[test]
fn a_large_file_is_cut_at_a_line_with_a_note() {
    let (_dir, boundary, reads) = setup();
    let got = resolve(&boundary, &reads, &[path("src/lib.rs")], 20);
    let Attachment::File { text, note, .. } = &got[0] else {
        panic!()
    };
    assert_eq!(text, "line 1\nline 2\n");
    assert_eq!(
        note.as_deref(),
        Some(
            "cut at 1 KiB of 1 KiB: the first 2 lines are attached; read the rest with the read tool"
        )
    );
    assert!(
        reads
            .baseline(&boundary.resolve("src/lib.rs").unwrap())
            .is_none()
    );
}

#[test]
fn a_folder_attaches_its_listing() {
    let (_dir, boundary, reads) = setup();
    let got = resolve(&boundary, &reads, &[path("src/"), path("src")], 1024);
    let want = Attachment::Folder {
        path: "src/".into(),
        entries: 3,
        text: "lib.rs\nlogo.png\nnested/\n".into(),
        note: None,
    };
    assert_eq!(got, vec![want.clone(), want]);
}

#[test]
fn an_image_file_is_attached_as_an_image() {
    let (_dir, boundary, reads) = setup();
    let got = resolve(&boundary, &reads, &[path("src/logo.png")], 1024);
    let Attachment::Image {
        media_type, name, ..
    } = &got[0]
    else {
        panic!("{got:?}")
    };
    assert_eq!(
        (media_type.as_str(), name.as_deref()),
        ("image/png", Some("src/logo.png"))
    );
}

#[test]
fn what_cannot_be_attached_says_why() {
    let (_dir, boundary, reads) = setup();
    let got = resolve(
        &boundary,
        &reads,
        &[
            path("missing.rs"),
            path("blob.bin"),
            path("latin1.txt"),
            path("../etc/passwd"),
        ],
        1024,
    );
    assert_eq!(
        unavailable(&got[0]),
        "@missing.rs: no such file or folder in the workspace"
    );
    assert!(
        unavailable(&got[1]).starts_with("@blob.bin: it is a binary file ("),
        "{:?}",
        got[1]
    );
    assert_eq!(unavailable(&got[2]), "@latin1.txt: it is not UTF-8 text");
    assert!(
        unavailable(&got[3]).starts_with("@../etc/passwd: "),
        "{:?}",
        got[3]
    );
    assert!(
        unavailable(&got[3]).contains("outside the workspace"),
        "{:?}",
        got[3]
    );
}

#[test]
fn a_pasted_image_is_checked() {
    let (_dir, boundary, reads) = setup();
    let good = image::from_bytes(b"GIF89a\x01\0\x01\0", None).unwrap();
    let bad = ImageInput {
        media_type: "image/png".into(),
        data: good.data.clone(),
        name: Some("shot.png".into()),
    };
    let got = resolve(
        &boundary,
        &reads,
        &[AttachInput::Image(good), AttachInput::Image(bad)],
        1024,
    );
    assert!(got[0].is_image());
    assert_eq!(
        unavailable(&got[1]),
        "shot.png: the image says it is image/png but its bytes are image/gif"
    );
}
