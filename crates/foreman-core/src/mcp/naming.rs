//! The names external tools get: `server__tool`, restricted to `^[a-zA-Z0-9_-]{1,64}$`, unique.

use std::collections::HashSet;

/// The longest tool name providers accept.
pub const MAX_NAME: usize = 64;

/// Replaces every character outside `[a-zA-Z0-9_-]` with `_` and cuts to 64 characters.
pub fn sanitise(raw: &str) -> String {
    let mut out: String = raw
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .take(MAX_NAME)
        .collect();
    if out.is_empty() {
        out.push('_');
    }
    out
}

/// The name an MCP tool is offered under, before collisions are resolved.
pub fn qualified(server: &str, tool: &str) -> String {
    sanitise(&format!("{server}__{tool}"))
}

/// Gives each `(server, tool, wanted)` entry a unique name that does not clash with `reserved`
/// (the built-ins). Entries are taken in sorted order of `(wanted, server, tool)`; the first keeps
/// its name and later ones get `_2`, `_3`, ... so the result does not depend on start order.
/// Returns the names in the order of `entries`.
pub fn assign(entries: &[(String, String, String)], reserved: &[String]) -> Vec<String> {
    let mut order: Vec<usize> = (0..entries.len()).collect();
    order.sort_by(|&a, &b| {
        let (sa, ta, wa) = &entries[a];
        let (sb, tb, wb) = &entries[b];
        (wa, sa, ta).cmp(&(wb, sb, tb))
    });
    let mut taken: HashSet<String> = reserved.iter().cloned().collect();
    let mut names = vec![String::new(); entries.len()];
    for i in order {
        let wanted = &entries[i].2;
        let mut name = wanted.clone();
        let mut n = 2;
        while taken.contains(&name) {
            let suffix = format!("_{n}");
            let base: String = wanted.chars().take(MAX_NAME - suffix.len()).collect();
            name = format!("{base}{suffix}");
            n += 1;
        }
        taken.insert(name.clone());
        names[i] = name;
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(server: &str, tool: &str, wanted: &str) -> (String, String, String) {
        (server.to_owned(), tool.to_owned(), wanted.to_owned())
    }

    #[test]
    fn sanitises_to_the_allowed_alphabet_and_length() {
        assert_eq!(qualified("my server", "do.it/now"), "my_server__do_it_now");
        assert_eq!(sanitise(""), "_");
        let long = qualified(&"s".repeat(40), &"t".repeat(40));
        assert_eq!(long.len(), 64);
        assert!(long.starts_with(&"s".repeat(40)));
    }

    #[test]
    fn collisions_get_suffixes_in_sorted_order_whatever_the_input_order() {
        let a = entry("a.b", "x", &qualified("a.b", "x"));
        let b = entry("a_b", "x", &qualified("a_b", "x"));
        let read = entry("discovery", "read", "read");
        let names = assign(&[b.clone(), a.clone(), read.clone()], &["read".to_owned()]);
        assert_eq!(names, vec!["a_b__x_2", "a_b__x", "read_2"]);
        let again = assign(&[a, b], &[]);
        assert_eq!(again, vec!["a_b__x", "a_b__x_2"]);
        let long = "x".repeat(64);
        let names = assign(&[entry("s", "1", &long), entry("s", "2", &long)], &[]);
        assert_eq!(names[1].len(), 64);
        assert!(names[1].ends_with("_2"));
    }
}
