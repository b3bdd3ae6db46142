// A command's card says the command once and how it went once, with nothing written for the model.
import { render, screen, within } from "@testing-library/react";
import type { CallView } from "../session/state";
import { newCall } from "../session/state";
import { ToolCard } from "./ToolCard";

const actions = { approve: vi.fn(), reject: vi.fn(), editApprove: vi.fn(), approveHunks: vi.fn() };

function bash(over: Partial<CallView>): CallView {
  return {
    ...newCall("b1", "bash", "succeeded", null, "execute", { as: "command", command: "command" }),
    args: { command: "for i in 1 2 3; do echo tick $i; done" },
    title: "for i in 1 2 3; do echo tick $i; done",
    ...over,
  };
}

/** How many times the card's text holds `text`. */
function times(text: string): number {
  return screen.getByTestId("tool-card").textContent!.split(text).length - 1;
}

test("waiting for approval, the command shows once: the bar asks about it without saying it again", () => {
  render(
    <ToolCard
      call={bash({
        state: "awaiting_approval",
        approval: { previewHash: "h", reason: "Commands ask in this mode.", preview: null, suggestedRule: "bash(for:*)" },
      })}
      actions={actions}
    />,
  );
  expect(times("for i in 1 2 3; do echo tick $i; done")).toBe(1);
  expect(screen.getByTestId("approval-what")).toHaveTextContent("Run this command?");
});

test("running, the tip that only repeats the command is not shown; one the command does not say is", () => {
  const { rerender } = render(
    <ToolCard call={bash({ state: "executing", status: "Running `for i in 1 2 3; do echo tick $i; done`…", output: "tick 1\n" })} actions={actions} />,
  );
  expect(times("for i in 1 2 3")).toBe(1);
  expect(screen.queryByText(/Running `/)).toBeNull();
  expect(screen.getByRole("log")).toHaveTextContent("tick 1");
  rerender(<ToolCard call={bash({ state: "executing", status: "Waiting for the lock on the build directory" })} actions={actions} />);
  expect(screen.getByText("Waiting for the lock on the build directory")).toBeInTheDocument();
});

test("a long command, named by the agent's description, shows in full once under it", () => {
  render(
    <ToolCard
      call={bash({ state: "executing", title: "Print three ticks", status: "Print three ticks…" })}
      actions={actions}
    />,
  );
  expect(times("Print three ticks")).toBe(1);
  expect(screen.getByText("$ for i in 1 2 3; do echo tick $i; done")).toBeInTheDocument();
});

test("a command with no output says so in the person's words, and its failure once, in red", () => {
  const { unmount } = render(
    <ToolCard
      call={bash({ summary: "true — exit 0 in 0.0 s", result: "Exit code 0. Duration 0.0 s.\n(no output)\n" })}
      actions={actions}
      latest
    />,
  );
  expect(screen.getByTestId("no-output")).toHaveTextContent("No output.");
  expect(screen.queryByText(/\(no output\)|Exit code/)).toBeNull();
  unmount();
  render(
    <ToolCard
      call={bash({ state: "failed", isError: true, summary: "false — exit 1 in 0.2 s", output: "boom\n", result: "Exit code 1. Duration 0.2 s.\nboom\n" })}
      actions={actions}
    />,
  );
  const card = screen.getByTestId("tool-card");
  expect(card).toHaveClass("look-failed");
  expect(screen.getByTestId("tool-state")).toHaveTextContent(/^exit 1 · 0\.2 s$/);
  expect(times("boom")).toBe(1);
  expect(screen.queryByText(/Exit code/)).toBeNull();
});

test("a session opened again shows the output the model got, without the lines for the model", () => {
  render(
    <ToolCard
      call={bash({ summary: "for — exit 0 in 2.5 s", output: "", result: "Exit code 0. Duration 2.5 s.\ntick 1\ntick 2\n" })}
      actions={actions}
      latest
    />,
  );
  const log = screen.getByRole("log");
  expect(log).toHaveTextContent("tick 1 tick 2");
  expect(within(screen.getByTestId("tool-card")).queryByText(/Exit code|Duration/)).toBeNull();
});

test("the header never cuts the outcome: it is the pill's, apart from the command that may ellipsise", () => {
  render(<ToolCard call={bash({ summary: "for i in 1 2 3; do echo tick $i; done — exit 0 in 0.3 s", output: "x\n", result: "Exit code 0. Duration 0.3 s.\nx\n" })} actions={actions} />);
  const summary = screen.getByTestId("tool-card").querySelector(".tool-summary")!;
  expect(summary).toHaveTextContent(/^for i in 1 2 3; do echo tick \$i; done$/);
  expect(screen.getByTestId("tool-state")).toHaveTextContent(/^exit 0 · 0\.3 s$/);
});
