//! Skills: folders holding a `SKILL.md` (the Agent Skills format: front matter with `name` and
//! `description`, then instructions; scripts and references beside it).
//!
//! They are found in the workspace's `.foreman/skills/`, `.claude/skills/` and `.agents/skills/`,
//! then the user's `<config dir>/skills/`, `~/.claude/skills/` and `~/.agents/skills/`, in that
//! order: the first skill of a name is used, and a later one of the same name is reported. A
//! skill whose file cannot be read, has no front matter or no description is reported and left
//! out; the others still load. A found skill is a [`Skill`], the `skill` tool's type.

use std::path::{Path, PathBuf};

use super::dirs::SlashDirs;
use super::front_matter::{self, FrontMatter};
use super::locations::{Found, is_slash_name, location_dirs};
use crate::builtin_tools::skill::Skill;

/// The skills of `dirs`, each name once, in the order found, with what is wrong with the others.
pub fn find_skills(dirs: &SlashDirs) -> Found<Skill> {
    let mut found = Found::default();
    for (root, shown_root) in location_dirs(dirs, "skills") {
        let Ok(entries) = std::fs::read_dir(&root) else {
            continue;
        };
        let mut folders: Vec<(String, PathBuf)> = entries
            .flatten()
            .filter(|e| e.path().is_dir())
            .map(|e| (e.file_name().to_string_lossy().into_owned(), e.path()))
            .collect();
        folders.sort();
        for (folder, path) in folders {
            let file = path.join("SKILL.md");
            if !file.is_file() {
                continue;
            }
            let source = format!("{shown_root}/{folder}/SKILL.md");
            match read_skill(&file, &folder, &source) {
                Ok(skill) => found.add(skill.name.clone(), source, skill),
                Err(problem) => found.warnings.push(format!("{source}: {problem}")),
            }
        }
    }
    found
}

/// One `SKILL.md`, or what is wrong with it.
fn read_skill(file: &Path, folder: &str, source: &str) -> Result<Skill, String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("cannot be read: {e}"))?;
    let (front, body) =
        front_matter::split(&text).map_err(|e| format!("its front matter cannot be read: {e}"))?;
    let Some(front) = front else {
        return Err("no front matter: a skill starts with --- name: … description: … ---".into());
    };
    let name = front.text("name").unwrap_or_else(|| folder.to_owned());
    if !is_slash_name(&name) {
        return Err(format!(
            "its name `{name}` cannot be typed after `/`: use letters, digits, `-`, `_` and `.`"
        ));
    }
    let Some(description) = front.text("description") else {
        return Err(
            "no `description` in its front matter: the model picks a skill by its description"
                .into(),
        );
    };
    let dir = file.parent().map(Path::to_path_buf).unwrap_or_default();
    let dir = dir.canonicalize().unwrap_or(dir);
    Ok(Skill {
        name,
        description: one_line(&description),
        allowed_tools: allowed(&front),
        dir,
        source: source.to_owned(),
        body: body.to_owned(),
    })
}

/// The `allowed-tools` of a front matter.
pub(super) fn allowed(front: &FrontMatter) -> Vec<String> {
    front.list("allowed-tools")
}

/// `text` on one line (a folded description keeps its line breaks otherwise).
pub(super) fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::slash::testing::{Dirs, write};

    #[test]
    fn skills_load_with_their_files_and_bad_ones_warn() {
        let d = Dirs::new();
        write(
            &d.ws,
            ".claude/skills/pdf/SKILL.md",
            "---\nname: pdf\ndescription: >\n  Fill PDF\n  forms.\nallowed-tools: Bash(python:*), Read\n---\nRun scripts/fill.py.\n",
        );
        write(&d.ws, ".claude/skills/pdf/scripts/fill.py", "print(1)\n");
        write(&d.ws, ".claude/skills/pdf/ref.md", "ref\n");
        write(
            &d.ws,
            ".claude/skills/bare/SKILL.md",
            "Just text, no front matter.\n",
        );
        write(
            &d.ws,
            ".claude/skills/nodesc/SKILL.md",
            "---\nname: nodesc\n---\nx\n",
        );
        write(
            &d.ws,
            ".agents/skills/folder-name/SKILL.md",
            "---\ndescription: d\n---\nx\n",
        );
        let found = find_skills(&d.dirs());
        let names: Vec<_> = found.items.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["pdf", "folder-name"]);
        let pdf = &found.items[0];
        assert_eq!(pdf.description, "Fill PDF forms.");
        assert_eq!(pdf.allowed_tools, ["Bash(python:*)", "Read"]);
        assert_eq!(pdf.source, ".claude/skills/pdf/SKILL.md");
        let text = pdf.load_text();
        assert!(text.contains("ref.md\nscripts/fill.py\n"), "{text}");
        assert!(text.ends_with("Run scripts/fill.py."), "{text}");
        assert!(text.contains(&pdf.dir.display().to_string()));
        assert_eq!(
            found.warnings,
            [
                ".claude/skills/bare/SKILL.md: no front matter: a skill starts with --- name: … \
                 description: … ---",
                ".claude/skills/nodesc/SKILL.md: no `description` in its front matter: the model \
                 picks a skill by its description",
            ]
        );
    }

    #[test]
    fn a_workspace_skill_wins_over_the_users() {
        let d = Dirs::new();
        let skill = |who: &str| format!("---\nname: pdf\ndescription: {who}\n---\n");
        write(&d.home, ".claude/skills/pdf/SKILL.md", &skill("home"));
        write(&d.config, "skills/pdf/SKILL.md", &skill("config"));
        write(&d.ws, ".foreman/skills/pdf/SKILL.md", &skill("workspace"));
        write(
            &d.home,
            ".agents/skills/other/SKILL.md",
            "---\nname: other\ndescription: o\n---\n",
        );
        let found = find_skills(&d.dirs());
        let got: Vec<_> = found
            .items
            .iter()
            .map(|s| (s.name.as_str(), s.description.as_str(), s.source.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                ("pdf", "workspace", ".foreman/skills/pdf/SKILL.md"),
                ("other", "o", "~/.agents/skills/other/SKILL.md"),
            ]
        );
        assert_eq!(found.warnings.len(), 2, "{:?}", found.warnings);
        assert_eq!(
            found.warnings[1],
            "`pdf` in ~/.claude/skills/pdf/SKILL.md is left out: \
             .foreman/skills/pdf/SKILL.md has the same name and is used"
        );
    }
}
