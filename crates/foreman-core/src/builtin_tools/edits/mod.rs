//! What `edit` and `multi_edit` do to a file's text, with no I/O, so an approval's preview is
//! exactly what approving writes.
//!
//! - [`text`]: the file's text with LF line breaks, each break's own ending kept aside and put
//!   back on write, so untouched lines keep their bytes in a file of any mix of endings.
//! - [`find`]: where `old_string` is: exactly, then read more loosely, each tolerance used only
//!   when the match stays unique and named in the result.
//! - [`repair`]: what models get wrong in the strings, and placeholders that are refused.
//! - [`failure`]: why an edit failed, describing the file as it is on disk.

pub mod failure;
pub mod find;
pub mod repair;
pub mod text;

use std::collections::BTreeSet;

pub use self::failure::{ClosestRegion, EditFailure};
use self::find::locate;
pub use self::repair::Tolerance;
use self::text::{EditText, to_lf};

/// One replacement: `old_string` becomes `new_string` (everywhere, with `replace_all`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Replacement<'a> {
    pub old: &'a str,
    pub new: &'a str,
    pub replace_all: bool,
}

/// What the edits make of a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edited {
    /// The file's new text, to write as it is.
    pub text: String,
    pub replacements: usize,
    /// How the edits' strings were read other than as sent.
    pub tolerances: BTreeSet<Tolerance>,
    /// Some line ends in CRLF (each line's ending is kept).
    pub crlf: bool,
    /// 1-based line of the first change.
    pub first_line: usize,
}

/// Why the edits were not applied: which one failed (of how many) and why.
#[derive(Debug, Clone, PartialEq)]
pub struct EditsFailed {
    /// 1-based number of the edit that failed, and how many the call had.
    pub edit: (usize, usize),
    pub failure: EditFailure,
}

/// Applies `edits` to `original` in order, each to what the earlier ones left; all or nothing.
pub fn apply_edits(original: &str, edits: &[Replacement<'_>]) -> Result<Edited, EditsFailed> {
    let mut text = EditText::parse(original);
    let disk = text.lf().to_owned();
    let mut replacements = 0;
    let mut tolerances = BTreeSet::new();
    let mut first_line = usize::MAX;
    for (index, edit) in edits.iter().enumerate() {
        let (old, new) = (to_lf(edit.old), to_lf(edit.new));
        let found = match locate(text.lf(), &old, &new, edit.replace_all) {
            Ok(found) => found,
            Err(failure) => {
                let failure = match index {
                    0 => failure,
                    _ => on_disk(&disk, &old, &new, edit.replace_all, failure),
                };
                return Err(EditsFailed {
                    edit: (index + 1, edits.len()),
                    failure,
                });
            }
        };
        if let Some((range, _)) = found.edits.first() {
            first_line = first_line.min(failure::line_column(text.lf(), range.start).0);
        }
        replacements += found.edits.len();
        tolerances.extend(found.tolerances);
        text.splice(&found.edits);
    }
    Ok(Edited {
        crlf: text.crlf(),
        text: text.render(),
        replacements,
        tolerances,
        first_line,
    })
}

/// The failure of a later edit of a call, told about the file on disk (the text the earlier
/// edits left was never written): the same search there, or, when it succeeds there, that an
/// earlier edit changed the text.
fn on_disk(
    disk: &str,
    old: &str,
    new: &str,
    replace_all: bool,
    failure: EditFailure,
) -> EditFailure {
    match (&failure, locate(disk, old, new, replace_all)) {
        (EditFailure::NoMatch { .. } | EditFailure::Ambiguous { .. }, Ok(found)) => {
            let at = found.edits.first().map_or(0, |(r, _)| r.start);
            EditFailure::ChangedByEarlierEdit {
                line: failure::line_column(disk, at).0,
            }
        }
        (EditFailure::NoMatch { .. } | EditFailure::Ambiguous { .. }, Err(there)) => there,
        _ => failure,
    }
}

#[cfg(test)]
mod tests;
