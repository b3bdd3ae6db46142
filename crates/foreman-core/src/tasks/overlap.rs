//! Conflicts seen early: files that two live tasks both change, with the other task's name,
//! and whether their changes touch the same lines (a likely conflict at merge).

use std::collections::{BTreeMap, HashMap};
use std::ops::Range;

use crate::protocol::TaskOverlap;

use super::changes::ranges_meet;

/// What one live task's change touches: per file, the lines of its base.
#[derive(Debug, Clone)]
pub struct Touched {
    pub id: String,
    pub name: String,
    pub lines: BTreeMap<String, Vec<Range<u32>>>,
}

/// For each task, the files it shares with another live task.
pub fn overlaps(tasks: &[Touched]) -> HashMap<String, Vec<TaskOverlap>> {
    let mut found: HashMap<String, Vec<TaskOverlap>> = HashMap::new();
    for (i, a) in tasks.iter().enumerate() {
        for b in tasks.iter().skip(i + 1) {
            for (path, a_lines) in &a.lines {
                let Some(b_lines) = b.lines.get(path) else {
                    continue;
                };
                let likely_conflict = ranges_meet(a_lines, b_lines);
                for (me, other) in [(a, b), (b, a)] {
                    found.entry(me.id.clone()).or_default().push(TaskOverlap {
                        path: path.clone(),
                        task_id: other.id.clone(),
                        task_name: other.name.clone(),
                        likely_conflict,
                    });
                }
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn task(id: &str, files: &[(&str, Range<u32>)]) -> Touched {
        let mut lines: BTreeMap<String, Vec<Range<u32>>> = BTreeMap::new();
        for (path, range) in files {
            lines.entry((*path).into()).or_default().push(range.clone());
        }
        Touched {
            id: id.into(),
            name: format!("task-{id}"),
            lines,
        }
    }

    #[test]
    fn both_tasks_see_a_shared_file_and_whether_their_lines_meet() {
        let found = overlaps(&[
            task("a", &[("app.rs", 10..12), ("a.rs", 1..2)]),
            task("b", &[("app.rs", 11..13)]),
            task("c", &[("app.rs", 40..41)]),
        ]);
        let a = &found["a"];
        assert_eq!(a.len(), 2);
        assert!(
            a.iter()
                .any(|o| o.task_name == "task-b" && o.likely_conflict)
        );
        assert!(
            a.iter()
                .any(|o| o.task_name == "task-c" && !o.likely_conflict)
        );
        assert_eq!(found["b"].len(), 2);
        assert!(found["b"].iter().all(|o| o.path == "app.rs"));
        assert_eq!(found["c"].len(), 2);
    }
}
