import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { Backend } from "../../backend";
import type { TaskPlaces } from "../../protocol/TaskPlaces";
import type { TaskSummary } from "../../protocol/TaskSummary";
import { taskCommands } from "../../test/taskBackend";
import { NewTask } from "./NewTask";

type Started = [string, string, string | null, string | null];

function setup(places: TaskPlaces | Error, failStart?: string) {
  const started: Started[] = [];
  const done: TaskSummary[] = [];
  let cancelled = 0;
  const commands = taskCommands();
  const backend: Pick<Backend, "taskPlaces" | "startTask"> = {
    taskPlaces: async () => {
      if (places instanceof Error) throw { message: places.message };
      return places;
    },
    startTask: async (workspace, place, name, base) => {
      started.push([workspace, place, name, base]);
      if (failStart) throw { message: failStart };
      return commands.startTask(workspace, place, name, base);
    },
  };
  render(<NewTask backend={{ ...commands, ...backend } as unknown as Backend} workspace="/w" onStarted={(t) => done.push(t)} onCancel={() => (cancelled += 1)} />);
  return { started, done, cancelled: () => cancelled };
}

test("Enter starts a task in a new worktree from the current branch", async () => {
  const { started, done } = setup({ worktree: true, current: "main", branches: ["main", "dev"] });
  const start = await screen.findByRole("button", { name: "Start task" });
  // It takes the focus once the places are read, which may come after it is drawn.
  await waitFor(() => expect(start).toHaveFocus());
  expect(screen.getByRole("radio", { name: "In a new worktree" })).toBeChecked();
  expect(screen.getByRole("combobox", { name: "Base branch" })).toHaveValue("main");
  await userEvent.keyboard("{Enter}");
  await waitFor(() => expect(started).toEqual([["/w", "worktree", null, "main"]]));
  expect(done).toHaveLength(1);
});

test("a name and another base go with the task", async () => {
  const { started } = setup({ worktree: true, current: "main", branches: ["main", "dev"] });
  await userEvent.selectOptions(await screen.findByRole("combobox", { name: "Base branch" }), "dev");
  await userEvent.type(screen.getByRole("textbox", { name: "Task name" }), " fix-login {Enter}");
  await waitFor(() => expect(started).toEqual([["/w", "worktree", "fix-login", "dev"]]));
});

test("in this folder there is no branch to choose, and a busy folder says why the task waits", async () => {
  const { started } = setup({ worktree: true, current: "main", branches: ["main"], folder_busy: "fix-login" });
  await userEvent.click(await screen.findByRole("radio", { name: "In this folder" }));
  expect(screen.queryByRole("combobox", { name: "Base branch" })).toBeNull();
  expect(screen.getByTestId("folder-busy")).toHaveTextContent("“fix-login” works in this folder now");
  expect(screen.getByTestId("folder-busy")).toHaveTextContent("waits until that one is done");
  await userEvent.click(screen.getByRole("button", { name: "Start task" }));
  await waitFor(() => expect(started).toEqual([["/w", "folder", null, null]]));
});

test("when a worktree is impossible it says why and the folder is chosen", async () => {
  setup({ worktree: false, why_not: "The folder is not a git repository.", branches: [] });
  const worktree = await screen.findByRole("radio", { name: "In a new worktree" });
  expect(worktree).toBeDisabled();
  expect(screen.getByRole("radio", { name: "In this folder" })).toBeChecked();
  expect(screen.getByText(/Not possible here: The folder is not a git repository\./)).toBeInTheDocument();
  expect(screen.queryByTestId("folder-busy")).toBeNull();
});

test("a detached checkout starts from its commit unless a branch is chosen", async () => {
  const { started } = setup({ worktree: true, branches: ["main"] });
  expect(await screen.findByRole("combobox", { name: "Base branch" })).toHaveValue("");
  expect(screen.getByRole("option", { name: "the current commit" })).toBeInTheDocument();
  await userEvent.click(screen.getByRole("button", { name: "Start task" }));
  await waitFor(() => expect(started).toEqual([["/w", "worktree", null, null]]));
});

test("a refused start says why and can be tried again; Esc leaves", async () => {
  const { started, done, cancelled } = setup({ worktree: true, current: "main", branches: ["main"] }, "The name fix login is not allowed.");
  await userEvent.click(await screen.findByRole("button", { name: "Start task" }));
  expect(await screen.findByRole("alert")).toHaveTextContent("The name fix login is not allowed.");
  expect(done).toHaveLength(0);
  expect(screen.getByRole("button", { name: "Start task" })).toBeEnabled();
  expect(started).toHaveLength(1);
  await userEvent.keyboard("{Escape}");
  expect(cancelled()).toBe(1);
});

test("when the folder cannot be read, the folder is offered with the reason", async () => {
  setup(new Error("git is not installed"));
  expect(await screen.findByRole("radio", { name: "In this folder" })).toBeChecked();
  expect(screen.getByText(/git is not installed/)).toBeInTheDocument();
});

test("an external agent can do the task; one that is not installed cannot be chosen", async () => {
  const agents: [string | null | undefined][] = [];
  const commands = taskCommands();
  const backend = {
    ...commands,
    listAgents: async () => [
      { name: "claude", command: "claude-agent-acp", preset: true, path: "/usr/bin/claude-agent-acp", install: "npm i", unsandboxed: false },
      { name: "codex", command: "codex-acp", preset: true, path: null, install: "npm install -g @agentclientprotocol/codex-acp", unsandboxed: false },
    ],
    startTask: async (workspace: string, place: "worktree" | "folder", name: string | null, base: string | null, agent?: string | null) => {
      agents.push([agent]);
      return commands.startTask(workspace, place, name, base);
    },
  };
  render(<NewTask backend={backend as unknown as Backend} workspace="/w" onStarted={() => {}} onCancel={() => {}} />);
  const select = await screen.findByRole("combobox", { name: "Agent" });
  expect(select).toHaveValue("");
  await waitFor(() => expect(screen.getByRole("option", { name: "claude" })).toBeEnabled());
  expect(screen.getByRole("option", { name: "codex (not installed)" })).toBeDisabled();
  await userEvent.selectOptions(select, "claude");
  expect(screen.getByTestId("task-agent-note")).toHaveTextContent("claude runs in Foreman's sandbox");
  await userEvent.click(screen.getByRole("button", { name: "Start task" }));
  await waitFor(() => expect(agents).toEqual([["claude"]]));
});
