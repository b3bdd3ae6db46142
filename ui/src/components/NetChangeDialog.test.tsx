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
  const { rerender } = render(<NetChangeDialog view={{ path: "src/a.rs", callIds: ["c1", "c2", "c3"], state: "loading" }} onClose={onClose} />);
  expect(screen.getByRole("dialog")).toHaveTextContent("Net change src/a.rs");
  expect(screen.getByRole("status")).toHaveTextContent("Reading the file");
  expect(screen.getByTestId("net-change-close")).toHaveFocus();
  rerender(
    <NetChangeDialog
      view={{ path: "src/a.rs", callIds: ["c1", "c2", "c3"], state: "ready", change: { diff, since_call_id: "c1" } }}
      onClose={onClose}
    />,
  );
  expect(screen.getByText("before")).toBeInTheDocument();
  expect(screen.getByText("now")).toBeInTheDocument();
  expect(screen.getByRole("dialog")).toHaveTextContent("From before the first of 3 changes → the file on disk");
  await userEvent.keyboard("{Escape}");
  expect(onClose).toHaveBeenCalledTimes(1);
  await userEvent.click(screen.getByTestId("net-change-close"));
  expect(onClose).toHaveBeenCalledTimes(2);
});

test("no difference and a refusal are said plainly", () => {
  const same: FileDiff = { ...diff, added: 0, removed: 0, hunks: [] };
  const { rerender } = render(
    <NetChangeDialog view={{ path: "a", callIds: ["c1"], state: "ready", change: { diff: same, since_call_id: "c1" } }} onClose={() => {}} />,
  );
  expect(screen.getByTestId("net-change-none")).toHaveTextContent("No difference");
  rerender(<NetChangeDialog view={{ path: "a", callIds: ["c1"], state: "failed", error: "no longer kept" }} onClose={() => {}} />);
  expect(screen.getByRole("alert")).toHaveTextContent("no longer kept");
});

test("Tab stays in the dialog and the focus goes back when it closes", async () => {
  const opener = document.createElement("button");
  document.body.append(opener);
  opener.focus();
  const { unmount } = render(
    <NetChangeDialog view={{ path: "src/a.rs", callIds: ["c1", "c2"], state: "ready", change: { diff, since_call_id: "c1" } }} onClose={() => {}} />,
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

test("the dialog names the change its diff starts from when older ones are no longer kept", () => {
  const view = (since: string, callIds: string[]) => ({ path: "a", callIds, state: "ready" as const, change: { diff, since_call_id: since } });
  const { rerender } = render(<NetChangeDialog view={view("c3", ["c1", "c2", "c3", "c4"])} onClose={() => {}} />);
  expect(screen.getByRole("dialog")).toHaveTextContent(
    "From before change 3 of 4 (the 2 older ones are no longer kept) → the file on disk",
  );
  rerender(<NetChangeDialog view={view("c2", ["c1", "c2"])} onClose={() => {}} />);
  expect(screen.getByRole("dialog")).toHaveTextContent("before change 2 of 2 (the older one is no longer kept)");
  rerender(<NetChangeDialog view={view("c1", ["c1"])} onClose={() => {}} />);
  expect(screen.getByRole("dialog")).toHaveTextContent("From before the change → the file on disk");
});
