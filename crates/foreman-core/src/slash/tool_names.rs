//! Claude Code's tool names and ours, in one table for hooks and commands: a command's
//! `allowed-tools` and a hook's matcher are written with Claude Code's names (`Bash`, `Edit`,
//! `WebFetch`), and a hook is shown Claude Code's names (and argument names) so existing scripts
//! work. The table is the list of built-in tools ([`BUILTINS`]): each tool declares its Claude
//! Code name in its own file ([`Builtin`](crate::builtin_tools::Builtin)).
//!
//! MCP tools are `mcp__server__tool` in Claude Code and `server__tool` here
//! ([`crate::mcp::naming`]); [`ours_from_claude_mcp`] and [`claude_mcp_from_ours`] convert them.

use crate::builtin_tools::BUILTINS;

/// Claude Code's name and ours, for each built-in tool that both have, in the list's order.
pub fn names() -> impl Iterator<Item = (&'static str, &'static str)> {
    BUILTINS
        .iter()
        .filter_map(|listed| Some((listed.claude_name?, listed.name)))
}

/// Our name for Claude Code's built-in tool `name` (`Bash` → `bash`); `None` for a tool we do not
/// have (`WebSearch`, `NotebookEdit`) and for MCP tools.
pub fn ours_from_claude(name: &str) -> Option<&'static str> {
    names()
        .find(|(claude, _)| *claude == name)
        .map(|(_, ours)| ours)
}

/// Claude Code's name for our built-in tool `name` (`http_fetch` → `WebFetch`).
pub fn claude_from_ours(name: &str) -> Option<&'static str> {
    names()
        .find(|(_, ours)| *ours == name)
        .map(|(claude, _)| claude)
}

/// Claude Code's name for the argument `field` of our built-in tool `ours` (`read`'s `path` is
/// `file_path`); `None` when it is the same.
pub fn claude_field(ours: &str, field: &str) -> Option<&'static str> {
    BUILTINS
        .iter()
        .find(|listed| listed.name == ours)?
        .claude_fields
        .iter()
        .find(|(our_field, _)| *our_field == field)
        .map(|(_, claude)| *claude)
}

/// Our name for Claude Code's MCP tool name `mcp__server__tool` (`server__tool`, as
/// [`crate::mcp::naming::qualified`] spells it); `None` when `name` is not an MCP name.
pub fn ours_from_claude_mcp(name: &str) -> Option<String> {
    let rest = name.strip_prefix("mcp__")?;
    let (server, tool) = rest.split_once("__")?;
    Some(crate::mcp::naming::qualified(server, tool))
}

/// Claude Code's spelling of our MCP tool `server__tool`.
pub fn claude_mcp_from_ours(name: &str) -> String {
    format!("mcp__{name}")
}

/// Our name for a tool as written in an `allowed-tools` list: `Bash(git add:*)` is `bash` (the
/// part in parentheses narrows it in Claude Code; here every call is still approved as usual),
/// `mcp__github__create_issue` is `github__create_issue`; a name of ours is kept.
pub fn ours_from_allowed(entry: &str) -> Option<String> {
    let name = entry.split('(').next().unwrap_or(entry).trim();
    if let Some(ours) = ours_from_claude(name) {
        return Some(ours.to_owned());
    }
    if let Some(mcp) = ours_from_claude_mcp(name) {
        return Some(mcp);
    }
    claude_from_ours(name).map(|_| name.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_name_maps_both_ways() {
        for (claude, ours) in names() {
            assert_eq!(ours_from_claude(claude), Some(ours));
            assert_eq!(claude_from_ours(ours), Some(claude));
        }
        assert_eq!(ours_from_claude("WebSearch"), None);
        assert_eq!(ours_from_claude("bash"), None);
        assert_eq!(claude_from_ours("attempt_completion"), None);
    }

    #[test]
    fn the_table_is_claude_codes_names_of_our_tools() {
        let table: Vec<_> = names().collect();
        assert_eq!(
            table,
            [
                ("Read", "read"),
                ("Write", "write"),
                ("Edit", "edit"),
                ("MultiEdit", "multi_edit"),
                ("LS", "ls"),
                ("Glob", "glob"),
                ("Grep", "grep"),
                ("Bash", "bash"),
                ("WebFetch", "http_fetch"),
                ("TodoWrite", "todo_write"),
                ("Skill", "skill"),
                ("Task", "new_task"),
            ]
        );
        assert_eq!(claude_field("read", "path"), Some("file_path"));
        assert_eq!(claude_field("bash", "timeout_ms"), Some("timeout"));
        assert_eq!(claude_field("bash", "command"), None);
        assert_eq!(claude_field("grep", "path"), None);
    }

    #[test]
    fn mcp_names_lose_and_gain_their_prefix() {
        assert_eq!(
            ours_from_claude_mcp("mcp__github__create_issue").as_deref(),
            Some("github__create_issue")
        );
        assert_eq!(
            ours_from_claude_mcp("mcp__my.server__do").as_deref(),
            Some("my_server__do")
        );
        assert_eq!(ours_from_claude_mcp("Bash"), None);
        assert_eq!(
            claude_mcp_from_ours("github__create_issue"),
            "mcp__github__create_issue"
        );
    }

    #[test]
    fn allowed_tools_entries() {
        assert_eq!(
            ours_from_allowed("Bash(git add:*)").as_deref(),
            Some("bash")
        );
        assert_eq!(ours_from_allowed("WebFetch").as_deref(), Some("http_fetch"));
        assert_eq!(
            ours_from_allowed("multi_edit").as_deref(),
            Some("multi_edit")
        );
        assert_eq!(
            ours_from_allowed("mcp__fs__read").as_deref(),
            Some("fs__read")
        );
        assert_eq!(ours_from_allowed("WebSearch"), None);
    }
}
