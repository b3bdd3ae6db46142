import { newCall, type CallView, type Item } from "./state";
import { undoableAfter, undoableAfterCounts } from "./undoAfter";

function call(id: string, undo: CallView["undo"], children: Item[] = []): CallView {
  return { ...newCall(id, "write", "succeeded", null), undo, children };
}

test("the changes after a message that can be undone, newest first, sub-agents' included", () => {
  const calls: Record<string, CallView> = {
    a: call("a", "available"),
    b: call("b", "done"),
    t: call("t", null, [{ kind: "tool", id: 90, callId: "c" }]),
    c: call("c", "available"),
    // Part of it undone: the rest still undoes.
    d: call("d", "partly"),
  };
  const items: Item[] = [
    { kind: "user", id: 1, text: "first" },
    { kind: "tool", id: 2, callId: "a" },
    { kind: "tool", id: 3, callId: "b" },
    { kind: "user", id: 4, text: "second" },
    { kind: "tool", id: 5, callId: "t" },
    { kind: "assistant", id: 6, text: "done" },
    { kind: "tool", id: 7, callId: "d" },
    { kind: "user", id: 8, text: "third" },
  ];
  expect(undoableAfterCounts(items, calls)).toEqual(new Map([[1, 3], [4, 2], [8, 0]]));
  expect(undoableAfter(items, calls, 1)).toEqual(["d", "c", "a"]);
  expect(undoableAfter(items, calls, 4)).toEqual(["d", "c"]);
  expect(undoableAfter(items, calls, 8)).toEqual([]);
  expect(undoableAfter(items, calls, 99)).toEqual([]);
});
