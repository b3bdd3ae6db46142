import { branchOf, count, LABELS, WORDS } from "./glossary";

test("a count takes its noun's form", () => {
  expect(count(1, WORDS.toolUse)).toBe("1 tool use");
  expect(count(8, WORDS.toolUse)).toBe("8 tool uses");
  expect(count(0, WORDS.fileChange)).toBe("0 file changes");
  expect(count(2, WORDS.branch)).toBe("2 branches");
});

test("labels are a few words, not sentences, and none says call", () => {
  for (const label of Object.values(LABELS)) {
    expect(label.split(" ").length).toBeLessThanOrEqual(3);
    expect(label).not.toMatch(/[.?!:]$/);
    expect(label.toLowerCase()).not.toMatch(/\bcalls?\b/);
  }
  for (const word of Object.values(WORDS)) expect(`${word.one} ${word.many}`).not.toMatch(/\bcalls?\b/);
});

test("the branch action and a branch's row use one word", () => {
  expect(LABELS.branchFromHere.toLowerCase()).toContain(WORDS.branch.one);
  expect(LABELS.branch.toLowerCase()).toBe(WORDS.branch.one);
  expect(branchOf("Plan the work")).toBe("Branch of “Plan the work”");
});
