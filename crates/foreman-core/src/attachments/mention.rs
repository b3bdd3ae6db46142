//! A mention as the user wrote it: `src/a.rs`, `src/a.rs:10-40`, `src/a.rs:7` or `src/`.

/// A path and the 1-based line range asked for, if any.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mention<'a> {
    pub path: &'a str,
    pub lines: Option<(u32, u32)>,
}

/// Splits `raw` (without its `@`) into a path and a line range. A suffix that is not a valid
/// range (`a.rs:x`, `a.rs:9-3`, `a.rs:0`) stays part of the path.
pub fn parse(raw: &str) -> Mention<'_> {
    let whole = Mention {
        path: raw,
        lines: None,
    };
    let Some((path, range)) = raw.rsplit_once(':') else {
        return whole;
    };
    if path.is_empty() {
        return whole;
    }
    let number = |s: &str| s.parse::<u32>().ok().filter(|n| *n > 0);
    let lines = match range.split_once('-') {
        Some((a, b)) => number(a).zip(number(b)).filter(|(a, b)| a <= b),
        None => number(range).map(|n| (n, n)),
    };
    match lines {
        Some(lines) => Mention {
            path,
            lines: Some(lines),
        },
        None => whole,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_single_lines_and_plain_paths() {
        assert_eq!(
            parse("src/a.rs:10-40"),
            Mention {
                path: "src/a.rs",
                lines: Some((10, 40))
            }
        );
        assert_eq!(
            parse("src/a.rs:7"),
            Mention {
                path: "src/a.rs",
                lines: Some((7, 7))
            }
        );
        assert_eq!(
            parse("src/"),
            Mention {
                path: "src/",
                lines: None
            }
        );
        for odd in ["a.rs:x", "a.rs:9-3", "a.rs:0", ":4", "a.rs:1-"] {
            assert_eq!(
                parse(odd),
                Mention {
                    path: odd,
                    lines: None
                },
                "{odd}"
            );
        }
    }
}
