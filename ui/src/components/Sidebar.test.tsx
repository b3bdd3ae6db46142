import { act, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { SessionSummary } from "../protocol/SessionSummary";
import { Sidebar } from "./Sidebar";
import { sessionRows } from "./sessionRows";
import { sampleTask } from "../test/taskBackend";

function session(id: string, title: string, over: Partial<SessionSummary> = {}): SessionSummary {
  return { id, workspace_path: "/w", title, created_at: Number(id.slice(1)), updated_at: 0, ...over };
}

const noop = { onNew() {}, onOpen() {}, onRename() {}, onDelete() {} };

test("a running session shows a spinner, one waiting for approvals an amber count", () => {
  render(
    <Sidebar
      {...noop}
      current={null}
      sessions={[
        session("s1", "Fix the parser", { activity: { running: true, waiting: 0 } }),
        session("s2", "Write the docs", { activity: { running: true, waiting: 2 } }),
        session("s3", "Old work"),
      ]}
    />,
  );
  const [first, second, third] = screen.getAllByTestId("session-item");
  expect(within(first!).getByTestId("session-running")).toHaveAttribute("aria-label", "Working");
  const waiting = within(second!).getByTestId("session-waiting");
  expect(waiting).toHaveTextContent("2");
  expect(waiting).toHaveClass("look-needs-you");
  expect(waiting).toHaveAttribute("title", "2 approvals wait for you");
  expect(within(third!).queryByTestId("session-running")).toBeNull();
  expect(within(third!).queryByTestId("session-waiting")).toBeNull();
});

test("the open session's badge comes from its own events", () => {
  render(
    <Sidebar
      {...noop}
      current="s1"
      currentActivity={{ running: true, waiting: 1 }}
      sessions={[session("s1", "Fix the parser")]}
    />,
  );
  expect(screen.getByTestId("session-waiting")).toHaveTextContent("1");
});

test("a branch is a row of its own under the session it came from, titled like it and marked", () => {
  const sessions = [
    session("s3", "↳ Plan the work", { updated_at: 30 }),
    session("s5", "Other work", { updated_at: 25 }),
    session("s1", "Plan the work", { updated_at: 20 }),
    session("s2", "↳ Plan the work", { updated_at: 10 }),
    session("s4", "↳ Something not listed", { updated_at: 5 }),
    session("s6", "↳ ↳ Plan the work", { updated_at: 1 }),
  ];
  const rows = sessionRows(sessions);
  expect(rows.map((r) => [r.session.id, r.depth])).toEqual([
    ["s5", 0],
    ["s1", 0],
    ["s3", 1],
    ["s6", 2],
    ["s2", 1],
    ["s4", 0],
  ]);
  expect(rows.find((r) => r.session.id === "s1")).toMatchObject({ label: "Plan the work", tip: "Plan the work", branch: false });
  expect(rows.find((r) => r.session.id === "s2")).toMatchObject({ label: "Plan the work", tip: "Branch of “Plan the work”", branch: true });
  // Its source is gone from the list: still a branch, in its own place.
  expect(rows.find((r) => r.session.id === "s4")).toMatchObject({ label: "Something not listed", branch: true, depth: 0 });
  render(<Sidebar {...noop} current={null} sessions={sessions} />);
  const items = screen.getAllByTestId("session-item");
  const branch = items.find((i) => i.getAttribute("data-branch") === "true")!;
  // Drawn as any session (not greyed), its title first, said to be a branch under it.
  expect(branch.querySelector(".session-title")).toHaveTextContent(/^Plan the work$/);
  expect(branch).toHaveAttribute("title", "Branch of “Plan the work”");
  expect(branch.querySelector(".session-time")).toHaveTextContent(/^branch/);
  expect(screen.getAllByRole("listitem")[2]).toHaveStyle({ marginLeft: "14px" });
});

test("search finds sessions by the title they show", async () => {
  render(<Sidebar {...noop} current={null} sessions={[session("s1", "Plan the work"), session("s2", "↳ Plan the work"), session("s3", "Docs")]} />);
  await userEvent.type(screen.getByRole("searchbox", { name: "Search sessions" }), "plan");
  expect(screen.getAllByTestId("session-item")).toHaveLength(2);
});

test("a session's time moves on while the list is shown, and an unknown time says nothing", () => {
  vi.useFakeTimers();
  try {
    vi.setSystemTime(new Date("2025-03-01T12:00:00Z"));
    const now = Date.now();
    render(<Sidebar {...noop} current={null} sessions={[session("s1", "Fresh", { updated_at: now }), session("s2", "Unknown", { updated_at: 0 })]} />);
    const [fresh, unknown] = screen.getAllByTestId("session-item");
    expect(fresh!.querySelector(".session-time")).toHaveTextContent("just now");
    act(() => vi.advanceTimersByTime(5 * 60_000));
    expect(fresh!.querySelector(".session-time")).toHaveTextContent("5 minutes ago");
    expect(unknown!.querySelector(".session-time")).toBeNull();
  } finally {
    vi.useRealTimers();
  }
});

test("the sidebar folds to a rail that keeps New task and what waits, and unfolds from it", async () => {
  const onToggle = vi.fn();
  const sessions = [session("s1", "Fix the parser", { activity: { running: false, waiting: 2 } })];
  const { rerender } = render(<Sidebar {...noop} current={null} sessions={sessions} onToggle={onToggle} />);
  const hide = screen.getByTestId("sidebar-toggle");
  expect(hide).toHaveAttribute("aria-expanded", "true");
  expect(hide).toHaveAccessibleName("Hide sessions");
  hide.focus();
  await userEvent.keyboard("{Enter}");
  expect(onToggle).toHaveBeenCalledTimes(1);
  rerender(<Sidebar {...noop} current={null} sessions={sessions} onToggle={onToggle} collapsed />);
  expect(screen.queryByTestId("session-item")).toBeNull();
  expect(screen.getByRole("button", { name: "New task" })).toHaveAttribute("data-testid", "new-session");
  const show = screen.getByTestId("sidebar-toggle");
  expect(show).toHaveAttribute("aria-expanded", "false");
  expect(show).toHaveAccessibleName("Show sessions (2 waiting for you)");
});

test("the new button starts a task and keeps the id the end-to-end tests click", () => {
  let asked = 0;
  render(<Sidebar {...noop} onNew={() => (asked += 1)} current={null} sessions={[]} />);
  const button = screen.getByRole("button", { name: "New task" });
  expect(button).toHaveAttribute("data-testid", "new-session");
  button.click();
  expect(asked).toBe(1);
});

test("a session that is a task shows its state, changes, branch and base", () => {
  const tasks = new Map([["s1", sampleTask({ id: "s1", state: "ready", added: 12, removed: 3, files: 2 })]]);
  render(<Sidebar {...noop} current={null} tasks={tasks} sessions={[session("s1", "Fix the login"), session("s2", "Plain talk")]} />);
  const [task, plain] = screen.getAllByTestId("session-item");
  const pill = within(task!).getByTestId("task-state");
  expect(pill).toHaveTextContent("ready");
  expect(pill).toHaveClass("look-done");
  expect(task).toHaveTextContent("+12 −3");
  expect(task).toHaveTextContent("foreman/fix-login from main");
  // The title stays first: the end-to-end tests match the item's text from its start.
  expect(task!.textContent).toMatch(/^Fix the login/);
  expect(within(plain!).queryByTestId("task-state")).toBeNull();
});

test("a task waiting for the person says so in words, from the open session's own events", () => {
  const tasks = new Map([["s1", sampleTask({ id: "s1", state: "running" })]]);
  render(
    <Sidebar
      {...noop}
      current="s1"
      currentActivity={{ running: true, waiting: 1 }}
      tasks={tasks}
      sessions={[session("s1", "Fix the login")]}
    />,
  );
  expect(screen.getByTestId("task-state")).toHaveTextContent("waiting for you");
  expect(screen.getByTestId("task-state")).toHaveClass("look-needs-you");
});

test("overlaps with other tasks and a deleted worktree are warned of in words", () => {
  const tasks = new Map([
    [
      "s1",
      sampleTask({
        id: "s1",
        missing: true,
        overlaps: [
          { path: "src/app.ts", task_id: "t2", task_name: "fix-login", likely_conflict: false },
          { path: "src/auth.ts", task_id: "t3", task_name: "auth", likely_conflict: true },
        ],
      }),
    ],
  ]);
  render(<Sidebar {...noop} current={null} tasks={tasks} sessions={[session("s1", "Refactor")]} />);
  expect(screen.getByTestId("task-missing")).toHaveTextContent("worktree deleted");
  const overlaps = screen.getAllByTestId("task-overlap");
  expect(overlaps.map((o) => o.textContent)).toEqual([
    "⚠ also changed by fix-login: src/app.ts",
    "⚠ also changed by auth: src/auth.ts (likely conflict)",
  ]);
  expect(overlaps[1]).toHaveClass("task-conflict");
});

test("a folder task says where it works", () => {
  const tasks = new Map([["s1", sampleTask({ id: "s1", place: "folder", branch: undefined, path: "/w" })]]);
  render(<Sidebar {...noop} current={null} tasks={tasks} sessions={[session("s1", "Here")]} footer={<p>the footer</p>} />);
  expect(screen.getByTestId("task-row-info")).toHaveTextContent("in this folder from main");
  expect(screen.getByText("the footer")).toBeInTheDocument();
});

test("a task not titled yet is named by its task name, a plain session stays Untitled", () => {
  const tasks = new Map([["s1", sampleTask({ id: "s1", name: "release-notes" })]]);
  render(<Sidebar {...noop} current={null} tasks={tasks} sessions={[session("s1", ""), session("s2", "")]} />);
  const [task, plain] = screen.getAllByTestId("session-item");
  expect(task!.querySelector(".session-title")).toHaveTextContent(/^release-notes$/);
  expect(plain!.querySelector(".session-title")).toHaveTextContent(/^Untitled$/);
});
