import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { RewindPlan } from "../protocol/RewindPlan";
import { RewindDialog } from "./RewindDialog";

const plan: RewindPlan = {
  before_message: 1,
  changes: [
    { path: "notes.txt", kind: "modified", diff: null },
    { path: "out/new.txt", kind: "deleted", diff: null },
    { path: "gone.txt", kind: "added", diff: null },
  ],
  changed_outside: ["notes.txt"],
  skipped: ["big.bin"],
};

test("the rewind dialog lists the files, warns about the user's own changes and confirms", async () => {
  const onConfirm = vi.fn();
  const onCancel = vi.fn();
  render(<RewindDialog plan={plan} onConfirm={onConfirm} onCancel={onCancel} />);
  expect(screen.getByRole("dialog")).toHaveTextContent("Rewind to before message 2?");
  expect(screen.getByTestId("rewind-files")).toHaveTextContent("notes.txt restored");
  expect(screen.getByTestId("rewind-files")).toHaveTextContent("out/new.txt removed");
  expect(screen.getByTestId("rewind-files")).toHaveTextContent("gone.txt brought back");
  expect(screen.getByTestId("rewind-outside")).toHaveTextContent("Overwritten too (changed since the agent last looked): notes.txt");
  expect(screen.getByRole("dialog")).toHaveTextContent("Left alone (not in checkpoints): big.bin");
  expect(screen.getByTestId("confirm-rewind")).toHaveFocus();
  await userEvent.click(screen.getByTestId("confirm-rewind"));
  expect(onConfirm).toHaveBeenCalledTimes(1);
  await userEvent.keyboard("{Escape}");
  expect(onCancel).toHaveBeenCalledTimes(1);
});

test("a rewind that changes nothing cannot be confirmed", () => {
  render(<RewindDialog plan={{ ...plan, changes: [], changed_outside: [] }} onConfirm={vi.fn()} onCancel={vi.fn()} />);
  expect(screen.getByTestId("confirm-rewind")).toBeDisabled();
  expect(screen.getByRole("dialog")).toHaveTextContent("nothing to change");
});

test("Tab stays in the rewind dialog and the focus goes back when it closes", async () => {
  const opener = document.createElement("button");
  document.body.append(opener);
  opener.focus();
  const { unmount } = render(<RewindDialog plan={plan} onConfirm={vi.fn()} onCancel={vi.fn()} />);
  const dialog = screen.getByRole("dialog");
  for (let i = 0; i < 4; i++) {
    await userEvent.tab();
    expect(dialog).toContainElement(document.activeElement as HTMLElement);
  }
  await userEvent.tab({ shift: true });
  expect(dialog).toContainElement(document.activeElement as HTMLElement);
  unmount();
  expect(opener).toHaveFocus();
  opener.remove();
});
