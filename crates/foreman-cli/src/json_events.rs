//! `exec --json`'s stdout: every event as one JSON line, with a call's live output bounded as
//! the model's result is. A command that prints 200 MB would otherwise put 200 MB (and more, as
//! escaped JSON) into the events, where the model gets its start and end only: each call's
//! `tool_call_output` events carry its first [`LIVE_OUTPUT_BYTES`], the one that crosses the
//! bound ends with a note saying so, and the rest are left out (their `seq` numbers are
//! skipped); the call's `tool_call_finished` has the result with the last lines. With
//! `--full-output DIR` each call's whole live output is written to a file there as it comes,
//! and the note names it.

use std::collections::HashMap;
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

use foreman_core::builtin_tools::bash_output::PART_BYTES;
use foreman_protocol::{Event, EventMsg};

/// How much of one call's live output the events carry: as much as the model's result keeps of
/// a command's output (its head and its tail).
pub const LIVE_OUTPUT_BYTES: usize = 2 * PART_BYTES;

/// What was printed of one call's live output, and its file.
#[derive(Default)]
struct Live {
    printed: usize,
    cut: bool,
    /// The whole output (`None` when not asked for, or once it could not be written).
    file: Option<(PathBuf, File)>,
}

/// Prints events as JSON lines.
pub struct JsonEvents {
    calls: HashMap<String, Live>,
    full_output: Option<PathBuf>,
    files: usize,
}

impl JsonEvents {
    /// Prints to stdout; with `full_output`, each call's whole live output goes to a file in
    /// that folder (created when missing).
    pub fn new(full_output: Option<PathBuf>) -> Result<Self, String> {
        if let Some(dir) = &full_output {
            std::fs::create_dir_all(dir)
                .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        }
        Ok(Self {
            calls: HashMap::new(),
            full_output,
            files: 0,
        })
    }

    /// Prints `event` (or what the events carry of it).
    pub fn print(&mut self, event: &Event) -> Result<(), String> {
        match &event.msg {
            EventMsg::ToolCallOutput { call_id, text } => {
                let shown = self.live_output(call_id, text);
                match shown {
                    Shown::Whole => print_line(event),
                    Shown::Cut(text) => print_line(&Event {
                        msg: EventMsg::ToolCallOutput {
                            call_id: call_id.clone(),
                            text,
                        },
                        ..event.clone()
                    }),
                    Shown::Nothing => Ok(()),
                }
            }
            EventMsg::ToolCallFinished { call_id, .. } => {
                // Its file is complete (closed here); its output is not needed any more.
                self.calls.remove(call_id);
                print_line(event)
            }
            _ => print_line(event),
        }
    }

    /// What of `text`, the next live output of `call_id`, the events carry; writes it to the
    /// call's file when asked.
    fn live_output(&mut self, call_id: &str, text: &str) -> Shown {
        if !self.calls.contains_key(call_id) {
            let file = self.full_output.as_deref().and_then(|dir| {
                self.files += 1;
                open_file(dir, self.files, call_id)
            });
            let live = Live {
                file,
                ..Live::default()
            };
            self.calls.insert(call_id.to_owned(), live);
        }
        let Some(live) = self.calls.get_mut(call_id) else {
            return Shown::Nothing;
        };
        if let Some((path, file)) = &mut live.file
            && let Err(e) = file.write_all(text.as_bytes())
        {
            eprintln!(
                "foreman-cli: cannot write {} ({e}); the rest of its output is not kept",
                path.display()
            );
            live.file = None;
        }
        if live.cut {
            return Shown::Nothing;
        }
        let room = LIVE_OUTPUT_BYTES - live.printed;
        if text.len() <= room {
            live.printed += text.len();
            return Shown::Whole;
        }
        live.cut = true;
        live.printed = LIVE_OUTPUT_BYTES;
        // At the last whole line that fits, or a character's end when no line ends in it.
        let fits = &text[..text.floor_char_boundary(room)];
        let mut kept = match fits.rfind('\n') {
            Some(end) => fits[..=end].to_owned(),
            None => fits.to_owned(),
        };
        if !kept.is_empty() && !kept.ends_with('\n') {
            kept.push('\n');
        }
        let whole = match &live.file {
            Some((path, _)) => format!("the whole output is in {}", path.display()),
            None => "--full-output DIR keeps the whole output in a file".to_owned(),
        };
        kept.push_str(&format!(
            "[… foreman-cli: the events carry the first {} KiB of a call's output; the result \
             has its last lines, and {whole} …]\n",
            LIVE_OUTPUT_BYTES / 1024
        ));
        Shown::Cut(kept)
    }
}

/// What the events carry of one piece of live output.
enum Shown {
    Whole,
    Cut(String),
    Nothing,
}

/// The file of the `n`th call with output, named after it (`3-toolu_01.log`), opened for
/// writing; `None`, said on stderr, when it cannot be.
fn open_file(dir: &Path, n: usize, call_id: &str) -> Option<(PathBuf, File)> {
    let name: String = call_id
        .chars()
        .take(64)
        .map(|c| match c {
            'a'..='z' | 'A'..='Z' | '0'..='9' | '_' | '-' => c,
            _ => '_',
        })
        .collect();
    let path = dir.join(format!("{n}-{name}.log"));
    match File::create(&path) {
        Ok(file) => Some((path, file)),
        Err(e) => {
            eprintln!(
                "foreman-cli: cannot create {} ({e}); this call's whole output is not kept",
                path.display()
            );
            None
        }
    }
}

fn print_line(event: &Event) -> Result<(), String> {
    let line = serde_json::to_string(event).map_err(|e| e.to_string())?;
    let mut out = std::io::stdout().lock();
    writeln!(out, "{line}")
        .and_then(|()| out.flush())
        .map_err(|e| format!("cannot write to stdout: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_call_past_the_bound_is_cut_once_and_its_file_is_whole() {
        let dir = tempfile::tempdir().unwrap();
        let mut events = JsonEvents::new(Some(dir.path().join("out"))).unwrap();
        let chunk = "é".repeat(5000); // 10,000 bytes, two to a character
        let shown: Vec<Shown> = (0..5)
            .map(|_| events.live_output("../x y", &chunk))
            .collect();
        assert!(matches!(
            shown[..3],
            [Shown::Whole, Shown::Whole, Shown::Whole]
        ));
        let Shown::Cut(text) = &shown[3] else {
            panic!("the fourth piece crosses the bound");
        };
        let path = dir.path().join("out/1-___x_y.log");
        assert!(text.starts_with(&"é".repeat(360)), "cut at a character");
        assert!(text.contains(&format!("the whole output is in {}", path.display())));
        assert!(matches!(shown[4], Shown::Nothing));
        events.calls.clear();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), chunk.repeat(5));
        // Another call has a bound of its own.
        assert!(matches!(events.live_output("c2", "ok\n"), Shown::Whole));
    }
}
