use proptest::prelude::*;

use super::*;

fn one(original: &str, old: &str, new: &str) -> Result<Edited, EditsFailed> {
    apply_edits(
        original,
        &[Replacement {
            old,
            new,
            replace_all: false,
        }],
    )
}

#[test]
fn an_exact_edit_names_no_tolerance() {
    let edited = one("a\nb\nc\n", "b", "B").unwrap();
    assert_eq!(edited.text, "a\nB\nc\n");
    assert!(edited.tolerances.is_empty());
    assert_eq!((edited.replacements, edited.first_line), (1, 2));
}

#[test]
fn a_later_edit_is_told_about_the_file_on_disk() {
    let original = "alpha\nbeta\ngamma\n";
    let edits = [
        Replacement {
            old: "beta",
            new: "BETA",
            replace_all: false,
        },
        Replacement {
            old: "beta\ngamma",
            new: "x",
            replace_all: false,
        },
    ];
    let failed = apply_edits(original, &edits).unwrap_err();
    assert_eq!(failed.edit, (2, 2));
    assert_eq!(
        failed.failure,
        EditFailure::ChangedByEarlierEdit { line: 2 }
    );
}

/// Cuts `file` at `at` and `at + len`, moved so neither cut splits a `\r\n`.
fn cut(file: &str, at: usize, len: usize) -> (usize, usize) {
    let bytes = file.as_bytes();
    let split = |i: usize| i > 0 && i < bytes.len() && bytes[i - 1] == b'\r' && bytes[i] == b'\n';
    let mut start = at.min(file.len());
    if split(start) {
        start -= 1;
    }
    let mut end = (start + len).min(file.len());
    if split(end) {
        end += 1;
    }
    (start, end)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, max_global_rejects: 20_000, ..ProptestConfig::default() })]

    /// For any file and any exact `old_string` that occurs once, the edit changes only the bytes
    /// of that match: every byte outside it is kept, line endings included.
    #[test]
    fn an_exact_unique_edit_keeps_every_byte_outside_its_match(
        file in "[abcdef \t\r\n]{1,120}",
        at in any::<prop::sample::Index>(),
        len in 1usize..16,
        new in "[xy\r\n]{1,8}",
    ) {
        let (start, end) = cut(&file, at.index(file.len()), len);
        prop_assume!(start < end);
        let old = &file[start..end];
        let lf_old = text::to_lf(old);
        let lf_file = EditText::parse(&file).lf().to_owned();
        // Once, counting overlapping occurrences too.
        let places = (0..lf_file.len())
            .filter(|&i| lf_file.is_char_boundary(i) && lf_file[i..].starts_with(lf_old.as_str()))
            .count();
        prop_assume!(places == 1);
        prop_assume!(lf_old != text::to_lf(&new));
        let edited = one(&file, old, &new).unwrap();
        prop_assert!(edited.tolerances.is_empty(), "{:?}", edited.tolerances);
        prop_assert!(edited.text.starts_with(&file[..start]), "{:?}", edited.text);
        prop_assert!(edited.text.ends_with(&file[end..]), "{:?}", edited.text);
    }
}
