//! What the built-in file tools share for the approval policy and the diff preview: a path's
//! facts, and a file's current text.

use std::path::PathBuf;

use super::session::BuiltinSession;
use crate::approval::{ActionClass, CallFacts};
use crate::tools::ToolError;

/// The facts of a call of `tool` on the path `raw`: refused outside the workspace; a change in
/// a protected folder (`.git/`, `.foreman/`) always asks.
pub fn path_facts(
    session: &BuiltinSession,
    tool: &str,
    class: ActionClass,
    raw: &str,
) -> Result<CallFacts, ToolError> {
    let boundary = &session.boundary;
    let resolved = boundary.resolve(raw).map_err(super::BuiltinError::from)?;
    Ok(CallFacts {
        path: Some(boundary.display_relative(&resolved)),
        protected: class != ActionClass::Read && boundary.is_protected(&resolved),
        ..CallFacts::new(tool, class)
    })
}

/// The file `raw` names, as shown, and its text (`None`: no such file). A file that is not UTF-8
/// is read lossily when `lossy` (a write's preview) and refused otherwise (an edit refuses it).
pub fn current_text(
    session: &BuiltinSession,
    raw: &str,
    lossy: bool,
) -> Option<(PathBuf, String, Option<String>)> {
    let boundary = &session.boundary;
    let resolved = boundary.resolve(raw).ok()?;
    let shown = boundary.display_relative(&resolved);
    let old = match std::fs::read(&resolved) {
        Ok(bytes) if lossy => Some(String::from_utf8_lossy(&bytes).into_owned()),
        Ok(bytes) => Some(String::from_utf8(bytes).ok()?),
        Err(_) => None,
    };
    Some((resolved, shown, old))
}
