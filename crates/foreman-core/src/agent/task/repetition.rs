//! Stopping a model that repeats itself. Small local models sometimes fall into a loop, writing
//! the same line (or the same few lines) until the output limit, which at local speeds costs the
//! user minutes. The guard watches the answer's text line by line and trips when the same line
//! comes [`SAME_LINE`] times in a row, or the same block of 2 to [`MAX_PERIOD`] lines comes
//! [`SAME_BLOCK`] times in a row. Blank lines are not counted, so spacing does not hide a loop.

/// How many times in a row one line may come before the answer is stopped.
pub const SAME_LINE: usize = 20;
/// How many times in a row a block of a few lines may come.
pub const SAME_BLOCK: usize = 10;
/// The longest block (in lines) that is looked for.
pub const MAX_PERIOD: usize = 4;

/// What the model kept repeating.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Repeated {
    /// The first line of what repeats.
    pub line: String,
    /// How many times it came in a row.
    pub times: usize,
}

impl Repeated {
    /// What the user reads when the answer was stopped.
    pub fn message(&self) -> String {
        let mut line: String = self.line.chars().take(80).collect();
        if line.len() < self.line.len() {
            line.push('…');
        }
        format!(
            "The model repeated “{line}” {} times in a row, so its answer was stopped there. \
             Retry, or say more precisely what you need.",
            self.times
        )
    }
}

/// Watches one answer's text.
#[derive(Debug, Default)]
pub struct RepetitionGuard {
    partial: String,
    /// The last complete, non-blank lines, trimmed (at most what the longest check needs).
    lines: Vec<String>,
}

const KEPT: usize = MAX_PERIOD * SAME_BLOCK + SAME_LINE;

impl RepetitionGuard {
    /// Takes the next piece of text; once the model is repeating itself, what it repeats and
    /// how much of `text` comes up to the end of the line that showed it (the rest need not be
    /// shown).
    pub fn push(&mut self, text: &str) -> Option<(Repeated, usize)> {
        let carried = self.partial.len();
        self.partial.push_str(text);
        let mut consumed = 0;
        while let Some(end) = self.partial.find('\n') {
            let line = self.partial[..end].trim().to_owned();
            self.partial.drain(..=end);
            consumed += end + 1;
            if line.is_empty() {
                continue;
            }
            self.lines.push(line);
            if self.lines.len() > 2 * KEPT {
                self.lines.drain(..self.lines.len() - KEPT);
            }
            if let Some(repeated) = self.check() {
                self.partial.clear();
                return Some((repeated, consumed.saturating_sub(carried).min(text.len())));
            }
        }
        None
    }

    fn check(&self) -> Option<Repeated> {
        for period in 1..=MAX_PERIOD {
            let times = if period == 1 { SAME_LINE } else { SAME_BLOCK };
            let span = period * times;
            if self.lines.len() < span {
                continue;
            }
            let tail = &self.lines[self.lines.len() - span..];
            let block = &tail[..period];
            // A block of one line repeated is the single-line case.
            if period > 1 && block.iter().all(|l| *l == block[0]) {
                continue;
            }
            if tail.chunks(period).all(|chunk| chunk == block) {
                return Some(Repeated {
                    line: block[0].clone(),
                    times,
                });
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_line_over_and_over_trips_at_the_limit_whatever_the_chunking() {
        let mut guard = RepetitionGuard::default();
        let mut tripped_at = None;
        for i in 0..30 {
            // Split mid-line, with blank lines in between.
            if guard.push("The answer is").is_some() || guard.push(" 42.\n\n").is_some() {
                tripped_at = Some(i + 1);
                break;
            }
        }
        assert_eq!(tripped_at, Some(SAME_LINE));
        let mut guard = RepetitionGuard::default();
        let line = "The answer is 42.\n";
        let text = line.repeat(SAME_LINE + 5);
        let (repeated, upto) = guard.push(&text).unwrap();
        assert_eq!(repeated.line, "The answer is 42.");
        assert_eq!(
            upto,
            line.len() * SAME_LINE,
            "the text up to the line that showed it"
        );
        assert!(
            repeated
                .message()
                .starts_with("The model repeated “The answer is 42.” 20 times")
        );
    }

    #[test]
    fn a_block_of_lines_repeated_trips_too() {
        let mut guard = RepetitionGuard::default();
        let block = "Step 1: read the file.\nStep 2: think.\nStep 3: read the file again.\n";
        assert_eq!(guard.push(&block.repeat(SAME_BLOCK - 1)), None);
        assert_eq!(
            guard.push(block),
            Some((
                Repeated {
                    line: "Step 1: read the file.".into(),
                    times: SAME_BLOCK
                },
                block.len()
            ))
        );
    }

    #[test]
    fn ordinary_text_and_code_do_not_trip() {
        let mut guard = RepetitionGuard::default();
        let code: String = (0..200)
            .map(|i| format!("    let x{i} = {i};\n    }}\n\n"))
            .collect();
        assert_eq!(guard.push(&code), None);
        assert_eq!(guard.push("fn main() {\n"), None);
        assert_eq!(guard.push(&"}\n".repeat(SAME_LINE - 1)), None);
        assert_eq!(guard.push("fn main() {}\n"), None);
    }
}
