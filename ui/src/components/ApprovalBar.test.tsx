import { fireEvent, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { ApprovalBar } from "./ApprovalBar";

function setup(editable: string | null = "proposed\n") {
  const calls = { approve: vi.fn(), reject: vi.fn(), edit: vi.fn() };
  render(
    <ApprovalBar
      tool="write"
      reason="write a.txt"
      suggestedRule="write(a.txt)"
      editableContent={editable}
      refused={null}
      onApprove={calls.approve}
      onReject={calls.reject}
      onEditApprove={calls.edit}
    />,
  );
  return calls;
}

test("approve once", async () => {
  const calls = setup();
  await userEvent.click(screen.getByTestId("approve"));
  expect(calls.approve).toHaveBeenCalledWith({ kind: "once" });
});

test("reject carries the note to the agent", async () => {
  const calls = setup();
  await userEvent.click(screen.getByTestId("reject"));
  await userEvent.type(screen.getByTestId("reject-note"), "Not like this");
  await userEvent.click(screen.getByTestId("confirm-reject"));
  expect(calls.reject).toHaveBeenCalledWith("Not like this");
});

test("always allow shows the rule, lets it be edited, and picks a scope", async () => {
  const calls = setup();
  await userEvent.click(screen.getByTestId("always"));
  const rule = screen.getByTestId("rule-input");
  expect(rule).toHaveValue("write(a.txt)");
  await userEvent.clear(rule);
  await userEvent.type(rule, "write(*.txt)");
  await userEvent.selectOptions(screen.getByRole("combobox"), "workspace");
  await userEvent.click(screen.getByTestId("confirm-always"));
  expect(calls.approve).toHaveBeenCalledWith({ kind: "always", rule: "write(*.txt)", scope: "workspace" });
});

test("edit approves the user's version", async () => {
  const calls = setup();
  await userEvent.click(screen.getByTestId("edit"));
  const area = screen.getByTestId("edit-content");
  expect(area).toHaveValue("proposed\n");
  await userEvent.clear(area);
  await userEvent.type(area, "mine");
  await userEvent.click(screen.getByTestId("confirm-edit"));
  expect(calls.edit).toHaveBeenCalledWith("mine");
});

test("no Edit button when there is no full content to edit", () => {
  setup(null);
  expect(screen.queryByTestId("edit")).toBeNull();
});

test("Ctrl+Enter approves and Esc rejects from the keyboard", () => {
  const calls = setup();
  const bar = screen.getByTestId("approval-bar");
  fireEvent.keyDown(bar, { key: "Enter", ctrlKey: true });
  expect(calls.approve).toHaveBeenCalledWith({ kind: "once" });
  fireEvent.keyDown(bar, { key: "Escape" });
  expect(calls.reject).toHaveBeenCalledWith(null);
});

test("a fetch of a private address says so, in warning colours", () => {
  render(
    <ApprovalBar
      tool="http_fetch"
      reason="ask mode asks for this"
      suggestedRule="http_fetch(domain:169.254.169.254)"
      privateTarget={{ host: "169.254.169.254", address: "169.254.169.254", kind: "cloud_metadata" }}
      editableContent={null}
      refused={null}
      onApprove={vi.fn()}
      onReject={vi.fn()}
      onEditApprove={vi.fn()}
    />,
  );
  const note = screen.getByTestId("private-target");
  expect(note).toHaveClass("approval-private");
  expect(note).toHaveTextContent("Private address: 169.254.169.254 is a cloud metadata service");
});

test("a command no rule can allow offers no Always allow", () => {
  render(
    <ApprovalBar
      tool="bash"
      reason="ask mode asks for this; no rule can allow it: it runs a command substitution `$(…)`"
      suggestedRule={null}
      noRule
      editableContent={null}
      refused={null}
      onApprove={vi.fn()}
      onReject={vi.fn()}
      onEditApprove={vi.fn()}
    />,
  );
  expect(screen.queryByTestId("always")).toBeNull();
  expect(screen.getByTestId("approve")).toBeEnabled();
});

test("the bar says what it approves, with the line counts, and the engine's reason", () => {
  render(
    <ApprovalBar
      tool="write"
      what={{ words: "Write hello.txt", added: 60, removed: 2 }}
      reason="The “Auto-edit” mode asks for this"
      suggestedRule={null}
      editableContent={null}
      refused={null}
      onApprove={vi.fn()}
      onReject={vi.fn()}
      onEditApprove={vi.fn()}
    />,
  );
  expect(screen.getByTestId("approval-what")).toHaveTextContent("Write hello.txt+60 −2?");
  expect(screen.getByRole("group", { name: "Approve Write hello.txt" })).toHaveClass("approval-sticky");
  expect(screen.getByText("The “Auto-edit” mode asks for this")).toBeInTheDocument();
});
