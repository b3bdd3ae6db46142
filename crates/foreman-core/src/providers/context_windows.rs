//! The context window of well-known models, so the status bar's "context used" and the
//! session's compaction threshold fit the model in use. A model not listed keeps the
//! session's default ([`DEFAULT_CONTEXT_WINDOW`]).

use super::model_names;

/// The window assumed for a model this table does not know.
pub const DEFAULT_CONTEXT_WINDOW: usize = 200_000;

/// Model name prefix → context window in tokens (the providers' documented input limits).
const KNOWN: &[(&str, usize)] = &[
    ("claude-", 200_000),
    ("gpt-5", 400_000),
    ("gpt-4.1", 1_047_576),
    ("gpt-4o", 128_000),
    ("gpt-4-turbo", 128_000),
    ("o1", 200_000),
    ("o3", 200_000),
    ("o4-mini", 200_000),
    ("deepseek-chat", 128_000),
    ("deepseek-reasoner", 128_000),
    ("gemini-2.5", 1_048_576),
    ("gemini-2.0", 1_048_576),
    ("grok-4", 256_000),
    ("mistral-large", 128_000),
    ("codestral", 256_000),
    ("qwen3-coder", 262_144),
    ("llama-3.1", 128_000),
    ("llama-3.3", 128_000),
];

/// The context window of `model`, if it is a well-known one.
pub fn context_window_of(model: &str) -> Option<usize> {
    model_names::lookup(KNOWN.iter().map(|(name, size)| (*name, size)), model).copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_models_get_their_window_and_others_none() {
        assert_eq!(context_window_of("claude-sonnet-4-20250514"), Some(200_000));
        assert_eq!(context_window_of("gpt-4o-mini"), Some(128_000));
        assert_eq!(context_window_of("openai/gpt-4.1-mini"), Some(1_047_576));
        assert_eq!(context_window_of("gpt-5-mini"), Some(400_000));
        assert_eq!(context_window_of("llama3.1:8b"), None);
    }
}
