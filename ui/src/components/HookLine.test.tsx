import { render, screen } from "@testing-library/react";
import { HookLine } from "./HookLine";

test("a hook of no call is a quiet line in the conversation, its whole command in the tooltip", () => {
  render(
    <HookLine
      run={{
        event: "UserPromptSubmit", command: "python3 /home/me/.claude/hooks/add_context.py", source: "~/.claude/settings.json",
        elapsed_ms: 35, verdict: "added_context", message: null,
      }}
      standalone
    />,
  );
  const line = screen.getByRole("status");
  expect(line).toHaveTextContent("Hook UserPromptSubmit python3 …/add_context.py added context · 35 ms");
  expect(line.querySelector(".hook-command")).toHaveAttribute(
    "title",
    "python3 /home/me/.claude/hooks/add_context.py\nfrom ~/.claude/settings.json",
  );
  expect(line.querySelector(".hook-warn")).toBeNull();
});

test("a hook that timed out is marked and says what it printed", () => {
  render(
    <HookLine
      run={{ event: "Stop", command: "./slow.sh", source: ".claude/settings.json", elapsed_ms: 60_000, verdict: "timed_out", message: "waiting for lock" }}
    />,
  );
  const line = screen.getByTestId("hook-line");
  expect(line).toHaveTextContent("Stop ./slow.sh timed out · 1 min 0 s: waiting for lock");
  expect(line.querySelector(".hook-warn")).toHaveTextContent("timed out");
});
