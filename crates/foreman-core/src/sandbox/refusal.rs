//! What the sandbox refused, read from a command's output: the lines with the errors a refused
//! write (`Permission denied`, `Read-only file system`) or a refused connection (`Operation not
//! permitted`, a name that cannot be resolved) prints. A guess, shown to the user with the lines
//! themselves, before they choose to run the command outside the sandbox. And whether the
//! command tried to signal a process outside its sandbox ([`signalled_outside`]): the kernel
//! refuses it, and the card says so.

/// The phrases of a refusal, lower-cased.
const SIGNS: &[&str] = &[
    "permission denied",
    "read-only file system",
    "operation not permitted",
    "eacces",
    "eperm",
    "erofs",
    "could not resolve host",
    "temporary failure in name resolution",
    "network is unreachable",
    "name or service not known",
    "failed to connect",
    "connection refused",
];

/// At most this many lines are shown.
const SHOWN: usize = 5;

/// The lines of `output` that look like the sandbox refused something (at most five, trimmed).
pub fn refused_lines(output: &str) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for line in output.lines() {
        let lower = line.to_lowercase();
        if SIGNS.iter().any(|sign| lower.contains(sign)) {
            let line = line.trim();
            let shown: String = line.chars().take(200).collect();
            if !lines.contains(&shown) {
                lines.push(shown);
            }
            if lines.len() == SHOWN {
                break;
            }
        }
    }
    lines
}

/// Whether `output` shows a refused signal: `kill`, `pkill` or `killall` told "Operation not
/// permitted" (the sandbox's answer to a signal for a process outside it).
pub fn signalled_outside(output: &str) -> bool {
    output.lines().any(|line| {
        let lower = line.to_lowercase();
        lower.contains("kill") && lower.contains("operation not permitted")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refused_signal_is_recognised() {
        assert!(signalled_outside(
            "bash: line 1: kill: (4242) - Operation not permitted\n"
        ));
        assert!(signalled_outside(
            "pkill: killing pid 4242 failed: Operation not permitted\n"
        ));
        assert!(!signalled_outside(
            "cp: cannot create x: Operation not permitted\n"
        ));
        assert!(!signalled_outside("killed 3 tests\n"));
    }

    #[test]
    fn refusals_are_found_and_ordinary_failures_are_not() {
        let out = "building\nbash: /etc/x: Permission denied\ntouch: cannot touch '.git/x': Read-only file system\nerror: test failed\n";
        assert_eq!(
            refused_lines(out),
            [
                "bash: /etc/x: Permission denied",
                "touch: cannot touch '.git/x': Read-only file system"
            ]
        );
        assert!(refused_lines("error[E0308]: mismatched types\n").is_empty());
        assert_eq!(refused_lines(&"x: Permission denied\n".repeat(9)).len(), 1);
    }
}
