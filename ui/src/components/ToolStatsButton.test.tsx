import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { ToolStatsButton } from "./ToolStatsButton";

const row = (tool: string, calls: number, failed: number, timed_out = 0) => ({
  tool,
  calls,
  succeeded: calls - failed,
  failed,
  timed_out,
  mean_ms: 120,
  p95_ms: 2500,
});

test("nothing shows before a tool ran", () => {
  const { container } = render(<ToolStatsButton stats={{}} />);
  expect(container).toBeEmptyDOMElement();
});

test("the count of tool uses opens a table of each tool's uses", async () => {
  render(<ToolStatsButton stats={{ read: row("read", 4, 0), bash: row("bash", 2, 1, 1) }} />);
  const button = screen.getByTestId("tool-stats-button");
  // "call" is the engine's word: the person reads "tool uses".
  expect(button).toHaveTextContent("6 tool uses · 1 failed");
  expect(button.title).not.toMatch(/\bcalls?\b/);
  await userEvent.click(button);
  const cells = screen
    .getAllByTestId("tool-stats-row")
    .map((r) => Array.from(r.querySelectorAll("td")).map((td) => td.textContent));
  expect(cells).toEqual([
    ["bash", "2", "1", "1", "120 ms", "2.5 s"],
    ["read", "4", "0", "0", "120 ms", "2.5 s"],
  ]);
});
