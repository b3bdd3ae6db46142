import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { FileDiff } from "../protocol/FileDiff";
import { NetChangeDialog } from "./NetChangeDialog";

const diff: FileDiff = {
  path: "src/a.rs", kind: "modify", added: 1, removed: 1, omitted_hunks: 0, approximate: false, lines_left_out: 0,
  hunks: [
    {
      old_start: 1, old_lines: 1, new_start: 1, new_lines: 1,
      lines: [
        { tag: "removed", old_line: 1, new_line: null, spans: [{ text: "before", changed: true }] },
        { tag: "added", old_line: null, new_line: 1, spans: [{ text: "now", changed: true }] },
      ],
    },
  ],
};

test("the dialog says what it compares, shows the diff, and closes with Esc or Close", async () => {
  const onClose = vi.fn();
  const { rerender } = render(<NetChangeDialog view={{ path: "src/a.rs", changes: 3, state: "loading" }} onClose={onClose} />);
  expect(screen.getByRole("dialog")).toHaveTextContent("src/a.rs: what the agent's changes amount to now");
  expect(screen.getByRole("status")).toHaveTextContent("Reading the file");
  expect(screen.getByTestId("net-change-close")).toHaveFocus();
  rerender(
    <NetChangeDialog
      view={{ path: "src/a.rs", changes: 3, state: "ready", change: { diff, since_call_id: "c1" } }}
      onClose={onClose}
    />,
  );
  expect(screen.getByText("before")).toBeInTheDocument();
  expect(screen.getByText("now")).toBeInTheDocument();
  await userEvent.keyboard("{Escape}");
  expect(onClose).toHaveBeenCalledTimes(1);
  await userEvent.click(screen.getByTestId("net-change-close"));
  expect(onClose).toHaveBeenCalledTimes(2);
});

test("no difference and a refusal are said plainly", () => {
  const same: FileDiff = { ...diff, added: 0, removed: 0, hunks: [] };
  const { rerender } = render(
    <NetChangeDialog view={{ path: "a", changes: 1, state: "ready", change: { diff: same, since_call_id: "c1" } }} onClose={() => {}} />,
  );
  expect(screen.getByTestId("net-change-none")).toHaveTextContent("No difference");
  rerender(<NetChangeDialog view={{ path: "a", changes: 1, state: "failed", error: "no longer kept" }} onClose={() => {}} />);
  expect(screen.getByRole("alert")).toHaveTextContent("no longer kept");
});

test("Tab stays in the dialog and the focus goes back when it closes", async () => {
  const opener = document.createElement("button");
  document.body.append(opener);
  opener.focus();
  const { unmount } = render(
    <NetChangeDialog view={{ path: "src/a.rs", changes: 2, state: "ready", change: { diff, since_call_id: "c1" } }} onClose={() => {}} />,
  );
  const dialog = screen.getByRole("dialog");
  expect(dialog).toContainElement(document.activeElement as HTMLElement);
  for (let i = 0; i < 8; i++) {
    await userEvent.tab();
    expect(dialog).toContainElement(document.activeElement as HTMLElement);
  }
  await userEvent.tab({ shift: true });
  expect(dialog).toContainElement(document.activeElement as HTMLElement);
  unmount();
  expect(opener).toHaveFocus();
  opener.remove();
});
