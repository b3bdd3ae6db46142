import { forgetHunkChoice, hunkApproval, skippedHunks, toggleHunk } from "./hunkChoice";

test("a choice belongs to one preview and is forgotten once answered", () => {
  toggleHunk("c", "h1", 2);
  toggleHunk("c", "h1", 0);
  expect([...skippedHunks("c", "h1")].sort()).toEqual([0, 2]);
  toggleHunk("c", "h1", 0);
  expect([...skippedHunks("c", "h1")]).toEqual([2]);
  // The file changed and the request came again: every hunk is ticked.
  expect(skippedHunks("c", "h2").size).toBe(0);
  forgetHunkChoice("c");
  expect(skippedHunks("c", "h1").size).toBe(0);
});

test("what an approval sends for the hunks left out", () => {
  expect(hunkApproval(3, new Set())).toEqual({ kind: "whole" });
  expect(hunkApproval(0, new Set([1]))).toEqual({ kind: "whole" });
  expect(hunkApproval(3, new Set([1]))).toEqual({ kind: "some", hunks: [0, 2] });
  expect(hunkApproval(2, new Set([0, 1]))).toEqual({ kind: "none" });
});
