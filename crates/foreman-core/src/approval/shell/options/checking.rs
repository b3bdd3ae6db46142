//! For the tables' tests: one program's check run on a line as words, and what it found.

use super::{Effects, Hit};

/// A program's check, as the tables declare it.
pub type Check = fn(&str, &[String], &mut Effects);

/// Runs `check` on `line` (split at spaces: the program, then its arguments).
pub fn run(check: Check, line: &str) -> Effects {
    let mut words = line.split_whitespace().map(String::from);
    let program = words.next().unwrap_or_default();
    let args: Vec<String> = words.collect();
    let mut effects = Effects::default();
    check(&program, &args, &mut effects);
    effects
}

/// The dangerous option `check` finds in `line` (`None`: none; anything else panics).
pub fn option(check: Check, line: &str) -> Option<String> {
    match run(check, line).hit {
        Some(Hit::Option { option, .. }) => Some(option),
        None => None,
        other => panic!("{line}: {other:?}"),
    }
}

/// The files `check` finds `line` writing, when it finds nothing dangerous.
pub fn writes(check: Check, line: &str) -> Vec<String> {
    let effects = run(check, line);
    assert!(effects.hit.is_none(), "{line}: {:?}", effects.hit);
    effects.writes.into_iter().flatten().collect()
}
