//! A check that every command the window's handler serves is also permitted: Tauri v2 refuses a
//! command of the app that `build.rs` does not list or no capability allows ("… not allowed.
//! Command not found"), and a command added to `generate_handler!` alone fails only at run time,
//! in the window. The three lists are read from their files.

#[cfg(test)]
mod tests {
    /// The names inside `generate_handler![…]` in lib.rs.
    fn served() -> Vec<String> {
        let lib = include_str!("lib.rs");
        let Some(start) = lib.find("generate_handler![") else {
            return Vec::new();
        };
        let body = &lib[start..];
        let end = body.find(']').unwrap_or(body.len());
        body[..end]
            .split(',')
            .filter_map(|entry| entry.trim().rsplit("::").next())
            .map(|name| {
                name.trim()
                    .trim_start_matches("generate_handler![")
                    .to_owned()
            })
            .filter(|name| {
                !name.is_empty() && name.chars().all(|c| c.is_ascii_lowercase() || c == '_')
            })
            .collect()
    }

    #[test]
    fn every_served_command_is_listed_and_allowed() {
        let served = served();
        assert!(served.len() > 20, "read the handler's commands: {served:?}");
        let build = include_str!("../build.rs");
        let capability = include_str!("../capabilities/main.json");
        for name in &served {
            assert!(
                build.contains(&format!("\"{name}\"")),
                "build.rs does not list `{name}`"
            );
            let permission = format!("\"allow-{}\"", name.replace('_', "-"));
            assert!(
                capability.contains(&permission),
                "capabilities/main.json lacks {permission}"
            );
        }
    }
}
