import { render, screen, within } from "@testing-library/react";
import type { SessionSummary } from "../protocol/SessionSummary";
import { Sidebar, sessionLabels } from "./Sidebar";

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

test("branches are numbered rather than repeating their source's title", () => {
  const sessions = [
    session("s1", "Plan the work"),
    session("s3", "↳ Plan the work"),
    session("s2", "↳ Plan the work"),
    session("s4", "↳ Something not listed"),
  ];
  const labels = sessionLabels(sessions);
  expect(labels.get("s1")).toEqual({ label: "Plan the work", tip: "Plan the work", branch: false });
  expect(labels.get("s2")).toEqual({ label: "↳ Branch 1", tip: "Branch 1 of “Plan the work”", branch: true });
  expect(labels.get("s3")?.label).toBe("↳ Branch 2");
  // Its source is gone from the list: the title is all there is to say.
  expect(labels.get("s4")?.label).toBe("↳ Something not listed");
});
