//! What the platform parts of [`super`] share: what happens to what a command leaves running,
//! how the command itself ended, and what was ended.

/// What happens to what a command started once the command itself has ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Leftovers {
    /// Ended at once (commands, checks, setup, most hooks).
    Stop,
    /// Kept until the tree is killed or dropped (a hook the person allows to keep children;
    /// the session holds its tree and drops it when it ends).
    Keep,
}

/// How the command itself ended, as its keeper saw it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CommandExit {
    Code(i32),
    Signal(i32),
}

/// What was ended because it was still running: the processes' names (at most 32) and how many
/// more there were.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Ended {
    pub names: Vec<String>,
    pub more: usize,
}

impl Ended {
    pub fn count(&self) -> usize {
        self.names.len() + self.more
    }

    /// `"2 processes it left running were ended: sleep, python3"`, when there were any.
    pub fn describe(&self) -> Option<String> {
        let count = self.count();
        if count == 0 {
            return None;
        }
        let mut names: Vec<&str> = Vec::new();
        for name in &self.names {
            if !names.contains(&name.as_str()) {
                names.push(name);
            }
        }
        let shown = names.iter().take(5).copied().collect::<Vec<_>>().join(", ");
        let rest = match names.len() > 5 {
            true => ", …",
            false => "",
        };
        Some(match count {
            1 => format!("1 process it left running was ended: {shown}"),
            n => format!("{n} processes it left running were ended: {shown}{rest}"),
        })
    }
}
