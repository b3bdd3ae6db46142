import { act, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { Backend } from "../../backend";
import type { InboxItem } from "../../protocol/InboxItem";
import { taskCommands } from "../../test/taskBackend";
import type { ApproveResult } from "../workspace/useApproveShortcut";
import { InboxButton } from "./InboxButton";

const item = (over: Partial<InboxItem>): InboxItem => ({
  kind: "ready",
  workspace_path: "/w",
  task_id: "t1",
  task_name: "fix-login",
  title: "Fix the login",
  detail: "Finished: review and merge",
  at: 1,
  ...over,
});

function setup(items: InboxItem[], current: string | null = null, approve: ApproveResult = "approved") {
  let inbox = items;
  const opened: string[] = [];
  const windows: (string | null)[] = [];
  const listeners: ((ws: string) => void)[] = [];
  let approvals = 0;
  const backend = {
    ...taskCommands(),
    taskInbox: async () => inbox,
    onTasksChanged: async (l: (ws: string) => void) => {
      listeners.push(l);
      return () => {};
    },
    openInNewWindow: async (path: string | null) => {
      windows.push(path);
    },
  } as unknown as Backend;
  const view = render(
    <InboxButton
      backend={backend}
      workspace="/w"
      current={current}
      readAgain={null}
      onOpen={(id) => opened.push(id)}
      onApprove={() => {
        approvals += 1;
        return approve;
      }}
    />,
  );
  return {
    opened,
    windows,
    approvals: () => approvals,
    view,
    change(next: InboxItem[]) {
      inbox = next;
      act(() => listeners.forEach((l) => l("/elsewhere")));
    },
  };
}

test("the count says how many things need you and follows the engine's changes", async () => {
  const s = setup([item({ task_id: "a" }), item({ task_id: "b", kind: "approval" })]);
  await waitFor(() => expect(screen.getByTestId("inbox-count")).toHaveTextContent("2"));
  expect(screen.getByRole("button", { name: "Inbox" })).toHaveAttribute("title", "2 things need you (Ctrl+I)");
  s.change([]);
  await waitFor(() => expect(screen.getByTestId("inbox-count")).toHaveTextContent("0"));
});

test("the list is most urgent first, with each kind said and j/k moving, Enter opening", async () => {
  const s = setup([
    item({ task_id: "r", task_name: "docs", kind: "ready" }),
    item({ task_id: "a", task_name: "fix-login", kind: "approval", detail: "Run npm test?" }),
    item({ task_id: "f", task_name: "parser", kind: "failed", detail: "The model refused" }),
  ]);
  await waitFor(() => expect(screen.getByTestId("inbox-count")).toHaveTextContent("3"));
  await userEvent.click(screen.getByRole("button", { name: "Inbox" }));
  const list = screen.getByRole("listbox", { name: "What needs you" });
  expect(list).toHaveFocus();
  const options = within(list).getAllByRole("option");
  expect(options.map((o) => o.getAttribute("data-kind"))).toEqual(["approval", "failed", "ready"]);
  expect(options[0]).toHaveTextContent("Needs your approval: fix-login");
  expect(options[0]).toHaveTextContent("Run npm test?");
  expect(options[0]).toHaveAttribute("aria-selected", "true");
  await userEvent.keyboard("j");
  expect(options[1]).toHaveAttribute("aria-selected", "true");
  await userEvent.keyboard("{ArrowDown}k");
  expect(options[1]).toHaveAttribute("aria-selected", "true");
  expect(list).toHaveAttribute("aria-activedescendant", options[1]!.id);
  await userEvent.keyboard("{Enter}");
  expect(s.opened).toEqual(["f"]);
  expect(screen.queryByTestId("inbox-panel")).toBeNull();
});

test("a on an approval of the task shown approves it; of another task, opens that one first", async () => {
  const s = setup([item({ task_id: "a", kind: "approval" }), item({ task_id: "b", task_name: "docs", kind: "approval", at: 5 })], "a");
  await waitFor(() => expect(screen.getByTestId("inbox-count")).toHaveTextContent("2"));
  await userEvent.click(screen.getByRole("button", { name: "Inbox" }));
  await userEvent.keyboard("a");
  expect(s.approvals()).toBe(1);
  expect(screen.getByTestId("inbox-said")).toHaveTextContent("Approved fix-login's request.");
  await userEvent.keyboard("ja");
  expect(s.approvals()).toBe(1);
  expect(s.opened).toEqual(["b"]);
  expect(screen.getByTestId("inbox-said")).toHaveTextContent("Opened docs: look at what it asks, then press a again");
});

test("a says so when there is nothing to approve, or several requests wait", async () => {
  setup([item({ task_id: "a", kind: "approval" }), item({ task_id: "r", kind: "ready", at: 9 })], "a", "several");
  await waitFor(() => expect(screen.getByTestId("inbox-count")).toHaveTextContent("2"));
  await userEvent.click(screen.getByRole("button", { name: "Inbox" }));
  await userEvent.keyboard("a");
  expect(screen.getByTestId("inbox-said")).toHaveTextContent("Several requests of fix-login wait");
  await userEvent.keyboard("ja");
  expect(screen.getByTestId("inbox-said")).toHaveTextContent("has nothing to approve");
});

test("an item of another workspace brings that workspace's window to the front", async () => {
  const s = setup([item({ task_id: "x", workspace_path: "/other/project" })]);
  await waitFor(() => expect(screen.getByTestId("inbox-count")).toHaveTextContent("1"));
  await userEvent.click(screen.getByRole("button", { name: "Inbox" }));
  expect(screen.getByRole("option")).toHaveTextContent("in project");
  await userEvent.click(screen.getByRole("option"));
  expect(s.windows).toEqual(["/other/project"]);
  expect(s.opened).toEqual([]);
});

test("Ctrl+I opens the list from anywhere, the first item chosen", async () => {
  setup([item({ task_id: "a", kind: "approval" })]);
  await waitFor(() => expect(screen.getByTestId("inbox-count")).toHaveTextContent("1"));
  await userEvent.keyboard("{Control>}i{/Control}");
  const list = screen.getByRole("listbox", { name: "What needs you" });
  expect(list).toHaveFocus();
  expect(within(list).getAllByRole("option")[0]).toHaveAttribute("aria-selected", "true");
});

test("Esc closes the list and gives the focus back to the button", async () => {
  setup([item({})]);
  await waitFor(() => expect(screen.getByTestId("inbox-count")).toHaveTextContent("1"));
  await userEvent.click(screen.getByRole("button", { name: "Inbox" }));
  await userEvent.keyboard("{Escape}");
  expect(screen.queryByTestId("inbox-panel")).toBeNull();
  expect(screen.getByRole("button", { name: "Inbox" })).toHaveFocus();
});

test("an empty inbox says nothing needs you", async () => {
  setup([]);
  await userEvent.click(screen.getByRole("button", { name: "Inbox" }));
  expect(screen.getByText("Nothing needs you now.")).toBeInTheDocument();
});
