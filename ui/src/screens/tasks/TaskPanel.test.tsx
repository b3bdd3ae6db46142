import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { Backend } from "../../backend";
import type { TaskSummary } from "../../protocol/TaskSummary";
import { sampleTask, taskCommands } from "../../test/taskBackend";
import { TaskPanel } from "./TaskPanel";

function setup(task: TaskSummary, over: Partial<Backend> = {}) {
  const calls: string[] = [];
  const sent: string[] = [];
  const modal: boolean[] = [];
  const shown: TaskSummary[] = [];
  let refreshed = 0;
  const commands = taskCommands();
  const backend = {
    ...commands,
    draftMergeMessage: async () => "Fix the login form\n\nThe button did nothing.",
    mergeTask: async (id: string, message: string | null) => {
      calls.push(`merge ${id} ${JSON.stringify(message)}`);
    },
    cancelMerge: async (id: string) => {
      calls.push(`cancel ${id}`);
    },
    discardTask: async (id: string) => {
      calls.push(`discard ${id}`);
      return sampleTask({ id, state: "discarded" });
    },
    restoreTask: async (id: string) => {
      calls.push(`restore ${id}`);
      return sampleTask({ id, state: "ready" });
    },
    handBackTask: async (id: string) => {
      calls.push(`hand back ${id}`);
      return sampleTask({ id });
    },
    ...over,
  } as unknown as Backend;
  const view = render(
    <TaskPanel
      backend={backend}
      task={task}
      send={async (text) => {
        sent.push(text);
      }}
      onTask={(t) => shown.push(t)}
      refresh={() => (refreshed += 1)}
      onModal={(open) => modal.push(open)}
    />,
  );
  return { calls, sent, modal, shown, refreshed: () => refreshed, view };
}

const ready = sampleTask({ state: "ready", added: 10, removed: 2, files: 3, disk_bytes: 5 * 1024 * 1024, port: 4101 });

test("the panel says where the task works, what it took and its state", async () => {
  setup(ready);
  const panel = screen.getByTestId("task-panel");
  expect(within(panel).getByTestId("task-state")).toHaveTextContent("ready");
  expect(panel).toHaveTextContent("foreman/fix-login from main");
  expect(panel).toHaveTextContent("+10 −2");
  await userEvent.click(screen.getByRole("button", { name: "Details" }));
  const details = screen.getByTestId("task-details");
  expect(details).toHaveTextContent("/w/.foreman/worktrees/fix-login");
  expect(screen.getByTestId("task-disk")).toHaveTextContent("5.0 MiB");
  expect(screen.getByTestId("task-port")).toHaveTextContent("4101");
});

test("Merge… shows the drafted message to edit, and Merge puts the edited one in the queue", async () => {
  const s = setup(ready);
  await userEvent.click(screen.getByRole("button", { name: "Merge…" }));
  expect(s.modal).toEqual([true]);
  const message = await screen.findByTestId("merge-message");
  expect(message).toHaveValue("Fix the login form\n\nThe button did nothing.");
  expect(message).toHaveFocus();
  await userEvent.clear(message);
  await userEvent.type(message, "Fix login");
  await userEvent.click(screen.getByRole("button", { name: "Merge" }));
  await waitFor(() => expect(s.calls).toEqual(['merge t1 "Fix login"']));
  expect(screen.queryByTestId("merge-dialog")).toBeNull();
  expect(s.modal).toEqual([true, false]);
  // Its progress shows once the engine reports it; no line says "in the queue" after it is over.
  expect(s.refreshed()).toBeGreaterThan(0);
  expect(screen.queryByTestId("task-said")).toBeNull();
});

test("a merge that is refused says why in the dialog", async () => {
  const s = setup(ready, {
    mergeTask: async () => {
      throw { message: "The checkout has uncommitted changes." };
    },
  });
  await userEvent.click(screen.getByRole("button", { name: "Merge…" }));
  await screen.findByTestId("merge-message");
  await userEvent.click(screen.getByRole("button", { name: "Merge" }));
  expect(await within(screen.getByTestId("merge-dialog")).findByRole("alert")).toHaveTextContent("uncommitted changes");
  expect(s.calls).toEqual([]);
});

test("a merge under way shows its step and can be cancelled; no second merge is offered", async () => {
  const s = setup(sampleTask({ state: "merging", merge: { step: "queued", target: "main", ahead: 2, conflicts: [] } }));
  expect(screen.getByTestId("merge-progress")).toHaveTextContent("Waiting: 2 merges before it.");
  expect(screen.queryByRole("button", { name: "Merge…" })).toBeNull();
  expect(screen.queryByRole("button", { name: "Discard…" })).toBeNull();
  await userEvent.click(screen.getByRole("button", { name: "Cancel merge" }));
  await waitFor(() => expect(s.calls).toEqual(["cancel t1"]));
});

test("a conflict lists its files and asks the agent to fix it in a message", async () => {
  const s = setup(
    sampleTask({
      state: "failed",
      files: 1,
      added: 1,
      merge: {
        step: "conflict",
        target: "main",
        ahead: 0,
        conflicts: ["src/app.ts"],
        message: "Bringing the task onto main met conflicts in src/app.ts; its branch is as it was, and nothing landed.",
      },
    }),
  );
  expect(screen.getByTestId("merge-conflicts")).toHaveTextContent("src/app.ts");
  // Said once: the headline and the files, not the engine's sentence repeating them.
  expect(screen.getByTestId("merge-progress")).toHaveTextContent("Stopped: it conflicts with main in 1 file. Nothing landed.");
  expect(screen.getByTestId("merge-progress")).not.toHaveTextContent("its branch is as it was");
  // Fixing comes first: Merge… is offered, not as the main action.
  expect(screen.getByRole("button", { name: "Merge…" })).not.toHaveClass("primary");
  expect(screen.getByRole("button", { name: "Ask the agent to fix it" })).toHaveClass("primary");
  await userEvent.click(screen.getByRole("button", { name: "Ask the agent to fix it" }));
  await waitFor(() => expect(s.sent).toHaveLength(1));
  expect(s.sent[0]).toContain("- src/app.ts");
  expect(s.sent[0]).toMatch(/resolve the conflicts/);
});

test("a stopped merge the agent has worked after is one line, with nothing to fix from it", () => {
  // The engine calls a task with a stopped merge ready once its agent finished after it.
  setup(sampleTask({ state: "ready", files: 1, added: 1, merge: { step: "conflict", target: "main", ahead: 0, conflicts: ["src/app.ts"] } }));
  const progress = screen.getByTestId("merge-progress");
  expect(progress).toHaveAttribute("data-past", "true");
  expect(progress).toHaveTextContent("The last merge stopped (it conflicted with main); the agent has worked on it since.");
  expect(screen.queryByTestId("merge-conflicts")).toBeNull();
  expect(screen.queryByRole("button", { name: "Ask the agent to fix it" })).toBeNull();
  expect(screen.getByRole("button", { name: "Merge…" })).toHaveClass("primary");
});

test("a failed check shows its output, scrollable, and sends it to the agent", async () => {
  const s = setup(
    sampleTask({
      state: "failed",
      files: 1,
      added: 1,
      merge: { step: "check_failed", target: "main", ahead: 0, conflicts: [], output: "FAIL src/app.test.ts\nexpected 2" },
    }),
  );
  expect(screen.getByTestId("merge-output")).toHaveTextContent("FAIL src/app.test.ts");
  expect(screen.getByTestId("merge-output")).toHaveAttribute("tabindex", "0");
  await userEvent.click(screen.getByRole("button", { name: "Ask the agent to fix it" }));
  await waitFor(() => expect(s.sent[0]).toContain("FAIL src/app.test.ts\nexpected 2"));
});

test("discarding unmerged changes asks first and says they are kept for 14 days", async () => {
  const s = setup(ready);
  await userEvent.click(screen.getByRole("button", { name: "Discard…" }));
  const dialog = screen.getByTestId("discard-dialog");
  expect(dialog).toHaveTextContent("restore it for 14 days");
  // The way out has the focus: Enter alone discards nothing.
  expect(within(dialog).getByRole("button", { name: "Cancel" })).toHaveFocus();
  await userEvent.keyboard("{Escape}");
  expect(s.calls).toEqual([]);
  await userEvent.click(screen.getByRole("button", { name: "Discard…" }));
  await userEvent.click(screen.getByTestId("discard-dialog-confirm"));
  await waitFor(() => expect(s.calls).toEqual(["discard t1"]));
  expect(s.shown[0]?.state).toBe("discarded");
});

test("a task without changes is discarded at once", async () => {
  const s = setup(sampleTask({ state: "ready" }));
  await userEvent.click(screen.getByRole("button", { name: "Discard…" }));
  await waitFor(() => expect(s.calls).toEqual(["discard t1"]));
  expect(screen.queryByTestId("discard-dialog")).toBeNull();
});

test("a discarded task can be restored, and says until when", async () => {
  const s = setup(sampleTask({ state: "discarded", restorable_until: Date.UTC(2030, 0, 15) }));
  expect(screen.getByTestId("task-panel")).toHaveTextContent(/kept until .*2030/);
  expect(screen.queryByRole("button", { name: "Review changes" })).toBeNull();
  await userEvent.click(screen.getByRole("button", { name: "Restore" }));
  await waitFor(() => expect(s.calls).toEqual(["restore t1"]));
});

test("handing back asks first, and a checkout that is not clean is said plainly", async () => {
  const why = "Your folder has uncommitted changes: commit or stash them first.";
  const s = setup(ready, {
    handBackTask: async () => {
      throw { message: why };
    },
  });
  await userEvent.click(screen.getByRole("button", { name: "Hand back…" }));
  expect(screen.getByTestId("hand-back-dialog")).toHaveTextContent("applied to the files in /w");
  await userEvent.click(screen.getByTestId("hand-back-dialog-confirm"));
  expect(await screen.findByTestId("task-problem")).toHaveTextContent(why);
  expect(s.refreshed()).toBeGreaterThan(0);
});

test("a new task offers no merge before it has changed anything", () => {
  setup(sampleTask({ state: "new" }));
  expect(screen.getByTestId("task-state")).toHaveTextContent("new");
  expect(screen.queryByRole("button", { name: "Merge…" })).toBeNull();
});

test("a queued task says it waits for a slot; a running one offers no merge yet", () => {
  setup(sampleTask({ state: "queued" }));
  expect(screen.getByTestId("task-queued")).toHaveTextContent("starts by itself");
  expect(screen.queryByRole("button", { name: "Merge…" })).toBeNull();
});

test("overlaps and a deleted worktree are warned of", () => {
  setup(
    sampleTask({
      missing: true,
      overlaps: [{ path: "src/app.ts", task_id: "t2", task_name: "auth", likely_conflict: true }],
    }),
  );
  expect(screen.getByTestId("task-overlap")).toHaveTextContent("Also changed by auth: src/app.ts (likely conflict)");
  expect(screen.getByTestId("task-missing")).toHaveTextContent("worktree was deleted");
  expect(screen.queryByRole("button", { name: "Review changes" })).toBeNull();
});
