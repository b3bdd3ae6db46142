// The commands the Rust shell exposes, typed with the generated protocol types.
import { Channel, invoke } from "@tauri-apps/api/core";
import { listen } from "@tauri-apps/api/event";
import { getCurrentWebview } from "@tauri-apps/api/webview";
import { getCurrentWebviewWindow } from "@tauri-apps/api/webviewWindow";
import type { AgentInfo } from "./protocol/AgentInfo";
import type { AppSettings } from "./protocol/AppSettings";
import type { ConnectionTest } from "./protocol/ConnectionTest";
import type { McpView } from "./protocol/McpView";
import type { MenuRequest } from "./protocol/MenuRequest";
import type { CommandError } from "./protocol/CommandError";
import type { Event } from "./protocol/Event";
import type { OpenedSession } from "./protocol/OpenedSession";
import type { Op } from "./protocol/Op";
import type { ProviderPreset } from "./protocol/ProviderPreset";
import type { RecentWorkspace } from "./protocol/RecentWorkspace";
import type { NetChange } from "./protocol/NetChange";
import type { SessionSummary } from "./protocol/SessionSummary";
import type { SettingsView } from "./protocol/SettingsView";
import type { ModelInfo } from "./protocol/ModelInfo";
import type { ProviderSettings } from "./protocol/ProviderSettings";
import type { StartupView } from "./protocol/StartupView";
import type { RuleAction } from "./protocol/RuleAction";
import type { RuleFilesView } from "./protocol/RuleFilesView";
import type { RuleScope } from "./protocol/RuleScope";
import type { StoredRule } from "./protocol/StoredRule";
import type { WorkspaceView } from "./protocol/WorkspaceView";
import type { HunkRef } from "./protocol/HunkRef";
import type { HooksView } from "./protocol/HooksView";
import type { SlashCatalog } from "./protocol/SlashCatalog";
import type { InboxItem } from "./protocol/InboxItem";
import type { TaskChange } from "./protocol/TaskChange";
import type { TaskRun } from "./protocol/TaskRun";
import type { TaskPlace } from "./protocol/TaskPlace";
import type { TaskPlaces } from "./protocol/TaskPlaces";
import type { TaskSummary } from "./protocol/TaskSummary";

export interface Backend {
  startup(): Promise<StartupView>;
  openWorkspace(path: string): Promise<WorkspaceView>;
  chooseFolder(): Promise<string | null>;
  /** Opens `path` in a new window (or brings the window showing it to the front); `null`: a new window on the welcome screen. */
  openInNewWindow(path: string | null): Promise<void>;
  /** This window went back to the welcome screen and shows no workspace any more. */
  showWelcome(): Promise<void>;
  recentWorkspaces(): Promise<RecentWorkspace[]>;
  forgetWorkspace(path: string): Promise<RecentWorkspace[]>;
  moveDatabaseAside(): Promise<StartupView>;
  /** Opens (or reopens) a session; its events arrive on `onEvent`, in order. */
  openSession(workspace: string, resume: string | null, onEvent: (event: Event) => void): Promise<OpenedSession>;
  sendOp(sessionId: string, op: Op): Promise<void>;
  listSessions(workspace: string): Promise<SessionSummary[]>;
  renameSession(sessionId: string, title: string): Promise<void>;
  deleteSession(sessionId: string): Promise<void>;
  /**
   * A new session with the conversation of `sessionId` before the user's message number
   * `messageIndex` (whose text is `text`); the original is not changed.
   */
  branchSession(sessionId: string, messageIndex: number, text: string): Promise<SessionSummary>;
  /**
   * What the changes `callIds` (one file's) of a stored session amount to now: the file before the
   * oldest of them still kept, against the file on disk.
   */
  fileNetChange(sessionId: string, callIds: string[]): Promise<NetChange>;
  /** The window shows a new conversation (no session yet): a reloaded page must not reopen the last one. */
  showNewSession(): Promise<void>;
  workspaceFiles(workspace: string, query: string): Promise<string[]>;
  getSettings(): Promise<SettingsView>;
  saveSettings(settings: AppSettings): Promise<SettingsView>;
  setApiKey(preset: ProviderPreset, key: string): Promise<SettingsView>;
  deleteApiKey(preset: ProviderPreset): Promise<SettingsView>;
  /** Lists the provider's models and sends one small request with a tool. */
  testConnection(settings: AppSettings): Promise<ConnectionTest>;
  /** The models the provider `settings` describe offers, asked with the key stored for its preset. */
  listModels(settings: ProviderSettings): Promise<ModelInfo[]>;
  openExternal(url: string): Promise<void>;
  /** The allow, ask and deny rules in force for the workspace (and the session, when shown). */
  rulesList(workspace: string, sessionId: string | null): Promise<StoredRule[]>;
  /** Adds a rule (its syntax checked); the rules in force after it. */
  rulesAdd(workspace: string, sessionId: string | null, action: RuleAction, pattern: string, scope: RuleScope): Promise<StoredRule[]>;
  /** Removes a rule; the rules in force after it. */
  rulesRemove(workspace: string, sessionId: string | null, id: number): Promise<StoredRule[]>;
  /** The instruction files (AGENTS.md and its fallbacks, the user's own) the workspace's sessions follow. */
  ruleFiles(workspace: string): Promise<RuleFilesView>;
  /** The bytes the workspace's checkpoints take on disk. */
  checkpointsUsage(workspace: string): Promise<number>;
  /** Deletes the workspace's checkpoints (its files stay); the bytes freed. */
  clearCheckpoints(workspace: string): Promise<number>;
  mcpStatus(workspace: string): Promise<McpView>;
  mcpApprove(workspace: string, server: string): Promise<McpView>;
  mcpRestart(workspace: string, server: string): Promise<McpView>;
  mcpSetEnabled(workspace: string, server: string, tool: string | null, enabled: boolean): Promise<McpView>;
  mcpSaveUserConfig(workspace: string, text: string): Promise<McpView>;
  /** The hooks in force for the workspace, where each comes from, and whether it waits for consent. */
  hooksView(workspace: string): Promise<HooksView>;
  /** Allows the workspace's hooks as they were shown (`hash`: `HooksView.consent_hash`). */
  consentHooks(workspace: string, hash: string): Promise<void>;
  /** The `/` menu for the workspace: built-ins, commands and skills, and what could not be read. */
  slashCatalog(workspace: string): Promise<SlashCatalog>;
  /** Calls `onFolder` with the first path dropped on the window; resolves to an unsubscribe. */
  onFolderDrop(onFolder: (path: string) => void): Promise<() => void>;
  /** Calls `onRequest` with what the native menu asks this window to do; resolves to an unsubscribe. */
  onMenu(onRequest: (request: MenuRequest) => void): Promise<() => void>;
  /** Puts the diagnostics for a bug report on the clipboard (keys taken out) and returns them. */
  copyDiagnostics(): Promise<string>;

  // Tasks: a session with a place to work (the folder, or a git worktree of its own).
  /** The workspace's tasks; each one's `state` includes what its session is doing now. */
  listTasks(workspace: string): Promise<TaskSummary[]>;
  /** What needs the user across every open workspace's tasks, most urgent first. */
  taskInbox(): Promise<InboxItem[]>;
  /** Where a new task can work in the folder (a worktree, and from which branches). */
  taskPlaces(workspace: string): Promise<TaskPlaces>;
  /**
   * Creates a task, its work done by the external agent `agent` (null: Foreman's own); the window
   * then opens its session as any other (`openSession(workspace, task.id)`). At the limit of
   * tasks at once it is `queued`, and that open waits for a slot.
   */
  startTask(workspace: string, place: TaskPlace, name: string | null, base: string | null, agent?: string | null): Promise<TaskSummary>;
  /** The external agents a task can be given (presets, installed or not, and agents.json's). */
  listAgents(): Promise<AgentInfo[]>;
  /** Puts the task in the merge queue with `message` (null: the drafted one). */
  mergeTask(taskId: string, message: string | null): Promise<void>;
  /** A commit message for the task's change, for the user to edit before merging. */
  draftMergeMessage(taskId: string): Promise<string | null>;
  cancelMerge(taskId: string): Promise<void>;
  /** Removes the task's worktree, keeping a copy of its changes that `restoreTask` brings back (14 days). */
  discardTask(taskId: string): Promise<TaskSummary>;
  restoreTask(taskId: string): Promise<TaskSummary>;
  /** Applies the task's changes to the user's checkout (refused when the checkout is not clean). */
  handBackTask(taskId: string): Promise<TaskSummary>;
  /** Removes the worktrees of merged tasks; the bytes freed. */
  cleanUpMerged(workspace: string): Promise<number>;
  /** The task's whole change against its base, for review. */
  taskChange(taskId: string): Promise<TaskChange>;
  /** Reverts a file (`hunks` null) or some of its hunks in the task's worktree; the change after it. */
  dropTaskChange(taskId: string, path: string, hunks: HunkRef[] | null): Promise<TaskChange>;
  /** Calls `listener` with the workspace whose tasks changed; resolves to an unsubscribe. */
  onTasksChanged(listener: (workspace: string) => void): Promise<() => void>;
  /** Starts the repository's run command in the task's worktree (confined, network on). */
  startTaskRun(taskId: string): Promise<TaskRun>;
  /** Stops the task's run command and everything it started. */
  stopTaskRun(taskId: string): Promise<void>;
  /** The task's run as its panel shows it; null when it has not run in this app. */
  taskRun(taskId: string): Promise<TaskRun | null>;
}

/** The message of an error thrown by `invoke` (a CommandError) or anything else. */
export function errorMessage(error: unknown): string {
  if (typeof error === "object" && error !== null && "message" in error) {
    const message = (error as CommandError).message;
    if (typeof message === "string") return message;
  }
  return String(error);
}

export const tauriBackend: Backend = {
  startup: () => invoke<StartupView>("startup"),
  openWorkspace: (path) => invoke<WorkspaceView>("open_workspace", { path }),
  chooseFolder: () => invoke<string | null>("choose_folder"),
  openInNewWindow: (path) => invoke<void>("open_new_window", { path }),
  showWelcome: () => invoke<void>("show_welcome"),
  recentWorkspaces: () => invoke<RecentWorkspace[]>("recent_workspaces"),
  forgetWorkspace: (path) => invoke<RecentWorkspace[]>("forget_workspace", { path }),
  moveDatabaseAside: () => invoke<StartupView>("move_database_aside"),
  openSession: (workspace, resume, onEvent) => {
    // Events arrive in batches (the shell coalesces them, see src-tauri/src/bridge.rs).
    const channel = new Channel<Event[]>();
    channel.onmessage = (batch) => batch.forEach(onEvent);
    return invoke<OpenedSession>("open_session_channel", { workspace, resume, channel });
  },
  sendOp: (sessionId, op) => invoke<void>("send_op", { sessionId, op }),
  listSessions: (workspace) => invoke<SessionSummary[]>("list_sessions", { workspace }),
  renameSession: (sessionId, title) => invoke<void>("rename_session", { sessionId, title }),
  deleteSession: (sessionId) => invoke<void>("delete_session", { sessionId }),
  branchSession: (sessionId, messageIndex, text) =>
    invoke<SessionSummary>("branch_session", { sessionId, messageIndex, text }),
  fileNetChange: (sessionId, callIds) => invoke<NetChange>("file_net_change", { sessionId, callIds }),
  showNewSession: () => invoke<void>("show_new_session"),
  workspaceFiles: (workspace, query) => invoke<string[]>("workspace_files", { workspace, query }),
  getSettings: () => invoke<SettingsView>("get_settings"),
  saveSettings: (settings) => invoke<SettingsView>("save_settings", { settings }),
  setApiKey: (preset, key) => invoke<SettingsView>("set_api_key", { preset, key }),
  deleteApiKey: (preset) => invoke<SettingsView>("delete_api_key", { preset }),
  testConnection: (settings) => invoke<ConnectionTest>("test_connection", { settings }),
  listModels: (settings) => invoke<ModelInfo[]>("list_provider_models", { settings }),
  openExternal: (url) => invoke<void>("open_external", { url }),
  rulesList: (workspace, sessionId) => invoke<StoredRule[]>("rules_list", { workspace, sessionId }),
  rulesAdd: (workspace, sessionId, action, pattern, scope) =>
    invoke<StoredRule[]>("rules_add", { workspace, sessionId, action, pattern, scope }),
  rulesRemove: (workspace, sessionId, id) => invoke<StoredRule[]>("rules_remove", { workspace, sessionId, id }),
  ruleFiles: (workspace) => invoke<RuleFilesView>("rule_files", { workspace }),
  checkpointsUsage: (workspace) => invoke<number>("checkpoints_usage", { workspace }),
  clearCheckpoints: (workspace) => invoke<number>("clear_checkpoints", { workspace }),
  mcpStatus: (workspace) => invoke<McpView>("mcp_status", { workspace }),
  mcpApprove: (workspace, server) => invoke<McpView>("mcp_approve", { workspace, server }),
  mcpRestart: (workspace, server) => invoke<McpView>("mcp_restart", { workspace, server }),
  mcpSetEnabled: (workspace, server, tool, enabled) =>
    invoke<McpView>("mcp_set_enabled", { workspace, server, tool, enabled }),
  mcpSaveUserConfig: (workspace, text) => invoke<McpView>("mcp_save_user_config", { workspace, text }),
  hooksView: (workspace) => invoke<HooksView>("hooks_view", { workspace }),
  consentHooks: (workspace, hash) => invoke<void>("consent_hooks", { workspace, hash }),
  slashCatalog: (workspace) => invoke<SlashCatalog>("slash_catalog", { workspace }),
  onFolderDrop: (onFolder) =>
    getCurrentWebview().onDragDropEvent((event) => {
      const first = event.payload.type === "drop" ? event.payload.paths[0] : undefined;
      if (first) onFolder(first);
    }),
  onMenu: (onRequest) => getCurrentWebviewWindow().listen<MenuRequest>("menu", (event) => onRequest(event.payload)),
  copyDiagnostics: () => invoke<string>("copy_diagnostics"),
  listTasks: (workspace) => invoke<TaskSummary[]>("list_tasks", { workspace }),
  taskInbox: () => invoke<InboxItem[]>("task_inbox"),
  taskPlaces: (workspace) => invoke<TaskPlaces>("task_places", { workspace }),
  startTask: (workspace, place, name, base, agent) =>
    invoke<TaskSummary>("start_task", { workspace, place, name, base, agent: agent ?? null }),
  listAgents: () => invoke<AgentInfo[]>("list_agents"),
  mergeTask: (taskId, message) => invoke<void>("merge_task", { taskId, message }),
  draftMergeMessage: (taskId) => invoke<string | null>("draft_merge_message", { taskId }),
  cancelMerge: (taskId) => invoke<void>("cancel_merge", { taskId }),
  discardTask: (taskId) => invoke<TaskSummary>("discard_task", { taskId }),
  restoreTask: (taskId) => invoke<TaskSummary>("restore_task", { taskId }),
  handBackTask: (taskId) => invoke<TaskSummary>("hand_back_task", { taskId }),
  cleanUpMerged: (workspace) => invoke<number>("clean_up_merged", { workspace }),
  taskChange: (taskId) => invoke<TaskChange>("task_change", { taskId }),
  dropTaskChange: (taskId, path, hunks) => invoke<TaskChange>("drop_task_change", { taskId, path, hunks }),
  startTaskRun: (taskId) => invoke<TaskRun>("start_task_run", { taskId }),
  stopTaskRun: (taskId) => invoke<void>("stop_task_run", { taskId }),
  taskRun: (taskId) => invoke<TaskRun | null>("task_run", { taskId }),
  // Emitted to every window: each one filters on its own workspace.
  onTasksChanged: (listener) => listen<string>("tasks-changed", (event) => listener(event.payload)),
};
