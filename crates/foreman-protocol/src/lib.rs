//! The one protocol between a front end (the app, the CLI) and the engine: [`Op`]s go in,
//! [`Event`]s come out, and the types a front end shows (call snapshots, file diffs, stored
//! sessions, MCP status, settings) travel with them. It depends on nothing of the engine.
//!
//! Ops and events are serde-tagged enums, so they travel as JSON unchanged (Tauri events,
//! `--json` lines). Every event carries the session's `seq`, strictly increasing, so a front end
//! can detect gaps and order what it renders. Every type here has generated TypeScript in
//! `ui/src/protocol/` ([`bindings`]; `make bindings` rewrites them).

pub mod agents;
pub mod attachment;
pub mod bindings;
pub mod call;
pub mod checkpoint;
pub mod config_warning;
pub mod connection_test;
pub mod decision;
pub mod diff;
pub mod event;
pub mod hooks;
pub mod images;
pub mod local_url;
pub mod mcp;
pub mod mode;
pub mod model_info;
pub mod network;
pub mod op;
pub mod records;
pub mod rule_file;
pub mod sandbox;
pub mod settings;
pub mod task;
pub mod tool;
pub mod transcript;
pub mod usage;

/// The partial-JSON parser's patches and paths, which [`EventMsg::ToolCallUpdated`] carries
/// (they live with the parser, in `foreman-stream`).
pub use foreman_stream::{patch, path};

pub use agents::{AgentChoice, AgentInfo, AgentSetting, AgentSettingKind};
pub use attachment::{AttachInput, AttachmentView, ImageInput};
pub use call::{
    CallSnapshot, CallState, FilePreview, InvalidTransition, PREVIEW_LINES_SENT, UndoState,
};
pub use checkpoint::{ChangeKind, RewindPlan, SessionFileChange, WorkspaceChange};
pub use config_warning::ConfigArea;
pub use connection_test::{ConnectionTest, ToolSupport};
pub use decision::CallDecision;
pub use event::{Event, EventMsg, FILES_CHANGED_LIMIT, TaskEndReason};
pub use hooks::{
    HookConsent, HookEvent, HookInfo, HookRun, HookVerdict, HooksView, SlashCatalog, SlashEntry,
    SlashKind,
};
pub use images::{CallImages, ImageLeftOut, ImagesLeftOut, ToolImage};
pub use mode::ApprovalMode;
pub use model_info::ModelInfo;
pub use network::{PrivateTarget, PrivateTargetKind};
pub use op::{ApprovalScope, Op, RuleScope};
pub use rule_file::{RuleFile, RuleFileKind, RuleFilesView};
pub use sandbox::{HiddenPath, SandboxLevel, SandboxNote};
pub use settings::ReasoningEffort;
pub use task::{
    InboxItem, InboxKind, MergeProgress, MergeStep, TaskChange, TaskOverlap, TaskPlace, TaskPlaces,
    TaskRun, TaskState, TaskSummary,
};
pub use tool::{ArgsView, CallError, ToolKind, ToolStats};
pub use usage::UsageSummary;

#[cfg(test)]
mod bindings_tests {
    use super::*;
    use crate::bindings::assert_bindings_current;

    #[test]
    fn protocol_bindings_are_current() {
        assert_bindings_current::<Op>();
        assert_bindings_current::<ApprovalScope>();
        assert_bindings_current::<RuleScope>();
        assert_bindings_current::<ApprovalMode>();
        assert_bindings_current::<Event>();
        assert_bindings_current::<EventMsg>();
        assert_bindings_current::<TaskEndReason>();
        assert_bindings_current::<HookEvent>();
        assert_bindings_current::<HookConsent>();
        assert_bindings_current::<HookInfo>();
        assert_bindings_current::<HooksView>();
        assert_bindings_current::<HookVerdict>();
        assert_bindings_current::<HookRun>();
        assert_bindings_current::<SlashKind>();
        assert_bindings_current::<SlashEntry>();
        assert_bindings_current::<SlashCatalog>();
        assert_bindings_current::<CallState>();
        assert_bindings_current::<CallSnapshot>();
        assert_bindings_current::<CallDecision>();
        assert_bindings_current::<UndoState>();
        assert_bindings_current::<FilePreview>();
        assert_bindings_current::<UsageSummary>();
        assert_bindings_current::<CallImages>();
        assert_bindings_current::<ToolImage>();
        assert_bindings_current::<ImagesLeftOut>();
        assert_bindings_current::<ImageLeftOut>();
        assert_bindings_current::<PrivateTarget>();
        assert_bindings_current::<PrivateTargetKind>();
        assert_bindings_current::<ToolKind>();
        assert_bindings_current::<ArgsView>();
        assert_bindings_current::<CallError>();
        assert_bindings_current::<ToolStats>();
        assert_bindings_current::<SandboxLevel>();
        assert_bindings_current::<SandboxNote>();
        assert_bindings_current::<HiddenPath>();
        assert_bindings_current::<ChangeKind>();
        assert_bindings_current::<WorkspaceChange>();
        assert_bindings_current::<RewindPlan>();
        assert_bindings_current::<SessionFileChange>();
        assert_bindings_current::<RuleFile>();
        assert_bindings_current::<RuleFileKind>();
        assert_bindings_current::<RuleFilesView>();
        assert_bindings_current::<ConfigArea>();
        assert_bindings_current::<AgentInfo>();
        assert_bindings_current::<AgentSetting>();
        assert_bindings_current::<AgentSettingKind>();
        assert_bindings_current::<AgentChoice>();
    }
}
