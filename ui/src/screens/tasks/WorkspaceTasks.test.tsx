// The workspace with tasks: "New task" starts one and opens its conversation, the shown task's
// panel, a queued task's composer, the engine's "tasks-changed", cleaning up merged tasks.
import { act, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { Backend } from "../../backend";
import type { OpenedSession } from "../../protocol/OpenedSession";
import type { SessionSummary } from "../../protocol/SessionSummary";
import type { TaskPlaces } from "../../protocol/TaskPlaces";
import type { TaskSummary } from "../../protocol/TaskSummary";
import { sampleTask, taskCommands } from "../../test/taskBackend";
import { settingsView } from "../../test/settingsView";
import { Workspace } from "../Workspace";

const summary = (id: string, title: string): SessionSummary => ({ id, workspace_path: "/w", title, created_at: 1, updated_at: 2 });

function opened(id: string): OpenedSession {
  return {
    session_id: id,
    transcript: { session_id: id, items: [], todos: [], usage: { input: 0, output: 0, cache_read: 0, cache_write: 0, requests: 0 } },
    was_running: false,
    model: "m",
    provider: "p",
    stopped: null,
  };
}

function setup(
  initial: {
    sessions?: SessionSummary[];
    tasks?: TaskSummary[];
    current?: string | null;
    places?: Promise<TaskPlaces>;
    /** Holds every session's opening until it settles. */
    open?: Promise<void>;
  } = {},
) {
  let sessions = initial.sessions ?? [];
  let tasks = initial.tasks ?? [];
  const opens: (string | null)[] = [];
  const started: unknown[][] = [];
  const listeners: ((ws: string) => void)[] = [];
  let listed = 0;
  let cleaned = 0;
  const api = {
    ...taskCommands(),
    ...(initial.places ? { taskPlaces: () => initial.places } : {}),
    listSessions: async () => sessions,
    listTasks: async () => {
      listed += 1;
      return tasks;
    },
    onTasksChanged: async (l: (ws: string) => void) => {
      listeners.push(l);
      return () => {};
    },
    startTask: async (...args: unknown[]) => {
      started.push(args);
      const task = sampleTask({ id: "t9", name: "new-one", state: "running" });
      tasks = [task, ...tasks];
      sessions = [summary("t9", "New task"), ...sessions];
      return task;
    },
    cleanUpMerged: async () => {
      cleaned += 1;
      tasks = tasks.map((t) => (t.state === "merged" ? { ...t, missing: true } : t));
      return 3 * 1024 * 1024;
    },
    openSession: async (_w: string, resume: string | null) => {
      opens.push(resume);
      await initial.open;
      return opened(resume ?? "s-new");
    },
    sendOp: async () => {},
    showNewSession: async () => {},
    workspaceFiles: async () => [],
    openExternal: async () => {},
    mcpStatus: async () => ({
      status: { servers: [], enabled_tools: 0, tool_limit: 40, warnings: [] },
      user_file: "/cfg/mcp.json",
      user_text: "",
      workspace_file: "/w/.foreman/mcp.json",
    }),
  } as unknown as Backend;
  render(
    <Workspace
      backend={api}
      workspace={{ name: "w", path: "/w" }}
      settings={settingsView({ missing: null, key_stored: true })}
      initialSession={initial.current ?? null}
      onClose={() => {}}
      onOpenSettings={() => {}}
    />,
  );
  return {
    opens,
    started,
    listed: () => listed,
    cleaned: () => cleaned,
    setTasks(next: TaskSummary[]) {
      tasks = next;
    },
    changed(workspace: string) {
      act(() => listeners.forEach((l) => l(workspace)));
    },
  };
}

test("New task asks where it works; Enter starts it and opens its conversation with its panel", async () => {
  const s = setup();
  await userEvent.click(screen.getByRole("button", { name: "New task" }));
  const chooser = await screen.findByTestId("new-task");
  await waitFor(() => expect(within(chooser).getByRole("button", { name: "Start task" })).toHaveFocus());
  await userEvent.keyboard("{Enter}");
  await waitFor(() => expect(s.started).toEqual([["/w", "worktree", null, "main", null]]));
  await waitFor(() => expect(s.opens).toEqual(["t9"]));
  expect(screen.queryByTestId("new-task")).toBeNull();
  const panel = await screen.findByTestId("task-panel");
  expect(panel).toHaveTextContent("new-one");
  await waitFor(() => expect(screen.getAllByTestId("session-item")[0]).toHaveTextContent("running"));
});

test("the old way still works: after New task, a message from the composer starts a session", async () => {
  const s = setup();
  await userEvent.click(screen.getByRole("button", { name: "New task" }));
  await screen.findByTestId("new-task");
  const composer = screen.getByRole("textbox", { name: "Message to the agent" });
  await userEvent.click(composer);
  await userEvent.type(composer, "Just talk{Enter}");
  await waitFor(() => expect(s.opens).toEqual([null]));
  expect(s.started).toEqual([]);
  await waitFor(() => expect(screen.queryByTestId("new-task")).toBeNull());
});

test("a queued task's composer is off and says why", async () => {
  setup({ sessions: [summary("t1", "Fix")], tasks: [sampleTask({ state: "queued" })], current: "t1" });
  expect(await screen.findByTestId("task-queued")).toBeInTheDocument();
  await userEvent.type(screen.getByRole("textbox", { name: "Message to the agent" }), "Start now");
  const send = screen.getByTestId("send");
  expect(send).toBeDisabled();
  expect(send).toHaveAttribute("title", "This task is queued: it starts when a slot is free");
});

test("the tasks are read again when the engine says this workspace's changed", async () => {
  const s = setup({ sessions: [summary("t1", "Fix")], tasks: [sampleTask({ state: "running" })], current: "t1" });
  await waitFor(() => expect(screen.getByTestId("task-panel")).toHaveTextContent("running"));
  s.setTasks([sampleTask({ state: "merging", merge: { step: "rebasing", target: "main", ahead: 0, conflicts: [] } })]);
  const before = s.listed();
  s.changed("/elsewhere");
  expect(s.listed()).toBe(before);
  s.changed("/w");
  await waitFor(() => expect(screen.getByTestId("merge-progress")).toHaveTextContent("Bringing it up to date with main"));
});

test("a stored task is read again once its session has opened, which it read as running meanwhile", async () => {
  let open: () => void = () => {};
  const s = setup({
    sessions: [summary("t1", "Fix")],
    tasks: [sampleTask({ state: "running" })],
    current: "t1",
    open: new Promise<void>((resolve) => (open = resolve)),
  });
  await waitFor(() => expect(within(screen.getByTestId("task-panel")).getByTestId("task-state")).toHaveTextContent("running"));
  s.setTasks([sampleTask({ state: "failed" })]);
  act(() => open());
  await waitFor(() => expect(within(screen.getByTestId("task-panel")).getByTestId("task-state")).toHaveTextContent("failed"));
});

test("merged tasks can be cleaned up from the sidebar, which says what that freed", async () => {
  const s = setup({ sessions: [summary("t1", "Fix")], tasks: [sampleTask({ state: "merged" })] });
  await userEvent.click(await screen.findByRole("button", { name: "Clean up merged tasks" }));
  expect(await screen.findByTestId("clean-up-said")).toHaveTextContent("Cleaned up: 3.0 MiB freed.");
  expect(s.cleaned()).toBe(1);
  await waitFor(() => expect(screen.queryByRole("button", { name: "Clean up merged tasks" })).toBeNull());
});

test("typing in the composer while the places are read keeps the focus there", async () => {
  let answer: (places: TaskPlaces) => void = () => {};
  setup({ places: new Promise<TaskPlaces>((resolve) => (answer = resolve)) });
  await userEvent.click(screen.getByRole("button", { name: "New task" }));
  const composer = screen.getByRole("textbox", { name: "Message to the agent" });
  await userEvent.click(composer);
  await userEvent.type(composer, "abc");
  act(() => answer({ worktree: true, current: "main", branches: ["main"] }));
  await screen.findByRole("button", { name: "Start task" });
  expect(composer).toHaveFocus();
  await userEvent.type(composer, "d");
  expect(composer).toHaveValue("abcd");
});
