import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { DiffLine } from "../protocol/DiffLine";
import type { FileDiff } from "../protocol/FileDiff";
import type { Hunk } from "../protocol/Hunk";
import { DiffView, growth, ROWS_PER_FRAME, splitRows } from "./DiffView";

function ctx(old_line: number, new_line: number, text: string): DiffLine {
  return { tag: "context", old_line, new_line, spans: [{ text, changed: false }] };
}
function del(old_line: number, ...spans: [string, boolean][]): DiffLine {
  return { tag: "removed", old_line, new_line: null, spans: spans.map(([text, changed]) => ({ text, changed })) };
}
function add(new_line: number, ...spans: [string, boolean][]): DiffLine {
  return { tag: "added", old_line: null, new_line, spans: spans.map(([text, changed]) => ({ text, changed })) };
}

const modify: FileDiff = {
  path: "src/main.rs",
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
        ctx(1, 1, "fn main() {"),
        del(2, ['    println!("', false], ["hello", true], ['");', false]),
        add(2, ['    println!("', false], ["goodbye", true], ['");', false]),
        add(3, ["    exit(0);", true]),
        ctx(3, 4, "}"),
      ],
    },
    {
      old_start: 40,
      old_lines: 2,
      new_start: 41,
      new_lines: 2,
      lines: [ctx(40, 41, "// end"), ctx(41, 42, "// really")],
    },
  ],
};

function created(lines: number): FileDiff {
  const hunk: Hunk = {
    old_start: 0,
    old_lines: 0,
    new_start: 1,
    new_lines: lines,
    lines: Array.from({ length: lines }, (_, i) => add(i + 1, [`line ${i + 1}`, false])),
  };
  return { path: "big.txt", kind: "create", added: lines, removed: 0, omitted_hunks: 0, approximate: false, lines_left_out: 0, hunks: [hunk] };
}

/** Waits until `n` diff rows are drawn (a long diff fills in a few rows per frame). */
async function rows(container: HTMLElement, n: number) {
  await waitFor(() => expect(container.querySelectorAll("tr.diff-line")).toHaveLength(n), { timeout: 10000 });
}

/** The scroll box of a long diff. */
function box(container: HTMLElement): HTMLElement {
  const el = container.querySelector<HTMLElement>(".diff-body-virtual");
  if (!el) throw new Error("no virtualised diff body");
  return el;
}

/** Scrolls the box to `top` (jsdom has no layout: the position is set, as a browser would). */
async function scrollBox(container: HTMLElement, top: number) {
  const el = box(container);
  Object.defineProperty(el, "scrollTop", { value: top, writable: true, configurable: true });
  fireEvent.scroll(el);
  await waitFor(() => expect(spacers(container)[0]).toBeGreaterThan(0));
}

function drawnRows(container: HTMLElement): number {
  return container.querySelectorAll("tr.diff-line").length;
}

function lastRow(container: HTMLElement): Element | undefined {
  return [...container.querySelectorAll("tr.diff-line")].at(-1);
}

/** The heights of the spacers above and below the drawn rows (0 for one that is absent). */
function spacers(container: HTMLElement): [number, number] {
  const body = box(container).querySelector("tbody")!;
  const height = (row: Element | null) =>
    row?.classList.contains("diff-spacer") ? parseFloat((row.firstElementChild as HTMLElement).style.height) : 0;
  return [height(body.firstElementChild), height(body.lastElementChild)];
}

test("unified view shows the header, hunk headers, line numbers and word highlights", () => {
  const { container } = render(<DiffView diff={modify} />);
  expect(screen.getByText("src/main.rs")).toBeInTheDocument();
  expect(screen.getByText("modified")).toBeInTheDocument();
  expect(screen.getByText("+2")).toBeInTheDocument();
  expect(screen.getByText("−1")).toBeInTheDocument();
  expect(screen.getByText("@@ -1,3 +1,4 @@")).toBeInTheDocument();
  expect(screen.getByText("@@ -40,2 +41,2 @@")).toBeInTheDocument();
  expect(screen.queryByText("approximate")).not.toBeInTheDocument();

  const removed = container.querySelector("tr.diff-removed")!;
  expect(removed).toHaveTextContent('println!("hello");');
  expect(within(removed as HTMLElement).getByLabelText("old line 2")).toHaveTextContent("2");
  expect(removed.querySelector("mark.diff-word")).toHaveTextContent("hello");

  const added = container.querySelectorAll("tr.diff-added");
  expect(added).toHaveLength(2);
  expect(added[0]!.querySelector("mark.diff-word")).toHaveTextContent("goodbye");
  expect(within(added[1] as HTMLElement).getByLabelText("new line 3")).toBeInTheDocument();
  // A wholly new line has no word marks; the row colour says it all.
  expect(added[1]!.querySelector("mark")).toBeNull();
  // Context lines carry both numbers.
  const context = container.querySelector("tr.diff-context")!;
  expect(within(context as HTMLElement).getByLabelText("old line 1")).toBeInTheDocument();
  expect(within(context as HTMLElement).getByLabelText("new line 1")).toBeInTheDocument();
  expect(screen.getByRole("button", { name: "Unified" })).toHaveAttribute("aria-pressed", "true");
});

test("split view puts removed lines left, added right, and pairs replaced runs", async () => {
  const user = userEvent.setup();
  const { container } = render(<DiffView diff={modify} />);
  await user.click(screen.getByRole("button", { name: "Side by side" }));
  expect(screen.getByRole("button", { name: "Side by side" })).toHaveAttribute("aria-pressed", "true");

  const rows = container.querySelectorAll("tbody:first-of-type tr.diff-split-row");
  // context, (hello|goodbye), (gap|exit), context
  expect(rows).toHaveLength(4);
  const paired = rows[1]!;
  expect(paired.querySelector('td[data-side="old"]')).toHaveTextContent('println!("hello");');
  expect(paired.querySelector('td[data-side="new"]')).toHaveTextContent('println!("goodbye");');
  expect(paired.querySelector('td[data-side="old"] mark.diff-word')).toHaveTextContent("hello");
  expect(paired.querySelector('td[data-side="new"] mark.diff-word')).toHaveTextContent("goodbye");
  const unpaired = rows[2]!;
  expect(unpaired.querySelector('td[data-side="old"]')).toBeNull();
  expect(unpaired.querySelectorAll("td.diff-gap")).toHaveLength(2);
  expect(unpaired.querySelector('td[data-side="new"]')).toHaveTextContent("exit(0);");
  // Context appears on both sides.
  expect(rows[0]!.querySelector('td[data-side="old"]')).toHaveTextContent("fn main() {");
  expect(rows[0]!.querySelector('td[data-side="new"]')).toHaveTextContent("fn main() {");
});

test("splitRows aligns a longer removed run against gaps", () => {
  const rows = splitRows([del(1, ["a", false]), del(2, ["b", false]), add(1, ["c", false])]);
  expect(rows.map((r) => [r.left?.old_line ?? null, r.right?.new_line ?? null])).toEqual([
    [1, 1],
    [2, null],
  ]);
});

test("a created file, an approximate note and omitted hunks are labelled", () => {
  render(<DiffView diff={{ ...created(3), approximate: true, omitted_hunks: 2 }} initialMode="split" />);
  expect(screen.getByText("new file")).toBeInTheDocument();
  expect(screen.getByText("+3")).toBeInTheDocument();
  expect(screen.getByText("−0")).toBeInTheDocument();
  expect(screen.getByText("approximate")).toBeInTheDocument();
  expect(screen.getByText("2 more parts not shown")).toBeInTheDocument();
  expect(screen.getByText("@@ -0,0 +1,3 @@")).toBeInTheDocument();
  expect(screen.getByText("line 3")).toBeInTheDocument();
});

test("a 10,000-line created file draws only the budget, a frame's worth at a time", async () => {
  const started = performance.now();
  const { container } = render(<DiffView diff={created(10_000)} />);
  expect(performance.now() - started).toBeLessThan(3000);
  expect(container.querySelectorAll("tr.diff-line")).toHaveLength(ROWS_PER_FRAME);
  await rows(container, 200);
  expect(screen.getByText("line 200")).toBeInTheDocument();
  expect(screen.queryByText("line 201")).not.toBeInTheDocument();
  expect(screen.getByRole("button", { name: "Show 1000 more lines" })).toBeInTheDocument();
  expect(screen.getByRole("button", { name: "Show all 9800 remaining lines" })).toBeInTheDocument();
});

test("drawing grows by a frame's worth of rows, then by a quarter: a few dozen frames for any length", () => {
  expect(growth(0)).toBe(ROWS_PER_FRAME);
  expect(growth(4 * ROWS_PER_FRAME - 1)).toBe(ROWS_PER_FRAME);
  expect(growth(4000)).toBe(1000);
  const framesFor = (n: number) => {
    let frames = 0;
    for (let drawn = ROWS_PER_FRAME; drawn < n; drawn += growth(drawn)) frames++;
    return frames;
  };
  expect(framesFor(200)).toBeLessThanOrEqual(7);
  expect(framesFor(12_295)).toBeLessThanOrEqual(30);
  expect(framesFor(100_000)).toBeLessThanOrEqual(40);
});

test("a large collapsed diff grows a step at a time, or all at once, in a box that draws what is in view", async () => {
  const user = userEvent.setup();
  const { container } = render(<DiffView diff={created(2500)} />);
  await rows(container, 200);
  await user.click(screen.getByRole("button", { name: "Show 1000 more lines" }));
  // 1,200 lines (and the hunk header) are in the box; only those near its top are drawn.
  expect(box(container).dataset.rows).toBe("1201");
  expect(drawnRows(container)).toBeLessThan(200);
  expect(screen.getByText("line 1")).toBeInTheDocument();
  await scrollBox(container, 1_000_000);
  expect(lastRow(container)).toHaveTextContent("line 1200");
  await user.click(screen.getByRole("button", { name: "Show all 1300 remaining lines" }));
  expect(box(container).dataset.rows).toBe("2501");
  await scrollBox(container, 1_000_000);
  expect(lastRow(container)).toHaveTextContent("line 2500");
  expect(drawnRows(container)).toBeLessThan(200);
  expect(screen.queryByRole("button", { name: /more lines|remaining/ })).not.toBeInTheDocument();
});

test("a scroll of a long diff draws its rows before the frame is painted, not a frame later", async () => {
  const user = userEvent.setup();
  const { container } = render(<DiffView diff={created(3000)} />);
  await user.click(screen.getByRole("button", { name: "Show all 2800 remaining lines" }));
  const el = box(container);
  Object.defineProperty(el, "scrollTop", { value: 2000 * 18, writable: true, configurable: true });
  // The scroll event is handled synchronously: the rows are there when it returns, with no
  // animation frame or task in between.
  act(() => {
    fireEvent.scroll(el);
  });
  expect(screen.getByText("line 2000")).toBeInTheDocument();
  expect(screen.queryByText("line 1")).not.toBeInTheDocument();
});

test("a long diff draws only the rows near its view; spacers stand in for the others", async () => {
  const user = userEvent.setup();
  const { container } = render(<DiffView diff={created(3000)} />);
  await user.click(screen.getByRole("button", { name: "Show all 2800 remaining lines" }));
  const [top, bottom] = spacers(container);
  expect(top).toBe(0);
  // Rows never drawn are counted at the estimated 18 px each: the box scrolls over every line.
  expect(bottom).toBe((3001 - drawnRows(container) - 1) * 18);
  // The middle of the diff: its rows are drawn and those at the top are gone.
  await scrollBox(container, 1500 * 18);
  expect(screen.getByText("line 1500")).toBeInTheDocument();
  expect(screen.queryByText("line 1")).not.toBeInTheDocument();
  expect(spacers(container)[0]).toBeGreaterThan(1000 * 18);
  expect(drawnRows(container)).toBeLessThan(200);
  // Side by side draws the same window of pairs.
  await user.click(screen.getByRole("button", { name: "Side by side" }));
  expect(container.querySelector("tr.diff-split-row")).not.toBeNull();
  expect(screen.getByText("line 1500")).toBeInTheDocument();
  expect(drawnRows(container)).toBeLessThan(200);
});

/** The text node of the drawn row showing `text`. */
function textOf(text: string): Text {
  const node = screen.getByText(text).firstChild;
  if (!(node instanceof Text)) throw new Error(`no text node for ${text}`);
  return node;
}

/** Fires a copy at `el` and returns what was put on the clipboard (null: the page's own copy). */
function copy(el: HTMLElement): string | null {
  let copied: string | null = null;
  const event = new Event("copy", { bubbles: true, cancelable: true });
  Object.defineProperty(event, "clipboardData", {
    value: {
      setData: (type: string, text: string) => {
        if (type === "text/plain") copied = text;
      },
    },
  });
  act(() => {
    el.dispatchEvent(event);
  });
  return event.defaultPrevented ? copied : null;
}

/** What `selectionchange` would announce after a script changed the selection. */
function selectionChanged() {
  act(() => {
    document.dispatchEvent(new Event("selectionchange"));
  });
}

test("a selection over rows scrolled out of a long diff's box copies every row between its ends", async () => {
  const user = userEvent.setup();
  const { container } = render(<DiffView diff={created(3000)} />);
  await user.click(screen.getByRole("button", { name: "Show all 2800 remaining lines" }));
  // The user selects from "10" in line 10...
  const selection = document.getSelection()!;
  selection.setBaseAndExtent(textOf("line 10"), 5, textOf("line 12"), 2);
  selectionChanged();
  // ...scrolls far down, and extends the selection to "line 29" of line 2990.
  const el = box(container);
  Object.defineProperty(el, "scrollTop", { value: 2990 * 18, writable: true, configurable: true });
  fireEvent.scroll(el);
  await waitFor(() => expect(screen.getByText("line 2990")).toBeInTheDocument());
  // The row holding the selection's start is still drawn (it would take the selection with it).
  expect(screen.getByText("line 10")).toBeInTheDocument();
  expect(drawnRows(container)).toBeLessThan(250);
  selection.extend(textOf("line 2990"), 7);
  selectionChanged();
  const lines = Array.from({ length: 2981 }, (_, i) => `line ${i + 10}`);
  lines[0] = "10";
  lines[lines.length - 1] = "line 29";
  expect(copy(box(container))).toBe(lines.join("\n"));
  // Once the selection is gone, the rows at the top are no longer drawn.
  selection.removeAllRanges();
  selectionChanged();
  expect(screen.queryByText("line 10")).not.toBeInTheDocument();
});

test("select all in a long diff's box selects its rows, and a copy has every one of them", async () => {
  const user = userEvent.setup();
  const { container } = render(<DiffView diff={created(3000)} />);
  await user.click(screen.getByRole("button", { name: "Show all 2800 remaining lines" }));
  const el = box(container);
  el.focus();
  await user.keyboard("{Control>}a{/Control}");
  expect(el.contains(document.getSelection()!.anchorNode)).toBe(true);
  const text = copy(el)!;
  const lines = text.split("\n");
  expect(lines).toHaveLength(3001);
  expect(lines[0]).toBe("@@ -0,0 +1,3000 @@");
  expect(lines[1]).toBe("line 1");
  expect(lines[3000]).toBe("line 3000");
  // A selection that reaches beyond the box is left to the page's own copy.
  document.getSelection()!.selectAllChildren(container);
  expect(copy(el)).toBeNull();
});

test("in a long side-by-side diff, a selection in one column copies that column", async () => {
  const user = userEvent.setup();
  const old = Array.from({ length: 300 }, (_, i) => del(i + 1, [`old ${i + 1}`, false]));
  const fresh = Array.from({ length: 300 }, (_, i) => add(i + 1, [`new ${i + 1}`, false]));
  const diff: FileDiff = {
    path: "swap.txt",
    kind: "modify",
    added: 300,
    removed: 300,
    omitted_hunks: 0,
    approximate: false,
    lines_left_out: 0,
    hunks: [{ old_start: 1, old_lines: 300, new_start: 1, new_lines: 300, lines: [...old, ...fresh] }],
  };
  const { container } = render(<DiffView diff={diff} initialMode="split" />);
  await user.click(screen.getByRole("button", { name: "Show all 600 lines" }));
  document.getSelection()!.setBaseAndExtent(textOf("new 2"), 0, textOf("new 4"), 5);
  selectionChanged();
  expect(copy(box(container))).toBe("new 2\nnew 3\nnew 4");
  document.getSelection()!.setBaseAndExtent(textOf("old 2"), 4, textOf("new 3"), 3);
  selectionChanged();
  expect(copy(box(container))).toBe("old 2\tnew 2\nold 3\tnew 3");
});

test("next change in a long diff scrolls its box to the hunk and focuses the header", async () => {
  const user = userEvent.setup();
  const hunk = (start: number): Hunk => ({
    old_start: start,
    old_lines: 0,
    new_start: start,
    new_lines: 300,
    lines: Array.from({ length: 300 }, (_, i) => add(start + i, [`line ${start + i}`, false])),
  });
  const diff: FileDiff = { ...created(1), added: 900, hunks: [hunk(1), hunk(1001), hunk(2001)] };
  const { container } = render(<DiffView diff={diff} />);
  await user.click(screen.getByRole("button", { name: "Show all 900 lines" }));
  box(container).scrollTop = 0;
  await user.click(screen.getByRole("button", { name: "Next part" }));
  expect(screen.getByText("@@ -1,0 +1,300 @@")).toHaveFocus();
  await user.click(screen.getByRole("button", { name: "Next part" }));
  // The second header is below 300 rows of 18 px and a header of 22 px.
  expect(box(container).scrollTop).toBe(22 + 300 * 18);
  await waitFor(() => expect(screen.getByText("@@ -1001,0 +1001,300 @@")).toHaveFocus());
  expect(screen.getByText("@@ -1001,0 +1001,300 @@").closest("tr")).toHaveClass("diff-hunk-current");
  await user.click(screen.getByRole("button", { name: "Next part" }));
  await waitFor(() => expect(screen.getByText("@@ -2001,0 +2001,300 @@")).toHaveFocus());
  expect(screen.getByRole("button", { name: "Next part" })).toBeDisabled();
});

/** The first `sent` lines of a `lines`-line created file, as an event carries a cut diff. */
function cut(lines: number, sent: number): FileDiff {
  const whole = created(lines);
  const hunk = { ...whole.hunks[0]!, lines: whole.hunks[0]!.lines.slice(0, sent) };
  return { ...whole, hunks: [hunk], lines_left_out: lines - sent };
}

test("a diff sent cut short counts every line and asks for the rest only when they are wanted", async () => {
  const user = userEvent.setup();
  const onLoadMore = vi.fn();
  const { container, rerender } = render(<DiffView diff={cut(3000, 1200)} onLoadMore={onLoadMore} />);
  await rows(container, 200);
  // The first step is within what was sent: no request.
  await user.click(screen.getByRole("button", { name: "Show 1000 more lines" }));
  expect(box(container).dataset.rows).toBe("1201");
  expect(onLoadMore).not.toHaveBeenCalled();
  // The next one needs lines the engine kept: one request, and a note while they come.
  await user.click(screen.getByRole("button", { name: "Show 1000 more lines" }));
  expect(onLoadMore).toHaveBeenCalledTimes(1);
  expect(screen.getByRole("status")).toHaveTextContent("Loading 1000 more lines…");
  expect(screen.queryByRole("button", { name: /Show/ })).not.toBeInTheDocument();
  // The whole diff arrives: the lines asked for are drawn, and the rest is one click away.
  rerender(<DiffView diff={created(3000)} onLoadMore={onLoadMore} />);
  expect(box(container).dataset.rows).toBe("2201");
  await scrollBox(container, 1_000_000);
  expect(lastRow(container)).toHaveTextContent("line 2200");
  await user.click(screen.getByRole("button", { name: "Show all 3000 lines" }));
  expect(box(container).dataset.rows).toBe("3001");
  expect(onLoadMore).toHaveBeenCalledTimes(1);
}, 30000);

test("Show all on a cut diff loads the rest and then draws every line", async () => {
  const user = userEvent.setup();
  const onLoadMore = vi.fn();
  const { container, rerender } = render(<DiffView diff={cut(2600, 1200)} onLoadMore={onLoadMore} />);
  await user.click(screen.getByRole("button", { name: "Show all 2400 remaining lines" }));
  expect(onLoadMore).toHaveBeenCalledTimes(1);
  // What was sent is in the box at once; the note counts what is still coming.
  expect(box(container).dataset.rows).toBe("1201");
  expect(screen.getByRole("status")).toHaveTextContent("Loading 1400 more lines…");
  rerender(<DiffView diff={created(2600)} onLoadMore={onLoadMore} />);
  expect(box(container).dataset.rows).toBe("2601");
  expect(screen.queryByRole("status")).not.toBeInTheDocument();
}, 30000);

test("Show all N lines expands a collapsed diff whose rest fits in one step", async () => {
  const user = userEvent.setup();
  const { container } = render(<DiffView diff={created(1000)} />);
  await rows(container, 200);
  await user.click(screen.getByRole("button", { name: "Show all 1000 lines" }));
  await scrollBox(container, 1_000_000);
  expect(lastRow(container)).toHaveTextContent("line 1000");
  expect(screen.queryByRole("button", { name: /more lines|Show all/ })).not.toBeInTheDocument();
});

test("collapsing spreads the budget over hunks in order and hides the rest", async () => {
  const user = userEvent.setup();
  const { container } = render(<DiffView diff={modify} maxLines={3} />);
  await rows(container, 3);
  expect(screen.queryByText("@@ -40,2 +41,2 @@")).not.toBeInTheDocument();
  await user.click(screen.getByRole("button", { name: "Show all 7 lines" }));
  await rows(container, 7);
  expect(screen.getByText("@@ -40,2 +41,2 @@")).toBeInTheDocument();
});

test("previous/next change scroll the hunk into view and move focus", async () => {
  const user = userEvent.setup();
  const scrolled: Element[] = [];
  const original = Element.prototype.scrollIntoView;
  Element.prototype.scrollIntoView = function (this: Element) {
    scrolled.push(this);
  };
  try {
    render(<DiffView diff={modify} />);
    const prev = screen.getByRole("button", { name: "Previous part" });
    const next = screen.getByRole("button", { name: "Next part" });
    expect(prev).toBeDisabled();
    await user.click(next);
    const first = screen.getByText("@@ -1,3 +1,4 @@");
    expect(first).toHaveFocus();
    expect(scrolled.at(-1)).toBe(first);
    await user.click(next);
    const second = screen.getByText("@@ -40,2 +41,2 @@");
    expect(second).toHaveFocus();
    expect(scrolled.at(-1)).toBe(second);
    expect(next).toBeDisabled();
    await user.click(prev);
    expect(first).toHaveFocus();
  } finally {
    Element.prototype.scrollIntoView = original;
  }
});

test("navigation works where scrollIntoView does not exist", async () => {
  const user = userEvent.setup();
  const original = Element.prototype.scrollIntoView;
  // jsdom has no layout; the component must not assume the method.
  delete (Element.prototype as { scrollIntoView?: unknown }).scrollIntoView;
  try {
    render(<DiffView diff={modify} />);
    await user.click(screen.getByRole("button", { name: "Next part" }));
    expect(screen.getByText("@@ -1,3 +1,4 @@")).toHaveFocus();
  } finally {
    Element.prototype.scrollIntoView = original;
  }
});

test("markup in a line is shown as text", () => {
  const diff: FileDiff = {
    ...modify,
    hunks: [
      {
        old_start: 1,
        old_lines: 0,
        new_start: 1,
        new_lines: 1,
        lines: [add(1, ["<script>alert(1)</script>", true], ['<img src=x onerror="alert(2)">', false])],
      },
    ],
  };
  const { container } = render(<DiffView diff={diff} />);
  expect(container.querySelector("script")).toBeNull();
  expect(container.querySelector("img")).toBeNull();
  expect(container.querySelector("mark.diff-word")!.textContent).toBe("<script>alert(1)</script>");
  expect(container.querySelector("tr.diff-added")).toHaveTextContent('<img src=x onerror="alert(2)">');
});

test("a left-out hunk is dimmed and its box unticked, in the page's flow and in a long diff's box", async () => {
  const user = userEvent.setup();
  // Two hunks of 150 changed lines each: 300 lines, more than are drawn in the page's flow.
  const hunk = (h: number): Hunk => ({
    old_start: 1000 * h + 1, old_lines: 150, new_start: 1000 * h + 1, new_lines: 150,
    lines: Array.from({ length: 150 }, (_, k) => add(1000 * h + k + 1, [`hunk ${h} line ${k}`, false])),
  });
  const diff: FileDiff = { ...modify, added: 300, removed: 0, hunks: [hunk(0), hunk(1)] };
  const toggle = vi.fn();
  const choice = { skipped: new Set([1]), toggle, setAll: vi.fn() };
  const { container } = render(<DiffView diff={diff} choice={choice} />);
  await waitFor(() => expect(container.querySelectorAll("tbody.diff-hunk")).toHaveLength(2));
  const [first, second] = screen.getAllByTestId("hunk-choice");
  expect(first).toBeChecked();
  expect(second).not.toBeChecked();
  expect(container.querySelectorAll("tbody.diff-hunk-skipped")).toHaveLength(1);
  await user.click(first!);
  expect(toggle).toHaveBeenCalledWith(0);

  await user.click(screen.getByRole("button", { name: "Show all 300 lines" }));
  box(container);
  const row = (text: string) => screen.getByText(text).closest("tr")!;
  expect(row("hunk 0 line 0")).not.toHaveClass("diff-line-skipped");
  await scrollBox(container, 1_000_000);
  expect(row("hunk 1 line 149")).toHaveClass("diff-line-skipped");
});

test("Undo part asks first, sends the hunk asked about, and the question closes when the hunks change", async () => {
  const onUndoHunk = vi.fn();
  const { rerender } = render(<DiffView diff={modify} onUndoHunk={onUndoHunk} />);
  const buttons = screen.getAllByTestId("undo-hunk");
  expect(buttons).toHaveLength(2);
  await userEvent.click(buttons[1]!);
  await userEvent.click(screen.getByTestId("confirm-undo-hunk"));
  expect(onUndoHunk).toHaveBeenCalledWith(modify.hunks[1]);
  // Asked about the first hunk, then the diff changed under it: nothing is sent.
  await userEvent.click(screen.getAllByTestId("undo-hunk")[0]!);
  expect(screen.getByTestId("confirm-undo-hunk")).toBeInTheDocument();
  rerender(<DiffView diff={{ ...modify, hunks: modify.hunks.map((h) => ({ ...h })) }} onUndoHunk={onUndoHunk} />);
  expect(screen.queryByTestId("confirm-undo-hunk")).toBeNull();
  // Esc closes the question too.
  await userEvent.click(screen.getAllByTestId("undo-hunk")[0]!);
  await userEvent.keyboard("{Escape}");
  expect(screen.queryByTestId("confirm-undo-hunk")).toBeNull();
  expect(onUndoHunk).toHaveBeenCalledTimes(1);
});
