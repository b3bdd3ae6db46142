// The task commands of a mocked Backend, with quiet defaults (no tasks, an empty inbox, a folder
// where a worktree is possible), and a sample task for tests to vary.
import type { Backend } from "../backend";
import type { TaskSummary } from "../protocol/TaskSummary";

export type TaskCommands = Pick<
  Backend,
  | "listTasks"
  | "taskInbox"
  | "taskPlaces"
  | "startTask"
  | "listAgents"
  | "mergeTask"
  | "draftMergeMessage"
  | "cancelMerge"
  | "discardTask"
  | "restoreTask"
  | "handBackTask"
  | "cleanUpMerged"
  | "taskChange"
  | "dropTaskChange"
  | "onTasksChanged"
  | "startTaskRun"
  | "stopTaskRun"
  | "taskRun"
>;

/** A task in a worktree, running, with no changes yet; `over` replaces any field. */
export function sampleTask(over: Partial<TaskSummary> = {}): TaskSummary {
  return {
    id: "t1",
    name: "fix-login",
    title: "Fix the login form",
    workspace_path: "/w",
    place: "worktree",
    path: "/w/.foreman/worktrees/fix-login",
    branch: "foreman/fix-login",
    base: "main",
    state: "running",
    added: 0,
    removed: 0,
    files: 0,
    missing: false,
    overlaps: [],
    created_at: 1,
    updated_at: 2,
    ...over,
  };
}

export function taskCommands(): TaskCommands {
  return {
    listTasks: async () => [],
    taskInbox: async () => [],
    taskPlaces: async () => ({ worktree: true, current: "main", branches: ["main"] }),
    startTask: async (workspace, place, name) =>
      sampleTask({ workspace_path: workspace, place, name: name ?? "task-1", state: "running" }),
    listAgents: async () => [],
    mergeTask: async () => {},
    draftMergeMessage: async () => "",
    cancelMerge: async () => {},
    discardTask: async (id) => sampleTask({ id, state: "discarded" }),
    restoreTask: async (id) => sampleTask({ id, state: "ready" }),
    handBackTask: async (id) => sampleTask({ id, state: "ready" }),
    cleanUpMerged: async () => 0,
    taskChange: async (id) => ({ task_id: id, base_commit: "abc123", files: [] }),
    dropTaskChange: async (id) => ({ task_id: id, base_commit: "abc123", files: [] }),
    onTasksChanged: async () => () => {},
    startTaskRun: async () => ({ command: "npm run dev", running: true, output: "" }),
    stopTaskRun: async () => {},
    taskRun: async () => null,
  };
}
