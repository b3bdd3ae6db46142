import type { DiffLine } from "../../protocol/DiffLine";
import { commentedLine, fixMergeRequest, OUTPUT_TAIL, reviewComment, sendBackNote } from "./taskMessages";

const line = (tag: DiffLine["tag"], old_line: number | null, new_line: number | null, text: string): DiffLine => ({
  tag,
  old_line,
  new_line,
  spans: [{ text, changed: false }],
});

test("a comment names the file, the line and quotes it", () => {
  const added = line("added", null, 12, "  const x = 1;\n");
  expect(reviewComment("src/app.ts", added, " Use a better name. ")).toBe(
    "Review comment on `src/app.ts` line 12:\n> const x = 1;\n\nUse a better name.",
  );
});

test("a removed line is named by its old number", () => {
  const removed = line("removed", 7, null, "old();\n");
  expect(commentedLine(removed)).toEqual({ number: 7, removed: true });
  expect(reviewComment("a.ts", removed, "Why?")).toMatch(/^Review comment on `a.ts` removed line 7 \(old numbering\):/);
  expect(commentedLine(line("context", 3, 4, "x"))).toEqual({ number: 4, removed: false });
});

test("sending back carries the note", () => {
  expect(sendBackNote("  Add a test.\n")).toMatch(/sending them back.*\n\nAdd a test\.$/s);
});

test("a conflict asks the agent to resolve the listed files and finish", () => {
  const text = fixMergeRequest({ step: "conflict", target: "main", ahead: 0, conflicts: ["src/a.ts", "src/b.ts"] });
  expect(text).toContain("stopped on conflicts in these files:\n- src/a.ts\n- src/b.ts");
  expect(text).toMatch(/resolve the conflicts.*finish\.$/s);
});

test("a failed check sends the end of its output", () => {
  const long = "x".repeat(OUTPUT_TAIL) + "\nerror: test failed";
  const text = fixMergeRequest({ step: "check_failed", target: "main", ahead: 0, conflicts: [], output: long }) ?? "";
  expect(text).toContain("error: test failed\n```");
  expect(text.length).toBeLessThan(OUTPUT_TAIL + 400);
  expect(text).toMatch(/Please fix the cause/);
});

test("nothing to fix for a merge stopped otherwise", () => {
  expect(fixMergeRequest({ step: "refused", target: "main", ahead: 0, conflicts: [], message: "dirty" })).toBeNull();
  expect(fixMergeRequest({ step: "merged", target: "main", ahead: 0, conflicts: [] })).toBeNull();
});
