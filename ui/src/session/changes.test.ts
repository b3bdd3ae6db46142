import { sessionChanges } from "./changes";
import { newCall, type CallView, type Item } from "./state";
import type { FilePreview } from "../protocol/FilePreview";

/** A call that changed `path` (creating it when `created`) by `added` and `removed` lines. */
function change(id: string, path: string, created: boolean, [added, removed]: [number, number], extra: Partial<CallView> = {}): CallView {
  const preview: FilePreview = { path, created, lines_added: added, lines_removed: removed, diff: null };
  return { ...newCall(id, "write", "succeeded", null), preview, ...extra };
}

test("changes are counted by file, a sub-agent's under its card, undone and refused ones apart", () => {
  const calls: Record<string, CallView> = {
    w1: change("w1", "src/a.rs", true, [10, 0]),
    // Part of it undone: its card's counts are what is left.
    e1: change("e1", "src/a.rs", false, [2, 1], { name: "edit", undo: "partly" }),
    r1: change("r1", "src/b.rs", true, [5, 0], { state: "rejected" }),
    u1: change("u1", "notes.txt", true, [3, 0], { undo: "done" }),
    n1: { ...newCall("n1", "new_task", "succeeded", null), children: [{ kind: "tool", id: 9, callId: "c1" }] },
    c1: change("c1", "src/a.rs", false, [1, 1], { name: "edit", parentId: "n1", undo: "done" }),
    x1: { ...newCall("x1", "read_file", "succeeded", null) },
  };
  const items: Item[] = [
    { kind: "user", id: 1, text: "go" },
    { kind: "tool", id: 2, callId: "w1" },
    { kind: "tool", id: 3, callId: "r1" },
    { kind: "tool", id: 4, callId: "u1" },
    { kind: "tool", id: 5, callId: "e1" },
    { kind: "tool", id: 6, callId: "x1" },
    { kind: "tool", id: 7, callId: "n1" },
  ];
  expect(sessionChanges(items, calls)).toEqual([
    // The sub-agent's undone edit is the newest change: its entry is the sub-agent's card.
    { path: "src/a.rs", created: true, kept: 2, undone: 1, rewound: 0, partlyUndone: 1, added: 12, removed: 1, itemId: 7, callIds: ["w1", "e1"] },
    { path: "notes.txt", created: true, kept: 0, undone: 1, rewound: 0, partlyUndone: 0, added: 0, removed: 0, itemId: 4, callIds: [] },
  ]);
  expect(sessionChanges([], calls)).toEqual([]);
});

test("a change a rewind took back is counted apart, as its card looks; an undone one stays undone", () => {
  const calls: Record<string, CallView> = {
    w1: change("w1", "a.txt", true, [3, 0], { undo: "available" }),
    w2: change("w2", "a.txt", false, [1, 1], { undo: "available" }),
    w3: change("w3", "b.txt", true, [2, 0], { undo: "done" }),
  };
  const items: Item[] = [
    { kind: "user", id: 1, text: "make a" },
    { kind: "tool", id: 2, callId: "w1" },
    { kind: "user", id: 3, text: "change a and make b" },
    { kind: "tool", id: 4, callId: "w2" },
    { kind: "tool", id: 5, callId: "w3" },
  ];
  const [a, b] = sessionChanges(items, calls, [{ from: 3, to: 5 }]);
  expect(a).toMatchObject({ path: "a.txt", kept: 1, rewound: 1, undone: 0, added: 3, removed: 0, callIds: ["w1"] });
  expect(b).toMatchObject({ path: "b.txt", kept: 0, rewound: 0, undone: 1 });
});
