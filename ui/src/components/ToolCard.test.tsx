import { cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { CallView } from "../session/state";
import type { FileDiff } from "../protocol/FileDiff";
import { ToolCard } from "./ToolCard";

function call(over: Partial<CallView>): CallView {
  return {
    id: "c1", name: "write", kind: "edit", view: { as: "file_content", path: "path", content: "content" },
    title: null, summary: null, state: "streaming", args: null, preview: null, status: null, output: "", result: null, decision: null,
    isError: false, error: null, images: null, approval: null, refused: null, startedAt: null, endedAt: null,
    parentId: null, children: [], undo: null, undoRefused: null, sandbox: null, changes: null, hooks: [], ...over,
  };
}

const actions = { approve: vi.fn(), reject: vi.fn(), editApprove: vi.fn(), approveHunks: vi.fn() };

test("a streaming write shows its path first and the content as it grows", () => {
  const { rerender } = render(<ToolCard call={call({ args: { path: "src/a.rs" }, title: "src/a.rs" })} actions={actions} />);
  expect(screen.getByText("src/a.rs")).toBeInTheDocument();
  expect(screen.getByTestId("tool-state")).toHaveTextContent("writing…");
  rerender(<ToolCard call={call({ args: { path: "src/a.rs", content: "fn main() {\n    println!" }, title: "src/a.rs" })} actions={actions} />);
  expect(screen.getByText(/println!/)).toBeInTheDocument();
});

test("a waiting call shows the approval bar and approves with its preview hash", async () => {
  const approve = vi.fn();
  render(
    <ToolCard
      call={call({
        state: "awaiting_approval",
        args: { path: "a.txt", content: "x\n" },
        approval: { previewHash: "h42", reason: "write a.txt", preview: null, suggestedRule: null },
      })}
      actions={{ ...actions, approve }}
    />,
  );
  await userEvent.click(screen.getByTestId("approve"));
  expect(approve).toHaveBeenCalledWith("c1", "h42", { kind: "once" });
});

test("a finished command says how it went once, in its header's pill, and shows its output", () => {
  render(
    <ToolCard
      call={call({
        name: "bash", kind: "execute", view: { as: "command", command: "command" }, state: "succeeded",
        args: { command: "echo hi" }, title: "echo hi", summary: "echo hi — exit 0 in 1.5 s", output: "hi\n",
        result: "Exit code 0. Duration 1.5 s.\nhi\n", startedAt: 1000, endedAt: 2500,
      })}
      actions={actions}
      latest
    />,
  );
  // The command is the header's: not again in the body.
  expect(screen.queryByText("$ echo hi")).toBeNull();
  expect(screen.getByTestId("tool-state")).toHaveTextContent(/^exit 0 · 1\.5 s$/);
  expect(screen.getByRole("log")).toHaveTextContent("hi");
  // Nothing written for the model, and no second or third word on how it went.
  expect(screen.queryByText(/Exit code|Duration|done/)).toBeNull();
  expect(screen.getByTestId("tool-card").textContent!.match(/exit 0/g)).toHaveLength(1);
});

test("a failed call shows its error result", () => {
  render(<ToolCard call={call({ name: "read", state: "failed", args: { path: "x" }, result: "NOT_FOUND: x", isError: true })} actions={actions} />);
  expect(screen.getByText(/NOT_FOUND/)).toBeInTheDocument();
  expect(screen.getByTestId("tool-state")).toHaveTextContent("failed");
});

// The PNG signature and the start of a header, base64.
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAE=";

test("an image the tool returned shows in the card's result; an SVG does not", () => {
  render(
    <ToolCard
      call={call({
        name: "everything__get-tiny-image",
        state: "succeeded",
        args: {},
        result: "Here's the image you requested:\n[image image/png, 1 KiB]",
        images: {
          shown: [
            { mime_type: "image/png", data: PNG },
            { mime_type: "image/svg+xml", data: "PHN2Zz48c2NyaXB0Lz48L3N2Zz4=" },
          ],
          left_out: [{ reason: "too_large", count: 2 }],
        },
      })}
      actions={actions}
      latest
    />,
  );
  const images = screen.getAllByRole("img");
  expect(images).toHaveLength(1);
  expect(images[0]).toHaveAttribute("src", `data:image/png;base64,${PNG}`);
  expect(images[0]).toHaveAttribute("alt", "Image 1 of 1 returned by get-tiny-image · everything (image/png)");
  expect(images[0]!.closest(".result-view")).not.toBeNull();
  expect(document.querySelector('img[src^="data:image/svg"]')).toBeNull();
  expect(screen.getByText("2 images not shown: too large to show.")).toBeInTheDocument();
  expect(screen.getByText("1 image not shown: not a PNG, JPEG, GIF or WebP image.")).toBeInTheDocument();
});

test("a new_task card shows its sub-agent's text and calls inside it, with their approvals", async () => {
  const approve = vi.fn();
  const parent = call({
    id: "t1", name: "new_task", kind: "delegate", view: { as: "json" }, title: "copy the notes", state: "executing",
    args: { description: "copy the notes", prompt: "p" },
    children: [
      { kind: "assistant", id: 1, text: "Copying." },
      { kind: "tool", id: 2, callId: "c2" },
    ],
  });
  const child = call({
    id: "c2", name: "write", state: "awaiting_approval", args: { path: "copy.txt", content: "x\n" }, parentId: "t1",
    approval: { previewHash: "h7", reason: "ask mode asks", preview: null, suggestedRule: null },
  });
  render(<ToolCard call={parent} calls={{ t1: parent, c2: child }} actions={{ ...actions, approve }} />);
  expect(screen.getByText("copy the notes")).toBeInTheDocument();
  const nested = screen.getByTestId("subtask");
  expect(nested).toHaveTextContent("Copying.");
  expect(nested.querySelector('[data-tool="write"]')).not.toBeNull();
  await userEvent.click(screen.getByTestId("approve"));
  expect(approve).toHaveBeenCalledWith("c2", "h7", { kind: "once" });
});

test("a file change can be undone after a confirmation; an undone one says so", async () => {
  const undo = vi.fn();
  const done = call({ state: "succeeded", args: { path: "notes.txt", content: "x\n" }, result: "Wrote notes.txt", undo: "available" });
  const { rerender } = render(<ToolCard call={done} actions={{ ...actions, undo }} latest />);
  await userEvent.click(screen.getByTestId("undo-change"));
  expect(screen.getByText(/Put notes.txt back as it was before this change\?/)).toBeInTheDocument();
  // Keeping it asks again next time.
  await userEvent.click(screen.getByRole("button", { name: "Keep it" }));
  expect(undo).not.toHaveBeenCalled();
  await userEvent.click(screen.getByTestId("undo-change"));
  await userEvent.click(screen.getByTestId("confirm-undo"));
  expect(undo).toHaveBeenCalledWith("c1");
  rerender(<ToolCard call={{ ...done, undoRefused: "notes.txt changed after this change was made; undoing it would lose those changes." }} actions={{ ...actions, undo }} latest />);
  expect(screen.getByRole("alert")).toHaveTextContent("notes.txt changed after this change was made");
  rerender(<ToolCard call={{ ...done, id: "c1-undone", undo: "done" }} actions={{ ...actions, undo }} latest />);
  // Undone by the person: grey, one line, which opens to say what became of the file.
  expect(screen.getByTestId("tool-state")).toHaveTextContent("undone");
  expect(screen.getByTestId("tool-card")).toHaveClass("look-by-you", "collapsed");
  await userEvent.click(screen.getByRole("button", { name: "Expand" }));
  expect(screen.getByTestId("undo-done")).toHaveTextContent("Undone: notes.txt is as it was before this change.");
  expect(screen.queryByTestId("undo-change")).toBeNull();
});

test("a call that changed no file offers no undo", () => {
  render(<ToolCard call={call({ name: "read", state: "succeeded", args: { path: "a.txt" }, result: "1\tx" })} actions={actions} />);
  expect(screen.queryByTestId("undo-bar")).toBeNull();
});

test("an expired undo says why, and a session that is not running cannot undo", () => {
  const done = call({ state: "succeeded", args: { path: "log.txt", content: "x\n" }, result: "Wrote log.txt" });
  const { rerender } = render(<ToolCard call={{ ...done, undo: "expired" }} actions={{ ...actions, undo: vi.fn() }} latest />);
  expect(screen.getByTestId("undo-expired")).toHaveTextContent("only the 10 latest changes to a file are kept");
  rerender(<ToolCard call={{ ...done, undo: "available" }} actions={actions} latest />);
  expect(screen.getByTestId("undo-change")).toBeDisabled();
});

/** A diff of `hunks` one-line replacements, far enough apart to be hunks of their own. */
function diffOf(hunks: number): FileDiff {
  return {
    path: "a.txt", kind: "modify", added: hunks, removed: hunks, omitted_hunks: 0, approximate: false,
    lines_left_out: 0,
    hunks: Array.from({ length: hunks }, (_, i) => ({
      old_start: 10 * i + 1, old_lines: 1, new_start: 10 * i + 1, new_lines: 1,
      lines: [
        { tag: "removed" as const, old_line: 10 * i + 1, new_line: null, spans: [{ text: `old ${i}`, changed: true }] },
        { tag: "added" as const, old_line: null, new_line: 10 * i + 1, spans: [{ text: `new ${i}`, changed: true }] },
      ],
    })),
  };
}

function waiting(diff: FileDiff, id = "c1"): CallView {
  return call({
    id,
    name: "edit",
    state: "awaiting_approval",
    args: { path: "a.txt" },
    preview: { path: "a.txt", created: false, lines_added: diff.added, lines_removed: diff.removed, diff },
    approval: { previewHash: `hash-${id}`, reason: "edit a.txt", preview: null, suggestedRule: null },
  });
}

test("unticking hunks approves only the ticked ones; unticking all leaves only reject", async () => {
  const approve = vi.fn();
  const approveHunks = vi.fn();
  render(<ToolCard call={waiting(diffOf(3), "pick")} actions={{ ...actions, approve, approveHunks }} />);
  const boxes = screen.getAllByTestId("hunk-choice");
  expect(boxes).toHaveLength(3);
  expect(screen.getByTestId("approve")).toHaveTextContent(/^Approve$/);

  await userEvent.click(boxes[1]!);
  expect(boxes[1]).not.toBeChecked();
  expect(screen.getByText(/left out/)).toBeInTheDocument();
  expect(screen.getByTestId("approve")).toHaveTextContent("Approve 2 of 3 parts");
  // Whole-change actions would write what was unticked.
  expect(screen.getByTestId("always")).toBeDisabled();

  await userEvent.click(screen.getByTestId("untick-all"));
  expect(screen.getByTestId("approve")).toBeDisabled();
  expect(screen.getByTestId("untick-all")).toBeDisabled();
  await userEvent.click(screen.getByTestId("tick-all"));
  expect(screen.getByTestId("approve")).toHaveTextContent(/^Approve$/);
  await userEvent.click(screen.getByTestId("untick-all"));
  await userEvent.click(boxes[2]!);
  await userEvent.click(screen.getByTestId("approve"));
  expect(approveHunks).toHaveBeenCalledWith("pick", "hash-pick", [2]);
  expect(approve).not.toHaveBeenCalled();
});

test("a diff of one hunk, a new file or a diff held in part offers no choice", () => {
  const one = render(<ToolCard call={waiting(diffOf(1), "one")} actions={actions} />);
  expect(screen.queryByTestId("hunk-choice")).toBeNull();
  one.unmount();
  const cut = render(<ToolCard call={waiting({ ...diffOf(3), lines_left_out: 40 }, "cut")} actions={actions} />);
  expect(screen.queryByTestId("hunk-choice")).toBeNull();
  cut.unmount();
  render(<ToolCard call={waiting({ ...diffOf(2), kind: "create" }, "new")} actions={actions} />);
  expect(screen.queryByTestId("hunk-choice")).toBeNull();
});

test("a hunk unticked in the rule or edit form keeps them from writing everything; the choice lasts until the call stops waiting", async () => {
  const approveHunks = vi.fn();
  const first = waiting(diffOf(2), "keep");
  const { rerender } = render(<ToolCard call={first} actions={{ ...actions, approveHunks }} />);
  await userEvent.click(screen.getByTestId("always"));
  await userEvent.click(screen.getAllByTestId("hunk-choice")[0]!);
  expect(screen.getByTestId("confirm-always")).toBeDisabled();
  await userEvent.click(screen.getByRole("button", { name: "Back" }));
  await userEvent.click(screen.getByTestId("approve"));
  expect(approveHunks).toHaveBeenCalledWith("keep", "hash-keep", [1]);
  // The engine refused the answer (the call still waits): the choice is still shown.
  rerender(<ToolCard call={{ ...first }} actions={{ ...actions, approveHunks }} />);
  expect(screen.getAllByTestId("hunk-choice")[0]).not.toBeChecked();
  // Once the call no longer waits, the choice is gone: the same request again starts ticked.
  rerender(<ToolCard call={{ ...first, state: "succeeded", approval: null }} actions={actions} />);
  rerender(<ToolCard call={first} actions={actions} />);
  expect(screen.getAllByTestId("hunk-choice")[0]).toBeChecked();
});

test("a change that went through undoes one hunk after a confirmation; one hunk or a new file does not offer it", async () => {
  const undoHunk = vi.fn();
  const done = (diff: FileDiff, created = false): CallView =>
    call({
      id: "u1",
      name: "edit",
      state: "succeeded",
      args: { path: "a.txt" },
      result: "Edited a.txt",
      undo: "available",
      preview: { path: "a.txt", created, lines_added: diff.added, lines_removed: diff.removed, diff },
    });
  const { rerender } = render(<ToolCard call={done(diffOf(3))} actions={{ ...actions, undoHunk }} latest />);
  const buttons = screen.getAllByTestId("undo-hunk");
  expect(buttons).toHaveLength(3);
  await userEvent.click(buttons[1]!);
  expect(undoHunk).not.toHaveBeenCalled();
  await userEvent.click(screen.getByTestId("confirm-undo-hunk"));
  // The hunk is named as shown: its place and its lines.
  expect(undoHunk).toHaveBeenCalledWith("u1", {
    old_start: 11, old_lines: 1, new_start: 11, new_lines: 1, lines: "-old 1\n+new 1\n",
  });
  expect(screen.queryByTestId("undo-partly")).toBeNull();
  // Once part of it was undone the card says so, and the rest still undoes, hunk by hunk or whole.
  rerender(<ToolCard call={{ ...done(diffOf(2)), undo: "partly" }} actions={{ ...actions, undoHunk }} latest />);
  expect(screen.getByTestId("undo-partly")).toHaveTextContent("Part of this change was undone");
  expect(screen.getAllByTestId("undo-hunk")).toHaveLength(2);
  expect(screen.getByTestId("undo-change")).toHaveTextContent("Undo this change");
  rerender(<ToolCard call={done(diffOf(1))} actions={{ ...actions, undoHunk }} latest />);
  expect(screen.queryByTestId("undo-hunk")).toBeNull();
  rerender(<ToolCard call={{ ...done(diffOf(3)), undo: "done" }} actions={{ ...actions, undoHunk }} latest />);
  expect(screen.queryByTestId("undo-hunk")).toBeNull();
  rerender(<ToolCard call={done(diffOf(3), true)} actions={{ ...actions, undoHunk }} latest />);
  expect(screen.queryByTestId("undo-hunk")).toBeNull();
});

describe("a finished card folds to its header line", () => {
  const write = (over: Partial<CallView> = {}) =>
    call({
      id: `fold-write-${Math.random()}`, state: "succeeded", title: "hello.txt", summary: "Wrote hello.txt (+3 −1)",
      args: { path: "hello.txt", content: "a\n" }, result: "Wrote hello.txt", undo: "available",
      preview: { path: "hello.txt", created: false, lines_added: 3, lines_removed: 1, diff: diffOf(1) }, ...over,
    });
  const bash = (over: Partial<CallView> = {}) =>
    call({
      id: `fold-bash-${Math.random()}`, name: "bash", kind: "execute", view: { as: "command", command: "command" },
      title: "cargo test", summary: "cargo test — exit 0 in 1.2 s", state: "succeeded", args: { command: "cargo test" },
      output: "running 3 tests\n", result: "running 3 tests\nExit code 0.", ...over,
    });

  test("an approved write and a finished command stay open while newest, then fold to one line that opens", async () => {
    const done = write();
    const { rerender } = render(<ToolCard call={done} actions={actions} latest />);
    expect(screen.getByTestId("tool-card")).not.toHaveClass("collapsed");
    expect(screen.getAllByTestId("undo-change")).toHaveLength(1);
    // Something came after it: one line that says what it did.
    rerender(<ToolCard call={done} actions={actions} />);
    const card = screen.getByTestId("tool-card");
    expect(card).toHaveClass("collapsed", "look-done");
    expect(card.querySelector(".tool-body")).toBeNull();
    expect(card).toHaveTextContent("Wrote hello.txt (+3 −1)");
    expect(screen.getByTestId("tool-state")).toHaveTextContent("done");
    await userEvent.click(screen.getByRole("button", { name: "Expand" }));
    expect(screen.getByTestId("undo-change")).toBeInTheDocument();
    // The person's choice lasts.
    rerender(<ToolCard call={{ ...done, undoRefused: null }} actions={actions} />);
    expect(screen.getByTestId("tool-card")).not.toHaveClass("collapsed");
  });

  test("a finished command folds to its command and exit, and opens to its output", async () => {
    render(<ToolCard call={bash()} actions={actions} />);
    expect(screen.getByTestId("tool-card")).toHaveClass("collapsed");
    expect(screen.getByTitle("cargo test")).toHaveTextContent(/^cargo test$/);
    expect(screen.getByTestId("tool-state")).toHaveTextContent(/^exit 0 · 1\.2 s$/);
    expect(screen.queryByText(/running 3 tests/)).toBeNull();
    await userEvent.click(screen.getByRole("button", { name: "Expand" }));
    expect(screen.getByText(/running 3 tests/)).toBeInTheDocument();
  });

  test("live cards and failures stay open; the find bar opens the card it shows", () => {
    const { unmount } = render(<ToolCard call={bash({ state: "executing", result: null })} actions={actions} />);
    expect(screen.getByTestId("tool-card")).not.toHaveClass("collapsed");
    unmount();
    const failed = bash({ state: "failed", isError: true, summary: "cargo test — exit 101 in 3.0 s", result: "Exit code 101." });
    const second = render(<ToolCard call={failed} actions={actions} />);
    expect(screen.getByTestId("tool-card")).not.toHaveClass("collapsed");
    second.unmount();
    const shown = bash();
    const { rerender } = render(<ToolCard call={shown} actions={actions} found />);
    expect(screen.getByTestId("tool-card")).not.toHaveClass("collapsed");
    // The outline goes; the card the person asked to see stays open.
    rerender(<ToolCard call={shown} actions={actions} />);
    expect(screen.getByTestId("tool-card")).not.toHaveClass("collapsed");
  });

  test("a read folds at once, even as the newest entry", () => {
    render(
      <ToolCard
        call={call({ name: "read", kind: "read", view: { as: "json" }, state: "succeeded", summary: "Read a.rs (1 line)", args: { path: "a.rs" }, result: "1\tx" })}
        actions={actions}
        latest
      />,
    );
    expect(screen.getByTestId("tool-card")).toHaveClass("collapsed");
  });

  test("a folded version of the person's says what they decided and what it changed", () => {
    render(
      <ToolCard
        call={write({ summary: null, decision: { kind: "edited", lines: 2 }, result: "The user edited your change…" })}
        actions={actions}
      />,
    );
    const card = screen.getByTestId("tool-card");
    expect(card).toHaveClass("collapsed");
    expect(card).toHaveTextContent("+3 −1");
    expect(card).toHaveTextContent("You edited this before approving · 2 lines differ");    // A rejected change was never made: its size is not given as if it were.
    cleanup();
    render(
      <ToolCard
        call={write({ state: "rejected", summary: null, decision: { kind: "rejected", reason: null }, result: "…", isError: true })}
        actions={actions}
      />,
    );
    expect(screen.getByTestId("tool-card")).toHaveTextContent("Rejected by you");
    expect(screen.getByTestId("tool-card")).not.toHaveTextContent("+3 −1");
  });
});

test("a call refused by a hook says so folded and open, with the hook's line", async () => {
  const block = {
    event: "PreToolUse", command: 'python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/block_rm.py', source: ".claude/settings.json",
    elapsed_ms: 42, verdict: "blocked", message: "rm -rf is not allowed here",
  } as const;
  render(
    <ToolCard
      call={call({
        name: "bash", kind: "execute", view: { as: "command", command: "command" }, title: "rm -rf build",
        args: { command: "rm -rf build" }, state: "rejected", isError: true,
        result: "A PreToolUse hook blocked this call: rm -rf is not allowed here", hooks: [block],
      })}
      actions={actions}
    />,
  );
  expect(screen.getByTestId("tool-state")).toHaveTextContent("blocked by a hook");
  expect(screen.getByText("Blocked by a hook: rm -rf is not allowed here")).toBeInTheDocument();
  await userEvent.click(screen.getByRole("button", { name: "Expand" }));
  expect(screen.getByTestId("call-facts")).toHaveTextContent("Blocked by a hook: rm -rf is not allowed here");
  const line = screen.getByTestId("hook-line");
  expect(line).toHaveTextContent("PreToolUse");
  expect(line).toHaveTextContent("python3 …/block_rm.py");
  expect(line).toHaveTextContent("blocked · 42 ms");
  // Its reason is said once, in the card's facts.
  expect(line).not.toHaveTextContent("rm -rf is not allowed here");
  expect(line.querySelector(".hook-command")).toHaveAttribute("title", expect.stringContaining(".claude/settings.json"));
});

test("a call that went through lists the hooks that ran for it, without changing its look", () => {
  render(
    <ToolCard
      call={call({
        state: "succeeded", result: "wrote a.txt",
        hooks: [{ event: "PostToolUse", command: "npx prettier --write", source: "~/.claude/settings.json", elapsed_ms: 1200, verdict: "failed", message: "prettier: not found" }],
      })}
      actions={actions}
      latest
    />,
  );
  expect(screen.getByTestId("tool-state")).toHaveTextContent("done");
  expect(screen.getByTestId("hook-line")).toHaveTextContent("PostToolUse npx prettier --write failed · 1.2 s: prettier: not found");
});
