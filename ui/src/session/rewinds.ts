// Which entries of the conversation a rewind took back: from the user's message the workspace
// went back to before, to the last entry when it did. They are faded, and the changes among them
// look rewound (changeLook.ts), until the rewind is undone. Rewinds add up: a later one to an
// earlier message takes back more, and undoing the last brings back only what it took.
import type { Item, Rewind } from "./types";

/**
 * `rewinds` once the workspace went back to before the user's message number `before_message`
 * (0-based, among theirs in `items`), or, `undone`, without the last one.
 */
export function withRewind(rewinds: Rewind[], items: readonly Item[], event: { before_message: number; undone: boolean }): Rewind[] {
  if (event.undone) return rewinds.slice(0, -1);
  const message = items.filter((item) => item.kind === "user")[event.before_message];
  const last = items.at(-1);
  if (!message || !last) return rewinds;
  return [...rewinds, { from: message.id, to: last.id }];
}

/** The ids of the entries of `items` some rewind took back. */
export function rewoundIds(items: readonly Item[], rewinds: readonly Rewind[]): Set<number> {
  const out = new Set<number>();
  for (const { from, to } of rewinds) {
    const start = items.findIndex((item) => item.id === from);
    const end = items.findIndex((item) => item.id === to);
    if (start < 0 || end < start) continue;
    for (let i = start; i <= end; i++) out.add(items[i]!.id);
  }
  return out;
}
