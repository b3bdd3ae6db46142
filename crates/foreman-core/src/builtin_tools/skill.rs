//! The `skill` tool: loads one of the skills the system prompt lists (its instructions, its
//! folder's absolute path and the files beside its `SKILL.md`), so the model reads a skill only
//! when a task needs it. It is offered when the session has skills. What a skill is, and the text
//! loading it gives, is [`Skill`].

use std::sync::Arc;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;

use super::listed::Builtin;
use super::session::BuiltinSession;
pub use super::skill_text::Skill;
use crate::approval::{ActionClass, CallFacts};
use crate::protocol::{ArgsView, ToolKind};
use crate::tools::{CallContext, Tool, ToolError, ToolOutput, arg};

/// The code of a call naming no skill of the session.
pub const UNKNOWN_SKILL: &str = "UNKNOWN_SKILL";

/// Load a skill listed in the system prompt: returns its instructions, its folder's absolute path
/// and the files in it. Load one when the task matches its description, then follow it; read its
/// files with `read` at their absolute path and run its scripts with `bash`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
pub struct SkillParams {
    /// The skill's name, as listed.
    pub name: String,
}

/// `skill`, for the runtime.
#[derive(Debug, Clone)]
pub struct SkillTool {
    session: BuiltinSession,
}

impl SkillTool {
    pub fn new(session: BuiltinSession) -> Self {
        Self { session }
    }
}

impl Builtin for SkillTool {
    const CLAUDE_NAME: Option<&'static str> = Some("Skill");

    /// Offered only when the session has skills.
    fn for_session(session: &BuiltinSession, _sub_agents: bool) -> Option<Self> {
        (!session.skills.is_empty()).then(|| Self::new(session.clone()))
    }
}

impl Tool for SkillTool {
    type Input = SkillParams;
    const NAME: &'static str = "skill";
    const KIND: ToolKind = ToolKind::Read;

    fn view(&self) -> ArgsView {
        ArgsView::Title
    }

    fn title(&self, args: &Value) -> String {
        arg(args, "name").unwrap_or_default().to_owned()
    }

    fn facts(&self, _input: &SkillParams) -> Result<CallFacts, ToolError> {
        Ok(CallFacts::new(Self::NAME, ActionClass::Read))
    }

    async fn run(
        self: Arc<Self>,
        input: SkillParams,
        _ctx: CallContext,
    ) -> Result<ToolOutput, ToolError> {
        let skills = &self.session.skills;
        let name = input.name.trim().trim_start_matches('/');
        match skills.iter().find(|s| s.name == name) {
            Some(skill) => Ok(ToolOutput::text(skill.load_text()).summarised(format!(
                "Loaded the skill {} ({})",
                skill.name, skill.source
            ))),
            None => {
                let mut names: Vec<&str> = skills.iter().map(|s| s.name.as_str()).collect();
                names.sort_unstable();
                let known = if names.is_empty() {
                    "this session has no skills".to_owned()
                } else {
                    format!("the skills are: {}", names.join(", "))
                };
                Err(ToolError::new(
                    UNKNOWN_SKILL,
                    format!("There is no skill `{name}`; {known}."),
                ))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use tokio_util::sync::CancellationToken;

    use super::*;
    use crate::boundary::WorkspaceBoundary;
    use crate::builtin_tools::read::{ReadParams, run_read};
    use crate::slash::testing::{Dirs, write};
    use crate::slash::{Slash, SlashDirs};
    use crate::tools::{DEFAULT_TIMEOUT, OutputSink, ToolSet, execute};

    /// A session over `d.ws` with the skills of `d`.
    fn session(d: &Dirs) -> BuiltinSession {
        let skills = Slash::load(&d.dirs()).skills;
        let boundary = WorkspaceBoundary::new(&d.ws).unwrap();
        BuiltinSession::new(boundary, d.ws.join(".data")).with_skills(skills, Some(&d.home))
    }

    async fn call(session: &BuiltinSession, name: &str) -> Result<ToolOutput, ToolError> {
        let set = ToolSet::new(
            crate::builtin_tools::builtin_tools(session, false),
            Vec::new(),
        );
        let call = set.prepare("skill", json!({ "name": name }))?;
        assert_eq!(call.facts.class, ActionClass::Read);
        execute(
            call.tool,
            call.input,
            DEFAULT_TIMEOUT,
            CancellationToken::new(),
            OutputSink::discard(),
            None,
        )
        .await
        .outcome
    }

    #[tokio::test]
    async fn loads_a_skill_and_names_the_others_when_unknown() {
        let d = Dirs::new();
        write(
            &d.home,
            ".claude/skills/pdf/SKILL.md",
            "---\nname: pdf\ndescription: PDFs\n---\nUse pypdf.\n",
        );
        write(&d.home, ".claude/skills/pdf/ref.md", "reference\n");
        write(
            &d.ws,
            ".claude/skills/docs/SKILL.md",
            "---\nname: docs\ndescription: Docs\n---\nWrite docs.\n",
        );
        let s = session(&d);
        let out = call(&s, "pdf").await.unwrap();
        assert!(out.text.ends_with("Use pypdf."), "{}", out.text);
        assert!(out.text.contains("\nref.md\n"), "{}", out.text);
        let dir = d.home.join(".claude/skills/pdf");
        assert!(
            out.text
                .contains(&format!("Its folder: {}\n", dir.display())),
            "{}",
            out.text
        );
        assert_eq!(
            out.summary.as_deref(),
            Some("Loaded the skill pdf (~/.claude/skills/pdf/SKILL.md)")
        );
        let err = call(&s, "nope").await.unwrap_err();
        assert_eq!(err.code, UNKNOWN_SKILL);
        assert!(err.message.contains("the skills are: docs, pdf"), "{err}");
    }

    #[tokio::test]
    async fn read_reaches_a_skills_files_and_nothing_else_outside() {
        let d = Dirs::new();
        write(
            &d.home,
            ".claude/skills/x/SKILL.md",
            "---\ndescription: X\n---\nSee ref.md.\n",
        );
        write(&d.home, ".claude/skills/x/ref.md", "the reference\n");
        write(&d.home, ".claude/settings.json", "{\"secret\": 1}\n");
        write(&d.home, "notes.txt", "private\n");
        let s = session(&d);
        let read = |path: String| ReadParams {
            path,
            offset: None,
            limit: None,
        };
        let skill_file = d.home.join(".claude/skills/x/ref.md");
        let out = run_read(&s, read(skill_file.display().to_string()))
            .await
            .unwrap();
        assert_eq!(out.content, "     1\tthe reference\n");
        assert_eq!(out.path, skill_file.display().to_string());
        let set = ToolSet::new(crate::builtin_tools::builtin_tools(&s, false), Vec::new());
        let facts = set
            .prepare("read", json!({"path": skill_file.display().to_string()}))
            .unwrap()
            .facts;
        assert_eq!(
            facts.path.as_deref(),
            Some(skill_file.display().to_string().as_str())
        );
        for outside in [
            d.home.join(".claude/settings.json"),
            d.home.join("notes.txt"),
            d.home.join(".claude/skills/x/../../settings.json"),
        ] {
            let err = run_read(&s, read(outside.display().to_string()))
                .await
                .unwrap_err();
            assert_eq!(err.code(), "PATH_NOT_IN_WORKSPACE", "{outside:?}");
            assert!(
                set.prepare("read", json!({"path": outside.display().to_string()}))
                    .is_err()
            );
        }
        // Only `read`: `ls` of the skill's folder is refused.
        assert!(
            set.prepare(
                "ls",
                json!({"path": d.home.join(".claude/skills/x").display().to_string()})
            )
            .is_err()
        );
        // A session without skills reads nothing outside.
        let plain = BuiltinSession::new(WorkspaceBoundary::new(&d.ws).unwrap(), d.ws.join(".data"));
        assert!(
            run_read(&plain, read(skill_file.display().to_string()))
                .await
                .is_err()
        );
        let _ = SlashDirs::for_user(d.ws.clone(), None);
    }
}
