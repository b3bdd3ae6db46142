import type { SlashEntry } from "../protocol/SlashEntry";
import { awaitingArguments, slashAt, slashOptions, windowBuiltIn, withAgentCommands, withSlashName, withWindowBuiltIns } from "./slash";

const entries: SlashEntry[] = withWindowBuiltIns([
  { name: "review", kind: "command", description: "Review a pull request", argument_hint: "[pr-number]", source: ".claude/commands/review.md" },
  { name: "pdf-report", kind: "skill", description: "Write a PDF report", argument_hint: null, source: ".claude/skills/pdf-report/SKILL.md" },
  { name: "changelog", kind: "skill", description: "Draft the changelog", argument_hint: null, source: ".claude/skills/changelog/SKILL.md" },
  { name: "compact", kind: "built_in", description: "The engine's own words", argument_hint: null, source: null },
]);

test("the menu opens only for / at the start, while the caret is in its first word", () => {
  expect(slashAt("/", 1)).toEqual({ query: "" });
  expect(slashAt("/rev", 4)).toEqual({ query: "rev" });
  expect(slashAt("/review 12", 10)).toBeNull();
  expect(slashAt("a /review", 9)).toBeNull();
  expect(slashAt(" /review", 8)).toBeNull();
});

test("built-ins come first, then commands, then skills; the catalog's word wins for a built-in", () => {
  expect(slashOptions(entries, "").map((e) => `${e.kind} ${e.name}`)).toEqual([
    "built_in clear",
    "built_in compact",
    "built_in mode",
    "built_in model",
    "built_in retry",
    "command review",
    "skill changelog",
    "skill pdf-report",
  ]);
  expect(entries.filter((e) => e.name === "compact")).toEqual([expect.objectContaining({ description: "The engine's own words" })]);
});

test("typing filters by name, names that start with it first", () => {
  expect(slashOptions(entries, "RE").map((e) => e.name)).toEqual(["retry", "review", "pdf-report"]);
  expect(slashOptions(entries, "c").map((e) => e.name)).toEqual(["clear", "compact", "changelog"]);
  expect(slashOptions(entries, "zzz")).toEqual([]);
});

test("picking puts /name and keeps what followed; a bare built-in of the window is run, not sent", () => {
  expect(withSlashName("/rev", "review")).toBe("/review ");
  expect(withSlashName("/rev 12", "review")).toBe("/review 12");
  expect(windowBuiltIn("/compact ")).toBe("compact");
  expect(windowBuiltIn("/model")).toBe("model");
  expect(windowBuiltIn("/compact now please")).toBeNull();
  expect(windowBuiltIn("/review 12")).toBeNull();
  expect(windowBuiltIn("compact")).toBeNull();
});

test("the argument hint shows while only /name is written", () => {
  expect(awaitingArguments("/review ", entries)?.argument_hint).toBe("[pr-number]");
  expect(awaitingArguments("/review 12", entries)).toBeNull();
  expect(awaitingArguments("/changelog ", entries)).toBeNull();
});

test("the external agent's own commands come first and their names are the agent's", () => {
  const agent: SlashEntry[] = [
    { name: "compact", kind: "agent", description: "The agent's own compaction", argument_hint: null, source: null },
    { name: "init", kind: "agent", description: "Write CLAUDE.md", argument_hint: null, source: null },
  ];
  const merged = withAgentCommands(entries, agent);
  expect(slashOptions(merged, "").slice(0, 3).map((e) => `${e.kind} ${e.name}`)).toEqual(["agent compact", "agent init", "built_in clear"]);
  expect(merged.filter((e) => e.name === "compact")).toHaveLength(1);
  // Sent to the agent, not run by the window; a built-in the agent lacks still runs here.
  expect(windowBuiltIn("/compact", agent)).toBeNull();
  expect(windowBuiltIn("/clear", agent)).toBe("clear");
  expect(withAgentCommands(entries, [])).toEqual(entries);
});
