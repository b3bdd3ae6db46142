import { applyPatches } from "./patch";

test("set, append, push and close rebuild a nested value", () => {
  const value = applyPatches(null, [
    { op: "set", path: [], value: {} },
    { op: "set", path: ["path"], value: "src/ma" },
    { op: "append", path: ["path"], text: "in.rs" },
    { op: "set", path: ["edits"], value: [] },
    { op: "push", path: ["edits"], value: {} },
    { op: "set", path: ["edits", 0, "old"], value: "a" },
    { op: "append", path: ["edits", 0, "old"], text: "b" },
    { op: "close", path: ["edits"] },
  ]);
  expect(value).toEqual({ path: "src/main.rs", edits: [{ old: "ab" }] });
});

test("patches never mutate the value they were given", () => {
  const before = { content: "he" };
  const after = applyPatches(before, [{ op: "append", path: ["content"], text: "llo" }]);
  expect(before).toEqual({ content: "he" });
  expect(after).toEqual({ content: "hello" });
});

test("a patch whose path does not fit changes nothing", () => {
  const before = { a: 1 };
  expect(applyPatches(before, [{ op: "append", path: ["missing"], text: "x" }])).toEqual(before);
  expect(applyPatches(before, [{ op: "push", path: ["a"], value: 2 }])).toEqual(before);
});
