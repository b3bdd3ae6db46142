import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { newCall, type CallView, type Item } from "../session/state";
import { Conversation } from "./Conversation";
import { entryAt, layoutOffsets, visibleRange } from "./virtualList";

const actions = { approve: vi.fn(), reject: vi.fn(), editApprove: vi.fn(), approveHunks: vi.fn() };

function messages(n: number): Item[] {
  return Array.from({ length: n }, (_, i) => ({ kind: "user", id: i + 1, text: `message ${i}` }));
}

test("offsets and ranges of a virtual list", () => {
  const offsets = layoutOffsets(4, (i) => [10, 20, 30, 40][i]!);
  expect(Array.from(offsets)).toEqual([0, 10, 30, 60, 100]);
  expect(entryAt(offsets, 0)).toBe(0);
  expect(entryAt(offsets, 10)).toBe(1);
  expect(entryAt(offsets, 99)).toBe(3);
  expect(entryAt(offsets, 100)).toBe(4);
  expect(visibleRange(offsets, 15, 35)).toEqual([1, 3]);
  expect(visibleRange(offsets, 500, 600)).toEqual([3, 4]);
  expect(visibleRange(layoutOffsets(0, () => 1), 0, 10)).toEqual([0, 0]);
});

/**
 * A layout for jsdom (which has none): the conversation is `VIEW` px tall, every entry has the
 * height in `sizes` (by item id) or `ROW`, and scrolling is clamped like a browser's.
 */
const VIEW = 500;
const ROW = 58; // the estimate of a user message, so entries never rendered are this tall too
const sizes = new Map<number, number>();
const saved: [object, string, PropertyDescriptor | undefined][] = [];
function stub(proto: object, name: string, desc: PropertyDescriptor) {
  saved.push([proto, name, Object.getOwnPropertyDescriptor(proto, name)]);
  Object.defineProperty(proto, name, { configurable: true, ...desc });
}
const isConversation = (el: Element) => el.getAttribute("data-testid") === "conversation";
function entryHeight(el: Element): number {
  if (el.classList.contains("entry-gap")) return parseFloat((el as HTMLElement).style.height);
  return sizes.get(Number(el.getAttribute("data-entry"))) ?? ROW;
}
function contentHeight(el: Element): number {
  const list = el.firstElementChild as HTMLElement;
  const pad = parseFloat(list.style.paddingTop) + parseFloat(list.style.paddingBottom);
  return pad + Array.from(list.children).reduce((n, c) => n + entryHeight(c), 0);
}
const tops = new WeakMap<Element, number>();

beforeEach(() => {
  sizes.clear();
  stub(HTMLElement.prototype, "clientHeight", {
    get(this: HTMLElement) {
      return isConversation(this) ? VIEW : 0;
    },
  });
  stub(Element.prototype, "scrollHeight", {
    get(this: HTMLElement) {
      return isConversation(this) ? contentHeight(this) : 0;
    },
  });
  stub(Element.prototype, "scrollTop", {
    get(this: HTMLElement) {
      return tops.get(this) ?? 0;
    },
    set(this: HTMLElement, v: number) {
      const max = isConversation(this) ? Math.max(0, contentHeight(this) - VIEW) : 0;
      tops.set(this, Math.min(max, Math.max(0, v)));
    },
  });
  stub(Element.prototype, "getBoundingClientRect", {
    value(this: Element) {
      const h = this.hasAttribute("data-entry") ? entryHeight(this) : 0;
      return { x: 0, y: 0, top: 0, left: 0, width: 800, height: h, right: 800, bottom: h, toJSON() {} };
    },
  });
});

afterEach(() => {
  for (const [proto, name, desc] of saved.reverse()) {
    if (desc) Object.defineProperty(proto, name, desc);
    else delete (proto as Record<string, unknown>)[name];
  }
  saved.length = 0;
});

function conversation(): HTMLElement {
  return screen.getByTestId("conversation");
}

function scrollTo(top: number) {
  const el = conversation();
  act(() => {
    el.scrollTop = top;
    fireEvent.scroll(el);
  });
}

test("a long session renders only the entries near the view, starting at the latest", () => {
  render(<Conversation items={messages(2000)} calls={{}} actions={actions} onOpenLink={() => {}} />);
  const shown = screen.getAllByTestId("user-message");
  expect(shown.length).toBeLessThan(60);
  expect(screen.getByText("message 1999")).toBeInTheDocument();
  expect(screen.queryByText("message 0")).toBeNull();
  // The padding stands in for the rest: the full height is there to scroll.
  const el = conversation();
  expect(el.scrollHeight).toBe(16 + 2000 * ROW + 12);
  expect(el.scrollTop).toBe(el.scrollHeight - VIEW);
});

test("scrolling to the top renders the first entries and drops the last", () => {
  render(<Conversation items={messages(2000)} calls={{}} actions={actions} onOpenLink={() => {}} />);
  scrollTo(0);
  expect(screen.getByText("message 0")).toBeInTheDocument();
  expect(screen.queryByText("message 1999")).toBeNull();
  scrollTo(1000 * ROW);
  expect(screen.getByText("message 1000")).toBeInTheDocument();
  expect(screen.queryByText("message 0")).toBeNull();
});

test("follows new output at the bottom, and stays put when scrolled up", () => {
  const { rerender } = render(<Conversation items={messages(300)} calls={{}} actions={actions} onOpenLink={() => {}} />);
  const el = conversation();
  rerender(<Conversation items={messages(301)} calls={{}} actions={actions} onOpenLink={() => {}} />);
  expect(screen.getByText("message 300")).toBeInTheDocument();
  expect(el.scrollTop).toBe(el.scrollHeight - VIEW);
  scrollTo(100 * ROW);
  rerender(<Conversation items={messages(320)} calls={{}} actions={actions} onOpenLink={() => {}} />);
  expect(el.scrollTop).toBe(100 * ROW);
  expect(screen.getByText("message 100")).toBeInTheDocument();
  expect(screen.queryByText("message 319")).toBeNull();
  // Back at the bottom, it follows again.
  scrollTo(el.scrollHeight);
  rerender(<Conversation items={messages(321)} calls={{}} actions={actions} onOpenLink={() => {}} />);
  expect(screen.getByText("message 320")).toBeInTheDocument();
  expect(el.scrollTop).toBe(el.scrollHeight - VIEW);
});

test("an entry above the view that grows does not move the entries in view", () => {
  const { rerender } = render(<Conversation items={messages(300)} calls={{}} actions={actions} onOpenLink={() => {}} />);
  const el = conversation();
  scrollTo(16 + 100 * ROW + 10); // message 100 starts 10 px above the view's top
  const at = el.scrollTop;
  // Message 95 (rendered, in the overscan above the view) becomes 200 px taller.
  sizes.set(96, ROW + 200);
  rerender(<Conversation items={messages(300).slice()} calls={{}} actions={actions} onOpenLink={() => {}} />);
  expect(el.scrollTop).toBe(at + 200);
  expect(screen.getByText("message 100")).toBeInTheDocument();
});

/** Selects from `offset` into the text "anchor" to `focus`, as a user's drag would. */
function select(anchor: string, offset: number, focus: string, focusOffset: number) {
  const text = (t: string) => screen.getByText(t).firstChild!;
  act(() => {
    document.getSelection()!.setBaseAndExtent(text(anchor), offset, text(focus), focusOffset);
    document.dispatchEvent(new Event("selectionchange"));
  });
}

test("the entries at a selection's ends stay rendered however far the view scrolls", () => {
  render(<Conversation items={messages(2000)} calls={{}} actions={actions} onOpenLink={() => {}} />);
  scrollTo(0);
  select("message 2", 3, "message 4", 5);
  scrollTo(1000 * ROW);
  expect(screen.getByText("message 1000")).toBeInTheDocument();
  // The entry holding the selection's ends is still there, the ones between it and the view not.
  expect(screen.getByText("message 2")).toBeInTheDocument();
  expect(screen.getByText("message 4")).toBeInTheDocument();
  expect(screen.queryByText("message 500")).toBeNull();
  expect(document.getSelection()!.toString()).toContain("sage 2");
  // A gap of the entries' height stands in for those between: the view does not move.
  const el = conversation();
  expect(el.scrollTop).toBe(1000 * ROW);
  expect(el.scrollHeight).toBe(16 + 2000 * ROW + 12);
  // Without a selection, they go.
  act(() => {
    document.getSelection()!.removeAllRanges();
    document.dispatchEvent(new Event("selectionchange"));
  });
  expect(screen.queryByText("message 2")).toBeNull();
});

test("a copy renders every entry between the selection's ends for the browser to copy, then lets them go", async () => {
  render(<Conversation items={messages(2000)} calls={{}} actions={actions} onOpenLink={() => {}} />);
  scrollTo(0);
  select("message 2", 3, "message 4", 0);
  scrollTo(1000 * ROW);
  act(() => document.getSelection()!.extend(screen.getByText("message 1000").firstChild!, 7));
  act(() => {
    document.dispatchEvent(new Event("selectionchange"));
  });
  // What the browser would copy once the copy event is dispatched (its default action).
  let copied = "";
  const read = () => (copied = document.getSelection()!.toString());
  window.addEventListener("copy", read);
  try {
    act(() => {
      conversation().dispatchEvent(new Event("copy", { bubbles: true, cancelable: true }));
    });
  } finally {
    window.removeEventListener("copy", read);
  }
  for (const n of [3, 500, 999]) expect(copied).toContain(`message ${n}`);
  expect(copied.startsWith("sage 2")).toBe(true);
  expect(copied.endsWith("message")).toBe(true);
  // The view did not move, and the entries between go again afterwards.
  expect(conversation().scrollTop).toBe(1000 * ROW);
  await waitFor(() => expect(screen.queryByText("message 500")).toBeNull());
  expect(screen.getByText("message 2")).toBeInTheDocument();
});

test("under a message, the file changes made after it are undone newest first, after a confirmation", async () => {
  const undo = vi.fn();
  const call = (id: string, state: CallView["undo"]): CallView => ({ ...newCall(id, "write", "succeeded", null), undo: state });
  const items: Item[] = [
    { kind: "user", id: 1, text: "make two files" },
    { kind: "tool", id: 2, callId: "w1" },
    { kind: "tool", id: 3, callId: "w2" },
    { kind: "user", id: 4, text: "thanks" },
  ];
  const calls = { w1: call("w1", "available"), w2: call("w2", "available") };
  render(<Conversation items={items} calls={calls} actions={{ ...actions, undo }} onOpenLink={() => {}} />);
  // Only the message with changes after it offers the undo.
  expect(screen.getAllByTestId("undo-after-button")).toHaveLength(1);
  await userEvent.click(screen.getByTestId("undo-after-button"));
  expect(screen.getByTestId("undo-after")).toHaveTextContent("Undo the 2 file changes after this message?Newest first.");
  await userEvent.click(screen.getByTestId("confirm-undo-after"));
  expect(undo.mock.calls).toEqual([["w2"], ["w1"]]);
});

test("what a rewind took back is faded, its changes look rewound and are not offered for undoing", () => {
  const undo = vi.fn();
  const call = (id: string): CallView => ({ ...newCall(id, "write", "succeeded", null, "edit"), title: `${id}.txt`, undo: "available" });
  const items: Item[] = [
    { kind: "user", id: 1, text: "make one file" },
    { kind: "tool", id: 2, callId: "w1" },
    { kind: "user", id: 3, text: "make another" },
    { kind: "tool", id: 4, callId: "w2" },
    { kind: "notice", id: 5, tone: "info", text: "Rewound 1 file." },
  ];
  const calls = { w1: call("w1"), w2: call("w2") };
  const { rerender } = render(
    <Conversation items={items} calls={calls} rewinds={[{ from: 3, to: 4 }]} actions={{ ...actions, undo }} onOpenLink={() => {}} />,
  );
  const entry = (id: number) => document.querySelector(`[data-entry="${id}"]`)!;
  expect(entry(1)).not.toHaveClass("entry-rewound");
  expect(entry(3)).toHaveClass("entry-rewound");
  expect(entry(4)).toHaveClass("entry-rewound");
  expect(entry(5)).not.toHaveClass("entry-rewound");
  expect(entry(4).querySelector('[data-testid="tool-card"]')).toHaveAttribute("data-disk", "rewound");
  expect(entry(2).querySelector('[data-testid="tool-card"]')).toHaveAttribute("data-disk", "applied");
  // Only the first message's change is on disk to undo: one offer, for one change.
  expect(screen.getAllByTestId("undo-after-button")).toHaveLength(1);
  // The rewind undone: everything is back, and so are the offers.
  rerender(<Conversation items={items} calls={calls} rewinds={[]} actions={{ ...actions, undo }} onOpenLink={() => {}} />);
  expect(document.querySelector(".entry-rewound")).toBeNull();
  expect(entry(4).querySelector('[data-testid="tool-card"]')).toHaveAttribute("data-disk", "applied");
  expect(screen.getAllByTestId("undo-after-button")).toHaveLength(2);
});

test("a session that cannot undo offers no undo under its messages", () => {
  const items: Item[] = [
    { kind: "user", id: 1, text: "make a file" },
    { kind: "tool", id: 2, callId: "w1" },
  ];
  const calls = { w1: { ...newCall("w1", "write", "succeeded", null), undo: "available" as const } };
  render(<Conversation items={items} calls={calls} actions={actions} onOpenLink={() => {}} />);
  expect(screen.queryByTestId("undo-after-button")).toBeNull();
});

test("under a message, branching from it asks first and names the message by its place among the user's", async () => {
  const onBranch = vi.fn();
  const call: CallView = { ...newCall("w1", "write", "succeeded", null), undo: "available" };
  const items: Item[] = [
    { kind: "user", id: 1, text: "make a file" },
    { kind: "tool", id: 2, callId: "w1" },
    { kind: "assistant", id: 3, text: "Done." },
    { kind: "user", id: 4, text: "now test it" },
  ];
  render(
    <Conversation items={items} calls={{ w1: call }} actions={{ ...actions, undo: vi.fn() }} onOpenLink={() => {}} onBranch={onBranch} />,
  );
  const [first, second] = screen.getAllByTestId("user-message");
  expect(within(second!).getByTestId("branch-button")).toHaveTextContent("Branch from here");
  await userEvent.click(within(second!).getByTestId("branch-button"));
  const asking = within(second!).getByTestId("branch");
  // One name for the action: the button, the question and its yes all say "branch".
  expect(within(second!).queryByTestId("branch-button")).toBeNull();
  expect(asking).toHaveTextContent("Branch from this message?This session stays as it is.");
  expect(screen.getByTestId("confirm-branch")).toHaveTextContent(/^Branch$/);
  // No change after the last message, so nothing is said about files.
  expect(asking).not.toHaveTextContent("file change");
  await userEvent.click(screen.getByTestId("confirm-branch"));
  expect(onBranch.mock.calls).toEqual([[1, "now test it"]]);
  expect(within(second!).queryByTestId("branch")).toBeNull();

  await userEvent.click(within(first!).getByTestId("branch-button"));
  expect(within(first!).getByTestId("branch")).toHaveTextContent("The 1 file change after it stays on disk.");
  // While it asks, the buttons beside the message are not offered.
  expect(within(first!).queryByTestId("undo-after-button")).toBeNull();
  await userEvent.click(screen.getByRole("button", { name: "Cancel" }));
  expect(within(first!).getByTestId("undo-after-button")).toBeInTheDocument();
  expect(onBranch).toHaveBeenCalledTimes(1);
});

test("a conversation that cannot branch offers no branch", () => {
  render(<Conversation items={messages(2)} calls={{}} actions={actions} onOpenLink={() => {}} />);
  expect(screen.queryByTestId("branch-button")).toBeNull();
});

test("the entry found is brought into view a quarter down, each time it is asked for, and outlined", () => {
  const items = messages(2000);
  const props = { items, calls: {}, actions, onOpenLink: () => {} };
  const { rerender } = render(<Conversation {...props} />);
  const atBottom = conversation().scrollTop;
  const found = (reveal: number) => ({ query: "message 5", currentId: 6, reveal });
  rerender(<Conversation {...props} find={found(1)} />);
  // Entry 6 (index 5) has its top a quarter of the view below the view's top.
  expect(conversation().scrollTop).toBe(16 + 5 * ROW - VIEW / 4);
  expect(document.querySelector(".entry-found")).toHaveTextContent("message 5");
  // Closed, scrolled away, and opened again: its first request brings the entry back.
  rerender(<Conversation {...props} />);
  scrollTo(atBottom);
  expect(screen.queryByText("message 5")).toBeNull();
  rerender(<Conversation {...props} find={{ query: "", currentId: null, reveal: 0 }} />);
  rerender(<Conversation {...props} find={found(1)} />);
  expect(conversation().scrollTop).toBe(16 + 5 * ROW - VIEW / 4);
  expect(screen.getByText("message 5")).toBeInTheDocument();
});
