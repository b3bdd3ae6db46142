//! Finding workspace files by a part of their path (the composer's `@` completion).

use std::path::Path;

/// Up to `limit` workspace-relative paths containing `query` (case-insensitive), shortest and
/// then alphabetical first. Hidden and ignored files are skipped, as in the agent's own tools.
pub fn matching_files(root: &Path, query: &str, limit: usize) -> Vec<String> {
    let needle = query.to_lowercase();
    let mut found: Vec<String> = ignore::WalkBuilder::new(root)
        .build()
        .filter_map(Result::ok)
        .filter(|entry| entry.file_type().is_some_and(|t| t.is_file()))
        .filter_map(|entry| {
            let relative = entry.path().strip_prefix(root).ok()?;
            let text = relative.to_string_lossy().replace('\\', "/");
            text.to_lowercase().contains(&needle).then_some(text)
        })
        .take(10_000)
        .collect();
    found.sort_by(|a, b| a.len().cmp(&b.len()).then_with(|| a.cmp(b)));
    found.truncate(limit);
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_by_any_part_of_the_path_shortest_first() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("src/deep")).unwrap();
        std::fs::write(dir.path().join("src/main.rs"), "").unwrap();
        std::fs::write(dir.path().join("src/deep/Main_helper.rs"), "").unwrap();
        std::fs::write(dir.path().join("README.md"), "").unwrap();
        assert_eq!(
            matching_files(dir.path(), "main", 10),
            ["src/main.rs", "src/deep/Main_helper.rs"]
        );
        assert_eq!(matching_files(dir.path(), "", 1), ["README.md"]);
    }
}
