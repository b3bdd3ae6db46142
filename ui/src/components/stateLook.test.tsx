import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { CallState } from "../protocol/CallState";
import type { UndoState } from "../protocol/UndoState";
import type { CallDecision } from "../protocol/CallDecision";
import type { CallView } from "../session/state";
import { callLook, lookClass } from "./stateLook";
import { ToolCard } from "./ToolCard";

let next = 0;
function call(over: Partial<CallView>): CallView {
  return {
    id: `look-${next++}`, name: "write", kind: "edit", view: { as: "file_content", path: "path", content: "content" },
    title: "hello.txt", summary: null, state: "streaming", args: { path: "hello.txt" }, preview: null, status: null,
    output: "", result: null, decision: null, isError: false, error: null, images: null, approval: null, refused: null,
    startedAt: null, endedAt: null, parentId: null, children: [], undo: null, undoRefused: null, sandbox: null,
    changes: null, hooks: [], ...over,
  };
}

const actions = { approve: vi.fn(), reject: vi.fn(), editApprove: vi.fn(), approveHunks: vi.fn() };

// Every state a card can be in: its look (the colour class on the card's edge and pill) and
// the pill's words.
const CASES: [string, { state: CallState; undo?: UndoState; result?: string; decision?: CallDecision }, string, string][] = [
  ["arguments streaming", { state: "streaming" }, "look-running", "writing…"],
  ["validating", { state: "validating" }, "look-running", "starting…"],
  ["scheduled", { state: "scheduled" }, "look-running", "starting…"],
  ["executing", { state: "executing" }, "look-running", "running"],
  ["waiting for approval", { state: "awaiting_approval" }, "look-needs-you", "needs you"],
  ["succeeded", { state: "succeeded", result: "Wrote hello.txt" }, "look-done", "done"],
  ["partly undone", { state: "succeeded", undo: "partly", result: "Wrote hello.txt" }, "look-by-you", "partly undone"],
  ["undone", { state: "succeeded", undo: "done", result: "Wrote hello.txt" }, "look-by-you", "undone"],
  ["failed", { state: "failed", result: "NOT_FOUND: x" }, "look-failed", "failed"],
  [
    "rejected by the person",
    { state: "rejected", result: "The model's words", decision: { kind: "rejected", reason: "Keep the original greeting" } },
    "look-by-you",
    "rejected",
  ],
  ["refused by a rule", { state: "rejected", result: "Refused by the approval policy: denied by the rule `write(*)`. Nothing was done." }, "look-by-you", "not allowed"],
  ["stopped", { state: "cancelled", result: "The model's words", decision: { kind: "not_run" } }, "look-by-you", "stopped"],
  ["interrupted", { state: "interrupted", result: "" }, "look-by-you", "interrupted"],
];

test.each(CASES)("%s: the card's edge and pill have one look and words", (_, over, cls, words) => {
  render(<ToolCard call={call(over)} actions={actions} />);
  const card = screen.getByTestId("tool-card");
  expect(card).toHaveClass(cls);
  // No other look on the same card.
  expect([...card.classList].filter((c) => c.startsWith("look-"))).toEqual([cls]);
  expect(screen.getByTestId("tool-state")).toHaveTextContent(words);
});

test("every state maps to exactly one of the five looks", () => {
  const looks = new Set(CASES.map(([, over]) => lookClass(callLook(over).look)));
  expect([...looks].sort()).toEqual(["look-by-you", "look-done", "look-failed", "look-needs-you", "look-running"]);
});

test("a rejection is grey and neutral: the person's note, no red error, the agent's text behind a toggle", async () => {
  const result = "The user rejected this change: Keep the original greeting. The file was not modified.";
  const decision: CallDecision = { kind: "rejected", reason: "Keep the original greeting" };
  render(<ToolCard call={call({ state: "rejected", result, decision, isError: true })} actions={actions} />);
  // Collapsed to one line that says who decided and why.
  expect(screen.getByTestId("tool-card")).toHaveClass("collapsed");
  expect(screen.getByText("Rejected by you: Keep the original greeting")).toBeInTheDocument();
  await userEvent.click(screen.getByRole("button", { name: "Expand" }));
  expect(screen.queryByText("Error")).not.toBeInTheDocument();
  expect(document.querySelector(".result-error")).toBeNull();
  const told = screen.getByTestId("agent-told");
  expect(told).not.toHaveAttribute("open");
  expect(told).toHaveTextContent("What the agent was told");
  expect(told).toHaveTextContent(result);
});

test("the words come from the engine's decision, never from the model's text", () => {
  // A rejection without a note, whatever the model was told.
  const { unmount } = render(
    <ToolCard call={call({ state: "rejected", result: "anything", decision: { kind: "rejected", reason: null }, isError: true })} actions={actions} />,
  );
  expect(screen.getByText("Rejected by you")).toBeInTheDocument();
  unmount();
  // Text that reads like a rejection, without the decision: the policy refused it.
  render(
    <ToolCard
      call={call({ state: "rejected", result: "The user rejected this change: x. The file was not modified.", isError: true })}
      actions={actions}
    />,
  );
  expect(screen.getByTestId("tool-state")).toHaveTextContent("not allowed");
  expect(screen.queryByText(/Rejected by you/)).toBeNull();
});

test("a Stop before the call ran says so in the person's words", async () => {
  render(
    <ToolCard
      call={call({ state: "cancelled", result: "Cancelled by the user before this call ran; nothing was done.", decision: { kind: "not_run" }, isError: true })}
      actions={actions}
    />,
  );
  expect(screen.getByText("Stopped by you before it ran")).toBeInTheDocument();
  await userEvent.click(screen.getByRole("button", { name: "Expand" }));
  expect(screen.getByTestId("call-facts")).toHaveTextContent("Stopped by you before it ran");
  expect(document.querySelector(".result-error")).toBeNull();
});

test("an edit before approving and a change approved in part are said for the person", () => {
  const edited =
    "The user edited your change before applying it; notes.txt now has the user's version. What the user changed relative to your proposal:\n--- proposed/notes.txt\n+++ written/notes.txt\n@@ -1 +1 @@\n-a\n+b\n";
  const { unmount } = render(
    <ToolCard call={call({ state: "succeeded", result: edited, decision: { kind: "edited", lines: 1 } })} actions={actions} latest />,
  );
  expect(screen.getByTestId("call-facts")).toHaveTextContent("You edited this before approving · 1 line differs");
  expect(screen.getByTestId("agent-told")).toHaveTextContent("--- proposed/notes.txt");
  unmount();
  render(
    <ToolCard
      call={call({ state: "succeeded", result: "The user applied only part of your change…", decision: { kind: "parts", written: 2, total: 3 } })}
      actions={actions}
      latest
    />,
  );
  expect(screen.getByTestId("call-facts")).toHaveTextContent("You approved 2 of 3 parts");
});

test("a write that took no time shows no duration; a long command does", () => {
  const { unmount } = render(
    <ToolCard call={call({ state: "succeeded", result: "Wrote hello.txt", startedAt: 1000, endedAt: 1000 })} actions={actions} />,
  );
  expect(screen.getByTestId("tool-state")).toHaveTextContent(/^done$/);
  unmount();
  render(
    <ToolCard
      call={call({ name: "bash", kind: "execute", view: { as: "command", command: "command" }, state: "succeeded", args: { command: "make" }, result: "ok", startedAt: 0, endedAt: 12_000 })}
      actions={actions}
    />,
  );
  expect(screen.getByTestId("tool-state")).toHaveTextContent("done · 12.0 s");
});

test("a finished read is one line, and its arguments are not repeated under a title naming them", async () => {
  render(
    <ToolCard
      call={call({ name: "read", kind: "read", view: { as: "json" }, title: "src/a.rs", summary: "Read src/a.rs (1 line)", state: "succeeded", args: { path: "src/a.rs" }, result: "1\tfn main() {}" })}
      actions={actions}
    />,
  );
  expect(screen.getByTestId("tool-card")).toHaveClass("collapsed");
  await userEvent.click(screen.getByRole("button", { name: "Expand" }));
  expect(screen.getByText(/fn main/)).toBeInTheDocument();
  expect(document.querySelector(".tool-args")).toBeNull();
});

test("the approval bar's words come from the call: a file's path; a command, shown above, not again", async () => {
  const { approvalWhat } = await import("./approvalWhat");
  expect(
    approvalWhat({
      name: "write", kind: "edit", title: "hello.txt", view: { as: "file_content", path: "path", content: "content" }, args: {},
      preview: { path: "hello.txt", created: true, lines_added: 60, lines_removed: 0, diff: null },
    }),
  ).toEqual({ words: "Write hello.txt", added: 60, removed: 0 });
  expect(
    approvalWhat({
      name: "bash", kind: "execute", title: "Run the tests", view: { as: "command", command: "command" },
      args: { command: "cargo test\necho done" }, preview: null,
    }),
  ).toEqual({ words: "Run this command", added: null, removed: null });
  expect(
    approvalWhat({ name: "everything__add", kind: "other", title: "", view: { as: "json" }, args: { a: 1, b: 2 }, preview: null }),
  ).toEqual({ words: "Use add · everything", added: null, removed: null });
});

test("a call the session's end interrupted says so, with no empty toggle", async () => {
  render(<ToolCard call={call({ state: "interrupted", result: "" })} actions={actions} />);
  await userEvent.click(screen.getByRole("button", { name: "Expand" }));
  expect(screen.getByTestId("call-facts")).toHaveTextContent("The session closed while it ran");
  expect(screen.queryByTestId("agent-told")).toBeNull();
});
