import { commandOutcome, commandOutput, restatesCommand } from "./commandOutcome";

test("a finished command's outcome and time, once, for its header", () => {
  expect(commandOutcome("cargo test — exit 0 in 0.3 s")).toEqual({ outcome: "exit 0", words: "exit 0 · 0.3 s" });
  expect(commandOutcome("Run the tests — exit 101 in 3.0 s")?.words).toBe("exit 101 · 3.0 s");
  expect(commandOutcome("sleep 700 — timed out in 600.0 s")?.words).toBe("timed out · 10 min 0 s");
  expect(commandOutcome("yes — cancelled in 2.1 s")?.words).toBe("cancelled · 2.1 s");
  expect(commandOutcome("kill -9 $$ — signal 9 in 0.0 s")?.words).toBe("signal 9 · 0.0 s");
  // A label with a dash of its own: the last one is the outcome's.
  expect(commandOutcome("a — b — exit 2 in 1.5 s")?.words).toBe("exit 2 · 1.5 s");
  expect(commandOutcome("exit 0 in 0.3 s")?.words).toBe("exit 0 · 0.3 s");
  expect(commandOutcome("Read a.txt")).toBeNull();
  expect(commandOutcome("make exit 0 in 0.3 s")).toBeNull();
  expect(commandOutcome(null)).toBeNull();
});

test("a tip that only says the command again is known as such", () => {
  expect(restatesCommand("Running `npm ci`…", "npm ci")).toBe(true);
  expect(restatesCommand("Installing dependencies…", "Installing dependencies")).toBe(true);
  expect(restatesCommand("Waiting for the lock", "npm ci")).toBe(false);
  expect(restatesCommand("Running `npm ci`…", null)).toBe(false);
});

test("the output the model got, without its status line and its (no output)", () => {
  expect(commandOutput("Exit code 0. Duration 0.3 s.\ntick 1\ntick 2\n")).toBe("tick 1\ntick 2\n");
  expect(commandOutput("Exit code 0. Duration 0.0 s.\n(no output)\n")).toBe("");
  expect(commandOutput("Exit code 3. Duration 1.0 s.\nboom\n")).toBe("boom\n");
  expect(commandOutput("Timed out after 1000 ms; the command and its children were killed. Duration 1.0 s.\npartial\n")).toBe("partial\n");
  expect(commandOutput("Cancelled; the command and its children were killed. Duration 2.0 s.\n(no output)\n")).toBe("");
  expect(commandOutput("Killed by signal 9. Duration 0.1 s.\n")).toBe("");
  // Not the command's form: not taken apart.
  expect(commandOutput("NOT_FOUND: no such file")).toBeNull();
  expect(commandOutput(null)).toBeNull();
});
