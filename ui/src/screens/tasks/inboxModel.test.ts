import type { InboxItem } from "../../protocol/InboxItem";
import { inboxKey, itemKey, keepSelection, kindLook, orderInbox } from "./inboxModel";

const item = (over: Partial<InboxItem>): InboxItem => ({
  kind: "ready",
  workspace_path: "/w",
  task_id: "t1",
  task_name: "fix-login",
  title: "Fix the login",
  detail: "Finished",
  at: 0,
  ...over,
});

test("approvals come first, then stopped merges, failures and finished tasks, oldest first within a kind", () => {
  const items = [
    item({ kind: "ready", task_id: "r", at: 1 }),
    item({ kind: "failed", task_id: "f", at: 5 }),
    item({ kind: "approval", task_id: "a2", at: 9 }),
    item({ kind: "merge", task_id: "m", at: 7 }),
    item({ kind: "approval", task_id: "a1", at: 3 }),
  ];
  expect(orderInbox(items).map((i) => i.task_id)).toEqual(["a1", "a2", "m", "f", "r"]);
  expect(items[0]?.task_id).toBe("r");
});

test("each kind has a mark and words", () => {
  expect(kindLook("approval")).toMatchObject({ label: "Needs your approval", look: "needs-you" });
  expect(kindLook("merge").label).toBe("Merge stopped");
  expect(kindLook("ready").label).toBe("Ready to review");
});

test("j and k (or the arrows) move within the list and stop at its ends", () => {
  expect(inboxKey("j", -1, 3)).toEqual({ kind: "select", index: 0 });
  expect(inboxKey("ArrowDown", 1, 3)).toEqual({ kind: "select", index: 2 });
  expect(inboxKey("j", 2, 3)).toEqual({ kind: "select", index: 2 });
  expect(inboxKey("k", 2, 3)).toEqual({ kind: "select", index: 1 });
  expect(inboxKey("ArrowUp", 0, 3)).toEqual({ kind: "select", index: 0 });
  expect(inboxKey("End", 0, 3)).toEqual({ kind: "select", index: 2 });
  expect(inboxKey("Home", 2, 3)).toEqual({ kind: "select", index: 0 });
});

test("Enter opens and a approves the chosen item; Esc closes; other keys are left alone", () => {
  expect(inboxKey("Enter", 1, 3)).toEqual({ kind: "open" });
  expect(inboxKey("a", 0, 3)).toEqual({ kind: "approve" });
  expect(inboxKey("Enter", -1, 3)).toBeNull();
  expect(inboxKey("Escape", -1, 0)).toEqual({ kind: "close" });
  expect(inboxKey("j", -1, 0)).toBeNull();
  expect(inboxKey("x", 0, 3)).toBeNull();
});

test("the chosen item stays chosen when the list changes around it", () => {
  const a = item({ task_id: "a" });
  const b = item({ task_id: "b" });
  const c = item({ task_id: "c" });
  expect(keepSelection(b, 1, [c, a, b])).toBe(2);
  // Gone: the same place, within the list.
  expect(keepSelection(b, 1, [a, c])).toBe(1);
  expect(keepSelection(b, 1, [a])).toBe(0);
  expect(keepSelection(b, 1, [])).toBe(-1);
  expect(itemKey(a)).not.toBe(itemKey(item({ task_id: "a", kind: "approval" })));
});
