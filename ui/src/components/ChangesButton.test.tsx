import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { ChangesButton } from "./ChangesButton";
import type { FileChanges } from "../session/changes";

const files: FileChanges[] = [
  { path: "src/a.rs", created: true, kept: 2, undone: 1, rewound: 0, partlyUndone: 1, added: 12, removed: 1, itemId: 7, callIds: ["c1", "c3"] },
  { path: "notes.txt", created: true, kept: 0, undone: 1, rewound: 0, partlyUndone: 0, added: 0, removed: 0, itemId: 4, callIds: [] },
];

test("the files changed are listed, and one is gone to from the list", async () => {
  const onGoTo = vi.fn();
  render(<ChangesButton files={files} onGoTo={onGoTo} />);
  const button = screen.getByTestId("changes-button");
  expect(button).toHaveTextContent("1 file changed");
  await userEvent.click(button);
  const rows = screen.getAllByTestId("changes-row");
  expect(rows.map((r) => r.textContent)).toEqual(["src/a.rsnew+12 −12 changes, 1 undone, 1 partly undone", "notes.txtundone"]);
  expect(rows[1]).toHaveClass("changes-undone");
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

test("a file with changes kept offers its diff of them all; an undone one does not", async () => {
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

test("a file a rewind took back reads as its card does: rewound, struck", async () => {
  const rewound: FileChanges[] = [
    { path: "gen/out.txt", created: true, kept: 0, undone: 0, rewound: 1, partlyUndone: 0, added: 0, removed: 0, itemId: 4, callIds: [] },
    { path: "a.txt", created: false, kept: 1, undone: 0, rewound: 2, partlyUndone: 0, added: 1, removed: 0, itemId: 6, callIds: ["c1"] },
  ];
  render(<ChangesButton files={rewound} onGoTo={() => {}} />);
  await userEvent.click(screen.getByTestId("changes-button"));
  const rows = screen.getAllByTestId("changes-row");
  expect(rows.map((r) => r.textContent)).toEqual(["gen/out.txtrewound", "a.txt+1 −02 rewound"]);
  expect(rows[0]).toHaveClass("changes-undone");
});
