//! A task's name: short, readable, safe as a branch (`foreman/<name>`) and a folder name, and
//! unique in its repository.

use super::error::TaskError;

const MAX_LEN: usize = 40;

/// Checks a name the user gave.
pub fn check(name: &str) -> Result<String, TaskError> {
    let ok = !name.is_empty()
        && name.len() <= MAX_LEN
        && !name.starts_with(['.', '-'])
        && !name.ends_with(".lock")
        && !name.contains("..")
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if ok {
        Ok(name.to_owned())
    } else {
        Err(TaskError::BadName(name.to_owned()))
    }
}

/// A name made from what the task is asked to do: its first words, lower-case, joined by '-'.
pub fn from_prompt(prompt: &str) -> String {
    let mut name = String::new();
    for word in prompt
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .take(5)
    {
        let word: String = word
            .chars()
            .filter(char::is_ascii_alphanumeric)
            .map(|c| c.to_ascii_lowercase())
            .collect();
        if word.is_empty() {
            continue;
        }
        if name.len() + word.len() + 1 > 30 {
            break;
        }
        if !name.is_empty() {
            name.push('-');
        }
        name.push_str(&word);
    }
    if name.is_empty() { "task".into() } else { name }
}

/// `base`, or `base-2`, `base-3`… : the first that `taken` says is free.
pub fn unique(base: &str, taken: impl Fn(&str) -> bool) -> String {
    if !taken(base) {
        return base.to_owned();
    }
    (2..)
        .map(|n| format!("{base}-{n}"))
        .find(|candidate| !taken(candidate))
        .unwrap_or_else(|| base.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_come_from_the_prompt_and_stay_unique() {
        assert_eq!(
            from_prompt("Fix the login bug, please!"),
            "fix-the-login-bug-please"
        );
        assert_eq!(from_prompt("  ¿¡ "), "task");
        assert_eq!(from_prompt("Überprüfe die Datei"), "berprfe-die-datei");
        let taken = ["fix", "fix-2"];
        assert_eq!(unique("fix", |n| taken.contains(&n)), "fix-3");
        assert_eq!(unique("new", |n| taken.contains(&n)), "new");
    }

    #[test]
    fn a_bad_name_is_refused() {
        assert!(check("fix-login_2.b").is_ok());
        for bad in ["", "-x", ".x", "a/b", "a..b", "x.lock", "a b", "ä"] {
            assert!(check(bad).is_err(), "{bad}");
        }
    }
}
