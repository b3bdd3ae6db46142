import type { HookRun } from "../protocol/HookRun";
import { blockedWords, blockingHook, hookFor, hookSentence, shortCommand, verdictWords } from "./hookWords";

function run(over: Partial<HookRun> = {}): HookRun {
  return {
    event: "PreToolUse", command: 'python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/block_rm.py', source: ".claude/settings.json",
    elapsed_ms: 35, verdict: "continued", message: null, ...over,
  };
}

test("a verdict reads in plain words, a block by what it blocked", () => {
  expect(verdictWords(run({ verdict: "blocked" }))).toBe("blocked");
  expect(verdictWords(run({ verdict: "allowed" }))).toBe("allowed");
  expect(verdictWords(run({ verdict: "asked" }))).toBe("asked you");
  expect(verdictWords(run({ verdict: "added_context" }))).toBe("added context");
  expect(verdictWords(run({ verdict: "failed" }))).toBe("failed");
  expect(verdictWords(run({ verdict: "timed_out" }))).toBe("timed out");
  expect(verdictWords(run({ verdict: "stopped" }))).toBe("stopped the agent");
  expect(verdictWords(run({ verdict: "continued" }))).toBe("ran");
  expect(verdictWords(run({ event: "UserPromptSubmit", verdict: "blocked" }))).toBe("blocked your message");
  expect(verdictWords(run({ event: "Stop", verdict: "blocked" }))).toBe("kept the agent going");
  expect(verdictWords(run({ event: "PostToolUse", verdict: "blocked" }))).toBe("told the agent");
});

test("what a hook left running and was ended is said after what it said", () => {
  const ended = "1 process it left running was ended: sleep";
  expect(hookSentence(run({ ended }))).toBe(`Hook PreToolUse \`python3 …/block_rm.py\` ran · 35 ms · ${ended}`);
  expect(hookSentence(run())).not.toContain("ended");
});

test("a command is shortened to its file names, and cut when still long", () => {
  expect(shortCommand('python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/block_rm.py')).toBe("python3 …/block_rm.py");
  expect(shortCommand("npx prettier --write")).toBe("npx prettier --write");
  const long = shortCommand("jq -r '.tool_input.command' | grep -q something-quite-long-here && exit 2");
  expect(long.length).toBe(40);
  expect(long.endsWith("…")).toBe(true);
});

test("a hook of no call reads as one sentence with its time and what it said", () => {
  expect(hookSentence(run({ event: "UserPromptSubmit", verdict: "added_context" }))).toBe(
    "Hook UserPromptSubmit `python3 …/block_rm.py` added context · 35 ms",
  );
  expect(hookSentence(run({ verdict: "failed", elapsed_ms: 1200, message: "exit 1: no such file" }))).toBe(
    "Hook PreToolUse `python3 …/block_rm.py` failed · 1.2 s: exit 1: no such file",
  );
});

test("only a PreToolUse or PermissionRequest block refuses the call, and says why", () => {
  expect(blockingHook([run(), run({ event: "PostToolUse", verdict: "blocked" })])).toBeNull();
  const block = run({ verdict: "blocked", message: "rm -rf is not allowed" });
  expect(blockingHook([run(), block])).toBe(block);
  expect(blockedWords(block)).toBe("Blocked by a hook: rm -rf is not allowed");
  expect(blockedWords(run({ verdict: "blocked" }))).toBe("Blocked by a hook (python3 …/block_rm.py)");
});

describe("hookFor", () => {
  it("names tools only for tool events", () => {
    expect(hookFor("PreToolUse", "Bash")).toBe("Bash");
    expect(hookFor("PostToolUse", null)).toBe("every tool");
    expect(hookFor("UserPromptSubmit", null)).toBe("—");
    expect(hookFor("SessionStart", null)).toBe("every start");
    expect(hookFor("SessionStart", "resume")).toBe("resume");
  });
});
