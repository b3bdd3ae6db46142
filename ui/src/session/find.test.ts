import { entriesHolding } from "./find";
import { newCall, type CallView, type Item } from "./state";

const items: Item[] = [
  { kind: "user", id: 1, text: "Fix the Parser, please" },
  { kind: "thinking", id: 2, text: "the parser is in src/json.rs" },
  { kind: "tool", id: 3, callId: "r1" },
  { kind: "tool", id: 4, callId: "b1" },
  { kind: "tool", id: 5, callId: "n1" },
  { kind: "assistant", id: 6, text: "Done." },
  { kind: "notice", id: 7, tone: "error", text: "The stream dropped." },
];

function calls(): Record<string, CallView> {
  const read = { ...newCall("r1", "read_file", "succeeded", null), args: { path: "src/json.rs", limit: 40 }, result: "fn parse() {}" };
  const bash = { ...newCall("b1", "bash", "succeeded", null), args: { command: "cargo test" }, output: "test result: FAILED" };
  const child = { ...newCall("g1", "grep", "succeeded", "n1"), args: { pattern: "unwrap" } };
  const sub = {
    ...newCall("n1", "new_task", "succeeded", null),
    args: { prompt: "look around" },
    children: [{ kind: "assistant", id: 8, text: "Looking." }, { kind: "tool", id: 9, callId: "g1" }] as Item[],
  };
  return { r1: read, b1: bash, n1: sub, g1: child };
}

test("entries are found by their text, case-insensitively", () => {
  const all = calls();
  expect(entriesHolding(items, all, "parser")).toEqual([1, 2]);
  expect(entriesHolding(items, all, "DROPPED")).toEqual([7]);
  expect(entriesHolding(items, all, "")).toEqual([]);
  expect(entriesHolding(items, all, "nowhere")).toEqual([]);
});

test("a tool card is found by its name, arguments, output and result, and by its sub-agent's entries", () => {
  const all = calls();
  expect(entriesHolding(items, all, "src/json.rs")).toEqual([2, 3]);
  expect(entriesHolding(items, all, "read_file")).toEqual([3]);
  expect(entriesHolding(items, all, "40")).toEqual([3]);
  expect(entriesHolding(items, all, "fn parse")).toEqual([3]);
  expect(entriesHolding(items, all, "failed")).toEqual([4]);
  expect(entriesHolding(items, all, "look")).toEqual([5]);
  expect(entriesHolding(items, all, "unwrap")).toEqual([5]);
});

test("a call that changed is searched as it is now", () => {
  const all = calls();
  expect(entriesHolding(items, all, "passed")).toEqual([]);
  all.b1 = { ...all.b1!, output: "test result: passed" };
  expect(entriesHolding(items, all, "passed")).toEqual([4]);
});
