import type { MergeProgress } from "../../protocol/MergeProgress";
import type { TaskState } from "../../protocol/TaskState";
import {
  baseWords,
  countWords,
  liveState,
  mergeActive,
  mergeFixable,
  mergeWords,
  overlapWords,
  restorableWords,
  taskStateLook,
} from "./taskWords";

const merge = (over: Partial<MergeProgress>): MergeProgress => ({ step: "queued", target: "main", ahead: 0, conflicts: [], ...over });

test("every state has words a person understands and the look of its kind", () => {
  const states: TaskState[] = ["queued", "running", "waiting", "ready", "merging", "merged", "failed", "discarded"];
  const labels = states.map((s) => taskStateLook(s).label);
  expect(labels).toEqual(["queued", "running", "waiting for you", "ready", "merging", "merged", "failed", "discarded"]);
  expect(taskStateLook("waiting").look).toBe("needs-you");
  expect(taskStateLook("running").look).toBe("running");
  expect(taskStateLook("failed").look).toBe("failed");
  expect(taskStateLook("merged").look).toBe("done");
  for (const s of states) expect(taskStateLook(s).tip).toMatch(/\.$/);
});

test("a base is a branch or, from a detached checkout, a short commit", () => {
  expect(baseWords("main")).toBe("from main");
  expect(baseWords("release/2.0")).toBe("from release/2.0");
  expect(baseWords("1a2b3c4d5e6f7a8b9c0d1a2b3c4d5e6f7a8b9c0d")).toBe("from commit 1a2b3c4");
});

test("lines changed are shown once there are some", () => {
  expect(countWords({ added: 0, removed: 0 })).toBeNull();
  expect(countWords({ added: 12, removed: 3 })).toBe("+12 −3");
  expect(countWords({ added: 0, removed: 4 })).toBe("+0 −4");
});

test("overlaps are one sentence per other task, naming its files and a likely conflict", () => {
  const words = overlapWords([
    { path: "src/app.ts", task_id: "t2", task_name: "fix-login", likely_conflict: false },
    { path: "src/b.ts", task_id: "t2", task_name: "fix-login", likely_conflict: true },
    { path: "README.md", task_id: "t3", task_name: "docs", likely_conflict: false },
  ]);
  expect(words).toEqual([
    { taskId: "t2", text: "also changed by fix-login: src/app.ts, src/b.ts (likely conflict)", conflict: true },
    { taskId: "t3", text: "also changed by docs: README.md", conflict: false },
  ]);
});

test("many overlapping files are counted past the first few", () => {
  const many = ["a", "b", "c", "d", "e"].map((path) => ({ path, task_id: "t2", task_name: "x", likely_conflict: false }));
  expect(overlapWords(many)[0]?.text).toBe("also changed by x: a, b, c and 2 more");
  expect(overlapWords([])).toEqual([]);
});

test("a merge is active until it lands or stops, and fixable when it stopped on a conflict or the check", () => {
  expect(mergeActive(undefined)).toBe(false);
  for (const step of ["queued", "committing", "rebasing", "checking", "landing"] as const) {
    expect(mergeActive(merge({ step }))).toBe(true);
  }
  for (const step of ["merged", "conflict", "check_failed", "refused", "cancelled"] as const) {
    expect(mergeActive(merge({ step }))).toBe(false);
  }
  expect(mergeFixable(merge({ step: "conflict" }))).toBe(true);
  expect(mergeFixable(merge({ step: "check_failed" }))).toBe(true);
  expect(mergeFixable(merge({ step: "refused" }))).toBe(false);
  expect(mergeFixable(undefined)).toBe(false);
});

test("where a merge stands reads as a sentence", () => {
  expect(mergeWords(merge({ step: "queued", ahead: 0 }))).toBe("Next to merge into main.");
  expect(mergeWords(merge({ step: "queued", ahead: 1 }))).toBe("Waiting: 1 merge before it.");
  expect(mergeWords(merge({ step: "queued", ahead: 3 }))).toBe("Waiting: 3 merges before it.");
  expect(mergeWords(merge({ step: "rebasing" }))).toBe("Bringing it up to date with main…");
  expect(mergeWords(merge({ step: "merged", commit: "0123456789abcdef" }))).toBe("Merged into main as 0123456.");
  expect(mergeWords(merge({ step: "conflict", conflicts: ["a.ts", "b.ts"] }))).toBe(
    "Stopped: it conflicts with main in 2 files. Nothing landed.",
  );
  expect(mergeWords(merge({ step: "check_failed" }))).toMatch(/check failed/);
});

test("a discarded task says until when it can be restored", () => {
  expect(restorableWords(undefined)).toMatch(/can be restored/);
  expect(restorableWords(Date.UTC(2026, 4, 3, 12))).toMatch(/2026/);
});

test("the open task's own events decide between running and waiting for you", () => {
  expect(liveState("running", { running: true, waiting: 1 })).toBe("waiting");
  expect(liveState("waiting", { running: true, waiting: 0 })).toBe("running");
  expect(liveState("running", undefined)).toBe("running");
  expect(liveState("merging", { running: false, waiting: 2 })).toBe("merging");
  expect(liveState("waiting", { running: false, waiting: 0 })).toBe("waiting");
});
