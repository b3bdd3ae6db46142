//! What a built-in tool declares for the list ([`Builtin`]): when a session gets it and what
//! Claude Code calls it and its arguments. The list ([`super::list`]) holds one [`Listed`] per
//! tool, made from the tool's type, so every name of a tool is written once, in its own file.

use std::sync::Arc;

use super::session::BuiltinSession;
use crate::tools::{AnyTool, Tool};

/// A tool of the list: its [`Tool::NAME`] is the name the model calls, and these say the rest.
pub trait Builtin: Tool + Sized {
    /// Claude Code's name for the tool (`Bash`), when Claude Code has one: a hook's matcher and
    /// a command's `allowed-tools` use it, and a hook is shown it.
    const CLAUDE_NAME: Option<&'static str> = None;

    /// The arguments Claude Code names otherwise, ours then its (`("path", "file_path")`): a hook
    /// is shown its names.
    const CLAUDE_FIELDS: &'static [(&'static str, &'static str)] = &[];

    /// The tool over `session`; `None` when this session does not get it (`sub_agents`: whether
    /// the session may start sub-agents).
    fn for_session(session: &BuiltinSession, sub_agents: bool) -> Option<Self>;
}

/// One tool of the list, with its names.
#[derive(Clone, Copy)]
pub struct Listed {
    /// The name the model calls ([`Tool::NAME`]).
    pub name: &'static str,
    /// [`Builtin::CLAUDE_NAME`].
    pub claude_name: Option<&'static str>,
    /// [`Builtin::CLAUDE_FIELDS`].
    pub claude_fields: &'static [(&'static str, &'static str)],
    build: fn(&BuiltinSession, bool) -> Option<Arc<dyn AnyTool>>,
}

impl Listed {
    /// The entry of the tool `T`.
    pub const fn of<T: Builtin>() -> Self {
        Self {
            name: T::NAME,
            claude_name: T::CLAUDE_NAME,
            claude_fields: T::CLAUDE_FIELDS,
            build: build::<T>,
        }
    }

    /// The tool over `session`, when the session gets it.
    pub fn build(&self, session: &BuiltinSession, sub_agents: bool) -> Option<Arc<dyn AnyTool>> {
        (self.build)(session, sub_agents)
    }
}

impl std::fmt::Debug for Listed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Listed")
            .field("name", &self.name)
            .field("claude_name", &self.claude_name)
            .field("claude_fields", &self.claude_fields)
            .finish_non_exhaustive()
    }
}

fn build<T: Builtin>(session: &BuiltinSession, sub_agents: bool) -> Option<Arc<dyn AnyTool>> {
    T::for_session(session, sub_agents).map(|tool| Arc::new(tool) as Arc<dyn AnyTool>)
}

/// Whether no two entries of `list` share a name, or a Claude Code name (checked when the crate
/// is compiled: a second tool of a name cannot be listed).
pub const fn names_are_distinct(list: &[Listed]) -> bool {
    let mut i = 0;
    while i < list.len() {
        let mut j = i + 1;
        while j < list.len() {
            if same(list[i].name, list[j].name) {
                return false;
            }
            if let (Some(a), Some(b)) = (list[i].claude_name, list[j].claude_name)
                && same(a, b)
            {
                return false;
            }
            j += 1;
        }
        i += 1;
    }
    true
}

const fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtin_tools::attempt_completion::AttemptCompletionTool;
    use crate::builtin_tools::bash::BashTool;
    use crate::builtin_tools::read::ReadTool;

    #[test]
    fn a_name_listed_twice_is_refused() {
        let distinct = [
            Listed::of::<ReadTool>(),
            Listed::of::<BashTool>(),
            Listed::of::<AttemptCompletionTool>(),
        ];
        assert!(names_are_distinct(&distinct));
        let twice = [
            Listed::of::<ReadTool>(),
            Listed::of::<BashTool>(),
            Listed::of::<ReadTool>(),
        ];
        assert!(!names_are_distinct(&twice));
        let mut claude_twice = distinct;
        claude_twice[2].claude_name = Some("Read");
        assert!(!names_are_distinct(&claude_twice));
    }
}
