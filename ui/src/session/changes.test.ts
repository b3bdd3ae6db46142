import { sessionChanges } from "./changes";
import { newCall, type CallView, type Item } from "./state";
import type { FilePreview } from "../protocol/FilePreview";
import type { SessionFileChange } from "../protocol/SessionFileChange";

/** A call that changed `path` (creating it when `created`) by `added` and `removed` lines. */
function change(id: string, path: string, created: boolean, [added, removed]: [number, number], extra: Partial<CallView> = {}): CallView {
  const preview: FilePreview = { path, created, lines_added: added, lines_removed: removed, diff: null };
  return { ...newCall(id, "write", "succeeded", null), preview, ...extra };
}

test("the engine's count is the list; the cards say which entry and which changes made each file", () => {
  const calls: Record<string, CallView> = {
    w1: change("w1", "src/a.rs", true, [10, 0]),
    // Part of it undone.
    e1: change("e1", "src/a.rs", false, [2, 1], { name: "edit", undo: "partly" }),
    r1: change("r1", "src/b.rs", true, [5, 0], { state: "rejected" }),
    u1: change("u1", "notes.txt", true, [3, 0], { undo: "done" }),
    b1: {
      ...newCall("b1", "bash", "succeeded", null),
      changes: [
        { path: "out/log.txt", kind: "added", diff: null },
        { path: "src/a.rs", kind: "modified", diff: null },
      ],
    },
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
    { kind: "tool", id: 6, callId: "b1" },
    { kind: "tool", id: 7, callId: "x1" },
    { kind: "tool", id: 8, callId: "n1" },
  ];
  // notes.txt was undone: it is as it was, so the engine does not count it.
  const counted: SessionFileChange[] = [
    { path: "out/log.txt", kind: "added", added: 4, removed: 0, text: true },
    { path: "src/a.rs", kind: "added", added: 13, removed: 0, text: true },
  ];
  expect(sessionChanges(counted, items, calls)).toEqual([
    { path: "out/log.txt", kind: "added", added: 4, removed: 0, text: true, kept: 0, undone: 0, rewound: 0, partlyUndone: 0, byCommands: 1, itemId: 6, callIds: [] },
    // The sub-agent's undone edit is the newest change: its entry is the sub-agent's card.
    { path: "src/a.rs", kind: "added", added: 13, removed: 0, text: true, kept: 2, undone: 1, rewound: 0, partlyUndone: 1, byCommands: 1, itemId: 8, callIds: ["w1", "e1"] },
  ]);
  // A file changed by something the conversation does not show has no entry to go to.
  expect(sessionChanges([{ path: "x", kind: "deleted", added: 0, removed: 2, text: true }], [], {})[0]?.itemId).toBeNull();
  expect(sessionChanges(null, items, calls)).toEqual([]);
  expect(sessionChanges([], items, calls)).toEqual([]);
});

test("a file-tool change a rewind took back is counted apart, as its card looks; an undone one stays undone", () => {
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
  // After the rewind, the engine counts a.txt as the first change left it.
  const counted: SessionFileChange[] = [{ path: "a.txt", kind: "added", added: 3, removed: 0, text: true }];
  const [a] = sessionChanges(counted, items, calls, [{ from: 3, to: 5 }]);
  expect(a).toMatchObject({ path: "a.txt", kept: 1, rewound: 1, undone: 0, added: 3, removed: 0, callIds: ["w1"] });
});
