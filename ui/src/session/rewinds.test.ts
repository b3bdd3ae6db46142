import type { Event } from "../protocol/Event";
import { initialState, reduceAll } from "./state";
import { rewoundIds, withRewind } from "./rewinds";
import type { Item } from "./types";

const items: Item[] = [
  { kind: "user", id: 1, text: "first" },
  { kind: "tool", id: 2, callId: "a" },
  { kind: "user", id: 3, text: "second" },
  { kind: "tool", id: 4, callId: "b" },
  { kind: "assistant", id: 5, text: "done" },
];

test("a rewind takes back from the message it went back to before to the last entry", () => {
  const rewinds = withRewind([], items, { before_message: 1, undone: false });
  expect(rewinds).toEqual([{ from: 3, to: 5 }]);
  expect([...rewoundIds(items, rewinds)]).toEqual([3, 4, 5]);
  // What came after the rewind is not taken back.
  const later: Item[] = [...items, { kind: "notice", id: 6, tone: "info", text: "Rewound" }, { kind: "user", id: 7, text: "third" }];
  expect([...rewoundIds(later, rewinds)]).toEqual([3, 4, 5]);
});

test("rewinds add up, and undoing the last brings back only what it took", () => {
  const later: Item[] = [...items, { kind: "user", id: 6, text: "third" }, { kind: "tool", id: 7, callId: "c" }];
  let rewinds = withRewind([], items, { before_message: 1, undone: false });
  rewinds = withRewind(rewinds, later, { before_message: 2, undone: false });
  expect([...rewoundIds(later, rewinds)]).toEqual([3, 4, 5, 6, 7]);
  rewinds = withRewind(rewinds, later, { before_message: 0, undone: true });
  expect([...rewoundIds(later, rewinds)]).toEqual([3, 4, 5]);
  rewinds = withRewind(rewinds, later, { before_message: 0, undone: true });
  expect(rewoundIds(later, rewinds).size).toBe(0);
});

test("a message that is not there changes nothing", () => {
  expect(withRewind([], items, { before_message: 5, undone: false })).toEqual([]);
  expect(withRewind([], [], { before_message: 0, undone: false })).toEqual([]);
});

test("the reducer keeps what the engine's rewinds took back", () => {
  let s = initialState();
  s = { ...s, items };
  s = reduceAll(s, [{ seq: 1, type: "rewound", before_message: 0, undone: false, changes: [] } as Event], 0);
  expect(s.rewinds).toEqual([{ from: 1, to: 5 }]);
  s = reduceAll(s, [{ seq: 2, type: "rewound", before_message: 0, undone: true, changes: [] } as Event], 0);
  expect(s.rewinds).toEqual([]);
});
