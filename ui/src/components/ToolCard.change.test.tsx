// A card shows a change as it stands on disk (session/changeLook.ts): applied, partly undone,
// undone or rewound.
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { FileDiff } from "../protocol/FileDiff";
import type { CallView } from "../session/state";
import { newCall } from "../session/state";
import { ToolCard } from "./ToolCard";

const actions = { approve: vi.fn(), reject: vi.fn(), editApprove: vi.fn(), approveHunks: vi.fn(), undo: vi.fn(), undoHunk: vi.fn() };

const created: FileDiff = {
  path: "notes.txt", kind: "create", added: 2, removed: 0, omitted_hunks: 0, approximate: false, lines_left_out: 0,
  hunks: [
    {
      old_start: 0, old_lines: 0, new_start: 1, new_lines: 2,
      lines: [
        { tag: "added", old_line: null, new_line: 1, spans: [{ text: "one", changed: true }] },
        { tag: "added", old_line: null, new_line: 2, spans: [{ text: "two", changed: true }] },
      ],
    },
  ],
};

function write(over: Partial<CallView>): CallView {
  return {
    ...newCall(`w-${Math.random()}`, "write", "succeeded", null, "edit", { as: "file_content", path: "path", content: "content" }),
    title: "notes.txt", summary: "Wrote notes.txt (+2)", args: { path: "notes.txt", content: "one\ntwo\n" }, result: "Wrote notes.txt",
    undo: "available", preview: { path: "notes.txt", created: true, lines_added: 2, lines_removed: 0, diff: created },
    ...over,
  };
}

async function open() {
  const toggle = screen.getByRole("button", { name: /Expand|Collapse/ });
  if (toggle.getAttribute("aria-expanded") === "false") await userEvent.click(toggle);
}

test("applied: a green pill, the diff in colour, a new file called new", async () => {
  render(<ToolCard call={write({})} actions={actions} latest />);
  expect(screen.getByTestId("tool-card")).toHaveAttribute("data-disk", "applied");
  expect(screen.getByTestId("tool-state")).toHaveTextContent("done");
  expect(screen.getByTestId("tool-card")).toHaveClass("look-done");
  expect(screen.getByRole("region", { name: "Diff of notes.txt" })).not.toHaveClass("diff-faded");
  expect(screen.getByText("new file")).toBeInTheDocument();
});

test("undone: a neutral Undone pill, the diff faded and struck, no longer a new file", async () => {
  render(<ToolCard call={write({ undo: "done" })} actions={actions} latest />);
  await open();
  const card = screen.getByTestId("tool-card");
  expect(card).toHaveClass("look-by-you", "change-faded");
  expect(card).not.toHaveClass("look-done");
  expect(screen.getByTestId("tool-state")).toHaveTextContent("undone");
  const diff = screen.getByRole("region", { name: "Diff of notes.txt, undone" });
  expect(diff).toHaveClass("diff-faded");
  expect(screen.getByTestId("diff-mark")).toHaveTextContent("Undone");
  expect(screen.queryByText("new file")).toBeNull();
  expect(screen.getByTestId("undo-done")).toHaveTextContent("Undone: notes.txt, which this change created, is removed.");
});

test("partly undone: not the green of done, what is left in colour, still open while newest", () => {
  const diff = { ...created, kind: "modify" as const };
  render(<ToolCard call={write({ undo: "partly", preview: { path: "notes.txt", created: false, lines_added: 2, lines_removed: 0, diff } })} actions={actions} latest />);
  const card = screen.getByTestId("tool-card");
  expect(card).not.toHaveClass("collapsed");
  expect(card).toHaveClass("look-by-you");
  expect(card).toHaveAttribute("data-disk", "partly-undone");
  expect(screen.getByTestId("tool-state")).toHaveTextContent("partly undone");
  expect(screen.getByRole("region", { name: "Diff of notes.txt, partly undone" })).not.toHaveClass("diff-faded");
  expect(screen.getByTestId("diff-mark")).toHaveTextContent("Partly undone");
});

test("rewound: no green done, the diff faded under a Rewound mark, nothing left to undo", async () => {
  render(<ToolCard call={write({})} actions={actions} latest rewound />);
  await open();
  const card = screen.getByTestId("tool-card");
  expect(card).toHaveAttribute("data-disk", "rewound");
  expect(card).toHaveClass("look-by-you");
  expect(screen.getByTestId("tool-state")).toHaveTextContent("rewound");
  expect(screen.getByRole("region", { name: "Diff of notes.txt, rewound" })).toHaveClass("diff-faded");
  expect(screen.getByTestId("diff-mark")).toHaveTextContent("Rewound");
  expect(screen.queryByTestId("undo-change")).toBeNull();
  expect(screen.getByTestId("undo-rewound")).toHaveTextContent("Rewound: the workspace went back to before this change.");
});

test("a command's changes, rewound: the pill and the list say so; an undone rewind brings them back", async () => {
  const command: CallView = {
    ...newCall("b1", "bash", "succeeded", null, "execute", { as: "command", command: "command" }),
    args: { command: "touch a.txt" }, title: "touch a.txt", summary: "touch a.txt — exit 0 in 0.1 s", result: "Exit code 0. Duration 0.1 s.\n(no output)\n",
    changes: [{ path: "a.txt", kind: "added", diff: null }],
  };
  const { rerender } = render(<ToolCard call={command} actions={actions} latest rewound />);
  await open();
  expect(screen.getByTestId("tool-state")).toHaveTextContent(/^rewound$/);
  // How it ran is still said, beside the command.
  expect(screen.getByTestId("call-changes")).toHaveClass("change-faded");
  expect(screen.getByTestId("call-changes")).toHaveTextContent("Rewound");
  rerender(<ToolCard call={command} actions={actions} latest />);
  expect(screen.getByTestId("tool-state")).toHaveTextContent(/^exit 0 · 0\.1 s$/);
  expect(screen.getByTestId("call-changes")).not.toHaveClass("change-faded");
});

test("a read is not a change: rewound, it keeps its look", () => {
  const read: CallView = {
    ...newCall("r1", "read", "succeeded", null, "read"),
    args: { path: "a.rs" }, title: "a.rs", summary: "Read a.rs (1 line)", result: "1\tx",
  };
  render(<ToolCard call={read} actions={actions} rewound />);
  expect(screen.getByTestId("tool-state")).toHaveTextContent("done");
  expect(screen.getByTestId("tool-card")).not.toHaveAttribute("data-disk");
});
