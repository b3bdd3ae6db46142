//! What every built-in tool output offers the tool wrapper: a title for the UI card and the text
//! the model reads. The full output (title and metadata) is serialised as the card's result.

use serde::Serialize;

use super::bash::BashOutput;
use super::glob::GlobOutput;
use super::grep::GrepOutput;
use super::http_fetch::HttpFetchOutput;
use super::ls::LsOutput;
use super::multi_edit::EditOutput;
use super::read::ReadOutput;
use super::todo::TodoWriteOutput;
use super::write::WriteOutput;

/// A built-in tool's output.
pub trait BuiltinOutput: Serialize {
    /// One-line title with the key metadata (path, lines, sizes, counts).
    fn title(&self) -> &str;
    /// The text the model reads.
    fn render(&self) -> String;
}

macro_rules! impl_output {
    ($($ty:ty),* $(,)?) => {
        $(impl BuiltinOutput for $ty {
            fn title(&self) -> &str {
                &self.title
            }
            fn render(&self) -> String {
                <$ty>::render(self)
            }
        })*
    };
}

impl_output!(
    ReadOutput,
    WriteOutput,
    EditOutput,
    LsOutput,
    GlobOutput,
    GrepOutput,
    BashOutput,
    HttpFetchOutput,
    TodoWriteOutput,
);
