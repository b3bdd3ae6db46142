// An external tool's card names the tool with its server, has its own icon, and folds its
// parameters away; a card with no title from the engine says what it acts on from its arguments.
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { CallView } from "../session/state";
import { newCall } from "../session/state";
import { ToolCard } from "./ToolCard";
import { EXTERNAL_ICON } from "./toolName";
import { toolIcon } from "./toolSummary";

const actions = { approve: vi.fn(), reject: vi.fn(), editApprove: vi.fn(), approveHunks: vi.fn() };

function mcp(over: Partial<CallView>): CallView {
  return { ...newCall("m1", "everything__echo", "succeeded", null, "read"), title: "", args: { message: "hello from MCP" }, result: "Echo: hello from MCP", ...over };
}

test("an MCP tool is named by its name and server, with an external tool's icon, not the read icon", () => {
  render(<ToolCard call={mcp({})} actions={actions} />);
  const card = screen.getByTestId("tool-card");
  expect(card.querySelector(".tool-name")).toHaveTextContent(/^echo · everything$/);
  expect(card.querySelector(".tool-icon")).toHaveTextContent(EXTERNAL_ICON);
  expect(card.querySelector(".tool-icon")).not.toHaveTextContent(toolIcon("read"));
  expect(card).not.toHaveTextContent("everything__echo");
  // What it acts on, from its one argument.
  expect(card.querySelector(".tool-summary")).toHaveTextContent("hello from MCP");
});

test("its parameters are folded by name, not raw JSON; open while it waits for the person", async () => {
  const args = { a: 2, b: 3, options: { round: true } };
  const { rerender } = render(<ToolCard call={mcp({ name: "everything__add", kind: "other", args, result: "5" })} actions={actions} latest />);
  const params = screen.getByTestId("tool-params");
  expect(params).not.toHaveAttribute("open");
  expect(screen.queryByText(/"a": 2/)).toBeNull();
  await userEvent.click(screen.getByText("Parameters"));
  expect(params).toHaveAttribute("open");
  expect(params.querySelector("dt")).toHaveTextContent("a");
  rerender(
    <ToolCard
      call={mcp({
        id: "m2", name: "everything__add", kind: "other", args, state: "awaiting_approval", result: null,
        approval: { previewHash: "h", reason: "External tools ask.", preview: null, suggestedRule: null },
      })}
      actions={actions}
      latest
    />,
  );
  expect(screen.getByTestId("tool-params")).toHaveAttribute("open");
  expect(screen.getByTestId("approval-what")).toHaveTextContent("Use add · everything?");
});

test("a stored read with no title or kind (stored before they were kept) still names its file", () => {
  render(
    <ToolCard
      call={{ ...newCall("r1", "read", "succeeded", null), args: { path: "file_3.rs" }, result: "1\tfn f3() {}" }}
      actions={actions}
    />,
  );
  expect(screen.getByTestId("tool-card").querySelector(".tool-summary")).toHaveTextContent("file_3.rs");
});
