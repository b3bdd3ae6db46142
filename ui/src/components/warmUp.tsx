// The warm-up: the parts a session's first turn draws (messages, a streaming write, a diff with
// its approval bar, a command's output) are drawn once, out of sight, while the page is idle
// after a workspace opens, and removed. WebKitGTK looks each font description (family, size,
// weight, style) up in fontconfig the first time it lays text out in it, about 4.5 ms each, and
// the JavaScript engine compiles a component the first time it renders; a first turn met all of
// that in the frame in which it started (the page's own work came to 32-40 ms in the 1 MiB
// perf test, docs/MEASUREMENTS.md). Each part is drawn in its own idle slot, and the warm-up
// stops as soon as the conversation shows anything (then the real entries have done it).
import { flushSync } from "react-dom";
import { createRoot } from "react-dom/client";
import type { ReactNode } from "react";
import { newCall, type CallView, type Item } from "../session/state";
import type { FileDiff } from "../protocol/FileDiff";
import { Entry } from "./Entry";
import type { CardActions } from "./ToolCard";

/**
 * Wait after a workspace opens before the first part: its own first frame comes first, and the
 * parts are done a fraction of a second later, before a user has typed a prompt (in the
 * performance test, WebDriver sends one 300 ms after the workspace opens).
 */
export const WARM_UP_DELAY_MS = 50;

const NO_ACTIONS: CardActions = { approve() {}, reject() {}, editApprove() {}, approveHunks() {} };
const noLink = () => {};

function call(id: string, name: string, fields: Partial<CallView>): CallView {
  return { ...newCall(id, name, "succeeded", null), ...fields };
}

const DIFF: FileDiff = {
  path: "src/greeting.rs",
  kind: "modify",
  added: 2,
  removed: 1,
  omitted_hunks: 0,
  approximate: false,
  lines_left_out: 0,
  hunks: [
    {
      old_start: 1,
      old_lines: 3,
      new_start: 1,
      new_lines: 4,
      lines: [
        { tag: "context", old_line: 1, new_line: 1, spans: [{ text: "fn main() {", changed: false }] },
        { tag: "removed", old_line: 2, new_line: null, spans: [{ text: '    println!("', changed: false }, { text: "hello", changed: true }, { text: '");', changed: false }] },
        { tag: "added", old_line: null, new_line: 2, spans: [{ text: '    println!("', changed: false }, { text: "hello, world", changed: true }, { text: '");', changed: false }] },
        { tag: "added", old_line: null, new_line: 3, spans: [{ text: "    // done", changed: false }] },
        { tag: "context", old_line: 3, new_line: 4, spans: [{ text: "}", changed: false }] },
      ],
    },
  ],
};

const CONTENT = 'fn main() {\n    println!("hello, world");\n    // done\n}\n';

/** How the engine announces a `write` call's card. */
const FILE_WRITE: Partial<CallView> = {
  kind: "edit",
  view: { as: "file_content", path: "path", content: "content" },
  title: "src/greeting.rs",
};

/** The parts, each one entry as the conversation draws it. */
const PARTS: { item: Item; call?: CallView }[] = [
  { item: { kind: "user", id: 1, text: "Write src/greeting.rs and run the tests" } },
  {
    item: {
      kind: "assistant",
      id: 2,
      text: "# Plan\n\nI will **change** `src/greeting.rs`, then run *the tests*:\n\n- one\n- two\n\n```rust\nfn main() {}\n```\n\nSee [the docs](https://example.com).",
    },
  },
  {
    item: { kind: "tool", id: 3, callId: "warm-write" },
    call: call("warm-write", "write", {
      ...FILE_WRITE,
      state: "streaming",
      args: { path: "src/greeting.rs", content: CONTENT },
      preview: { path: "src/greeting.rs", created: false, lines_added: 2, lines_removed: 1, diff: null },
    }),
  },
  {
    item: { kind: "tool", id: 4, callId: "warm-approve" },
    call: call("warm-approve", "write", {
      ...FILE_WRITE,
      state: "awaiting_approval",
      args: { path: "src/greeting.rs", content: CONTENT },
      preview: { path: "src/greeting.rs", created: false, lines_added: 2, lines_removed: 1, diff: DIFF },
      approval: {
        previewHash: "warm-up",
        reason: "writes a file",
        preview: { path: "src/greeting.rs", created: false, lines_added: 2, lines_removed: 1, diff: DIFF },
        suggestedRule: "write(src/**)",
      },
    }),
  },
  {
    item: { kind: "tool", id: 5, callId: "warm-bash" },
    call: call("warm-bash", "bash", {
      kind: "execute",
      view: { as: "command", command: "command" },
      title: "cargo test",
      args: { command: "cargo test" },
      output: "running 3 tests\ntest greets ... ok\n",
      result: "exit code 0",
      status: "exit 0",
      startedAt: 1,
      endedAt: 1200,
    }),
  },
];

/** Draws `node` in a hidden box shaped like the conversation, lays it out, and removes it. */
function drawOnce(node: ReactNode) {
  const host = document.createElement("div");
  host.className = "warm-up";
  host.setAttribute("aria-hidden", "true");
  host.inert = true;
  document.body.append(host);
  const root = createRoot(host);
  try {
    flushSync(() =>
      root.render(
        <div className="conversation">
          <div className="conversation-list">
            <div className="entry">{node}</div>
          </div>
        </div>,
      ),
    );
    // Reading a size lays the text out: this is where the fonts are looked up.
    void host.offsetHeight;
  } finally {
    root.unmount();
    host.remove();
  }
}

type Later = (run: () => void) => () => void;

/** Runs `run` when the page is idle (or after a short timeout where there is no idle callback). */
const whenIdle: Later = (run) => {
  if (typeof window.requestIdleCallback === "function") {
    const handle = window.requestIdleCallback(run, { timeout: 1000 });
    return () => window.cancelIdleCallback(handle);
  }
  const handle = window.setTimeout(run, 16);
  return () => window.clearTimeout(handle);
};

/** The next part to draw; every part is drawn at most once per page. */
let next = 0;
let running = false;

/**
 * Starts the warm-up: one part per idle slot from `delayMs` on, until every part was drawn, or
 * for good as soon as `busy()` says the conversation shows something. Returns a function that
 * stops it (a later start goes on from the next part). `later` schedules a step.
 */
export function startWarmUp(busy: () => boolean, later: Later = whenIdle, delayMs = WARM_UP_DELAY_MS): () => void {
  if (running || next >= PARTS.length) return () => {};
  running = true;
  let cancel: () => void = () => {};
  const step = () => {
    if (!running) return;
    if (busy()) next = PARTS.length;
    if (next >= PARTS.length) {
      running = false;
      return;
    }
    const part = PARTS[next++]!;
    // Each as the newest entry, drawn open as a first turn shows it.
    drawOnce(<Entry item={part.item} call={part.call} calls={undefined} actions={NO_ACTIONS} onOpenLink={noLink} latest />);
    cancel = later(step);
  };
  const delay = window.setTimeout(() => {
    cancel = later(step);
  }, delayMs);
  return () => {
    running = false;
    window.clearTimeout(delay);
    cancel();
  };
}

/** For tests: the warm-up starts from its first part again. */
export function resetWarmUp() {
  next = 0;
  running = false;
}

/** How many parts the warm-up draws. */
export const WARM_UP_PARTS = PARTS.length;
