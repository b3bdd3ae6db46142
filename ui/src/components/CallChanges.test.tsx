import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { FileDiff } from "../protocol/FileDiff";
import { CallChanges } from "./CallChanges";

const diff: FileDiff = {
  path: "notes.txt",
  kind: "modify",
  added: 1,
  removed: 0,
  hunks: [
    {
      old_start: 1,
      old_lines: 2,
      new_start: 1,
      new_lines: 3,
      lines: [
        { tag: "context", old_line: 1, new_line: 1, spans: [{ text: "alpha", changed: false }] },
        { tag: "context", old_line: 2, new_line: 2, spans: [{ text: "beta", changed: false }] },
        { tag: "added", old_line: null, new_line: 3, spans: [{ text: "gamma", changed: false }] },
      ],
    },
  ],
  omitted_hunks: 0,
  approximate: false,
  lines_left_out: 0,
};

test("a command's changes list each file with its kind and open to its diff", async () => {
  render(
    <CallChanges
      changes={[
        { path: "notes.txt", kind: "modified", diff },
        { path: "old.txt", kind: "deleted", diff: null },
      ]}
    />,
  );
  const list = screen.getByTestId("call-changes");
  expect(list).toHaveTextContent("Changed 2 files in the workspace");
  expect(list).toHaveTextContent("notes.txt +1 −0");
  await userEvent.click(screen.getByText("notes.txt", { selector: "summary code" }));
  expect(await screen.findByText("gamma")).toBeInTheDocument();
});

test("a command that changed nothing says so", () => {
  render(<CallChanges changes={[]} />);
  expect(screen.getByTestId("call-changes")).toHaveTextContent("Changed no files");
});

test("rewound, the list and each diff are faded under one mark, with nothing said of what it did", async () => {
  render(
    <CallChanges
      changes={[{ path: "notes.txt", kind: "modified", diff }]}
      change={{ disk: "rewound", faded: true, mark: "Rewound" }}
    />,
  );
  const list = screen.getByTestId("call-changes");
  expect(list).toHaveClass("change-faded");
  expect(list).toHaveAttribute("data-disk", "rewound");
  expect(list).toHaveTextContent("Changed 1 file in the workspace Rewound");
  await userEvent.click(screen.getByText("notes.txt", { selector: "summary code" }));
  const shown = await screen.findByRole("region", { name: "Diff of notes.txt, rewound" });
  expect(shown).toHaveClass("diff-faded");
  expect(shown).not.toHaveTextContent("modified");
  expect(screen.getByTestId("diff-mark")).toHaveTextContent("Rewound");
});
