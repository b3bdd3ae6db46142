// Highlights of what the find bar looks for, in the entries the conversation draws: every
// occurrence gets the CSS highlight `find-match`, those in the entry found `find-current`
// (styles.css). The CSS Custom Highlight API marks text without changing the DOM, so the
// conversation's measured heights and the user's selection are left alone. Where the API is
// missing, nothing is marked; the entry found is still outlined.

/** At most this many occurrences are marked of each kind (a one-letter query in a long output). */
const MAX_MARKS = 1000;

/** The CSS highlight registry, where there is one. */
function registry(): HighlightRegistry | null {
  return typeof CSS !== "undefined" && CSS.highlights && typeof Highlight !== "undefined" ? CSS.highlights : null;
}

/**
 * Marks the occurrences of `query` (case-insensitive) in the text under `root`, outside buttons;
 * those inside the entry `currentId` (`data-entry`) as the current ones. An empty query clears.
 */
export function highlightFound(root: HTMLElement | null, query: string, currentId: number | null): void {
  const highlights = registry();
  if (!highlights) return;
  const q = query.toLowerCase();
  if (!root || q === "") {
    highlights.delete("find-match");
    highlights.delete("find-current");
    return;
  }
  const others: Range[] = [];
  const current: Range[] = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node && others.length + current.length < 2 * MAX_MARKS; node = walker.nextNode()) {
    const data = (node as Text).data;
    const text = data.toLowerCase();
    // Lower-casing that changes the length (a few letters do) would misplace the offsets.
    if (text.length !== data.length) continue;
    let at = text.indexOf(q);
    if (at < 0) continue;
    const parent = node.parentElement;
    if (!parent || parent.closest("button")) continue;
    const entry = parent.closest("[data-entry]")?.getAttribute("data-entry");
    const into = currentId !== null && entry === String(currentId) ? current : others;
    while (at >= 0) {
      const range = document.createRange();
      range.setStart(node, at);
      range.setEnd(node, at + q.length);
      into.push(range);
      at = text.indexOf(q, at + q.length);
    }
  }
  const marked = (ranges: Range[]) => {
    const highlight = new Highlight();
    for (const range of ranges.slice(0, MAX_MARKS)) highlight.add(range);
    return highlight;
  };
  highlights.set("find-match", marked(others));
  highlights.set("find-current", marked(current));
}
