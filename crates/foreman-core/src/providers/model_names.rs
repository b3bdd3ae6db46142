//! How a model name finds its entry in a per-model table (prices, context windows).

/// The entry for `model`: an exact name, else the longest name that is a prefix of it, so
/// `claude-sonnet-4-20250514` finds `claude-sonnet-4`. Provider prefixes such as `anthropic/`
/// (OpenRouter) are ignored.
pub fn lookup<'a, V>(
    entries: impl IntoIterator<Item = (&'a str, &'a V)>,
    model: &str,
) -> Option<&'a V> {
    let model = model.rsplit('/').next().unwrap_or(model);
    entries
        .into_iter()
        .filter(|(name, _)| model.starts_with(name))
        .max_by_key(|(name, _)| name.len())
        .map(|(_, value)| value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_longest_prefix_wins_and_the_provider_prefix_is_ignored() {
        let table = [("gpt-4o", 1), ("gpt-4o-mini", 2), ("gpt-4", 3)];
        let find = |m| lookup(table.iter().map(|(k, v)| (*k, v)), m).copied();
        assert_eq!(find("gpt-4o-mini-2024-07-18"), Some(2));
        assert_eq!(find("openai/gpt-4o"), Some(1));
        assert_eq!(find("gpt-4-turbo"), Some(3));
        assert_eq!(find("llama3.1:8b"), None);
    }
}
