import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { ChangesButton } from "./ChangesButton";
import type { FileChanges } from "../session/changes";

const base = { text: true, kept: 0, undone: 0, rewound: 0, partlyUndone: 0, byCommands: 0, callIds: [] as string[] };
const files: FileChanges[] = [
  { ...base, path: "src/a.rs", kind: "added", added: 12, removed: 1, kept: 2, undone: 1, partlyUndone: 1, itemId: 7, callIds: ["c1", "c3"] },
  { ...base, path: "out/log.txt", kind: "modified", added: 3, removed: 0, byCommands: 1, itemId: 9 },
  { ...base, path: "img.png", kind: "deleted", added: 0, removed: 0, text: false, byCommands: 2, itemId: 9 },
];

test("every file the session changed is counted and listed, and one is gone to from the list", async () => {
  const onGoTo = vi.fn();
  render(<ChangesButton files={files} onGoTo={onGoTo} />);
  const button = screen.getByTestId("changes-button");
  expect(button).toHaveTextContent("3 files changed");
  await userEvent.click(button);
  const rows = screen.getAllByTestId("changes-row");
  expect(rows.map((r) => r.textContent)).toEqual([
    "src/a.rsnew+12 −12 changes, 1 undone, 1 partly undone",
    "out/log.txt+3 −0by a command",
    "img.pngdeletedbinaryby 2 commands",
  ]);
  await userEvent.click(rows[0]!);
  expect(onGoTo).toHaveBeenCalledWith(7);
  expect(screen.queryByTestId("changes-panel")).toBeNull();
  // Esc closes the list too.
  await userEvent.click(button);
  await userEvent.keyboard("{Escape}");
  expect(screen.queryByTestId("changes-panel")).toBeNull();
});

test("nothing changed, nothing shown", () => {
  render(<ChangesButton files={[]} onGoTo={() => {}} />);
  expect(screen.queryByTestId("changes-button")).toBeNull();
});

test("a file changed only by file tools offers its net diff; one a command changed does not", async () => {
  const onShowNet = vi.fn();
  const { rerender } = render(<ChangesButton files={files} onGoTo={() => {}} />);
  await userEvent.click(screen.getByTestId("changes-button"));
  expect(screen.queryByTestId("changes-net")).toBeNull();
  rerender(<ChangesButton files={files} onGoTo={() => {}} onShowNet={onShowNet} />);
  const diffs = screen.getAllByTestId("changes-net");
  expect(diffs).toHaveLength(1);
  await userEvent.click(diffs[0]!);
  expect(onShowNet).toHaveBeenCalledWith(files[0]);
  expect(screen.queryByTestId("changes-panel")).toBeNull();
});
