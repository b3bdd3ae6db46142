import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { Backend } from "../../backend";
import type { FileDiff } from "../../protocol/FileDiff";
import type { HunkRef } from "../../protocol/HunkRef";
import type { TaskChange } from "../../protocol/TaskChange";
import { sampleTask, taskCommands } from "../../test/taskBackend";
import { ReviewDialog } from "./ReviewDialog";

const span = (text: string) => [{ text, changed: false }];

const app: FileDiff = {
  path: "src/app.ts",
  kind: "modify",
  added: 1,
  removed: 1,
  omitted_hunks: 0,
  approximate: false,
  lines_left_out: 0,
  hunks: [
    {
      old_start: 1,
      old_lines: 2,
      new_start: 1,
      new_lines: 2,
      lines: [
        { tag: "context", old_line: 1, new_line: 1, spans: span("import x;") },
        { tag: "removed", old_line: 2, new_line: null, spans: span("login();") },
        { tag: "added", old_line: null, new_line: 2, spans: span("await login();") },
      ],
    },
  ],
};

const readme: FileDiff = {
  path: "README.md",
  kind: "create",
  added: 1,
  removed: 0,
  omitted_hunks: 0,
  approximate: false,
  lines_left_out: 0,
  hunks: [{ old_start: 0, old_lines: 0, new_start: 1, new_lines: 1, lines: [{ tag: "added", old_line: null, new_line: 1, spans: span("# Hi") }] }],
};

function setup() {
  const dropped: [string, string, HunkRef[] | null][] = [];
  const sent: string[] = [];
  let closed = 0;
  let changed = 0;
  let files = [app, readme];
  const change = (): TaskChange => ({ task_id: "t1", base_commit: "0123456789", files });
  const backend = {
    ...taskCommands(),
    taskChange: async () => change(),
    dropTaskChange: async (id: string, path: string, hunks: HunkRef[] | null) => {
      dropped.push([id, path, hunks]);
      files = files.filter((f) => f.path !== path);
      return change();
    },
  } as unknown as Backend;
  render(
    <ReviewDialog
      backend={backend}
      task={sampleTask({ state: "ready" })}
      send={async (text) => {
        sent.push(text);
      }}
      onClose={() => (closed += 1)}
      onChanged={() => (changed += 1)}
    />,
  );
  return { dropped, sent, closed: () => closed, changed: () => changed };
}

test("the review shows every file of the change in the diff view", async () => {
  setup();
  const files = await screen.findAllByTestId("review-file");
  expect(files.map((f) => f.getAttribute("data-path"))).toEqual(["src/app.ts", "README.md"]);
  expect(screen.getByRole("dialog", { name: "Changes of fix-login" })).toHaveTextContent("since 0123456: 2 files");
  expect(within(files[0]!).getByText("await login();")).toBeInTheDocument();
  expect(screen.getByTestId("review-close")).toHaveFocus();
});

test("Drop file asks first, then reverts the whole file", async () => {
  const s = setup();
  await userEvent.click(await screen.findByRole("button", { name: "Drop file src/app.ts" }));
  expect(s.dropped).toEqual([]);
  await userEvent.click(screen.getByTestId("confirm-drop-file"));
  await waitFor(() => expect(s.dropped).toEqual([["t1", "src/app.ts", null]]));
  await waitFor(() => expect(screen.getAllByTestId("review-file")).toHaveLength(1));
  expect(screen.getByTestId("review-said")).toHaveTextContent("Dropped src/app.ts.");
  expect(s.changed()).toBe(1);
});

test("Drop on a part asks first, then reverts that part as the diff shows it", async () => {
  const s = setup();
  const file = (await screen.findAllByTestId("review-file"))[0]!;
  await userEvent.click(within(file).getByRole("button", { name: "Drop" }));
  expect(within(file).getByText("Drop this part of the change?")).toBeInTheDocument();
  await userEvent.click(within(file).getByRole("button", { name: "Drop part" }));
  await waitFor(() => expect(s.dropped).toHaveLength(1));
  expect(s.dropped[0]![2]).toEqual([
    { old_start: 1, old_lines: 2, new_start: 1, new_lines: 2, lines: " import x;\n-login();\n+await login();\n" },
  ]);
});

test("a comment on a line goes to the agent naming the file and the line", async () => {
  const s = setup();
  await userEvent.click(await screen.findByRole("button", { name: "Comment on line 2" }));
  const form = screen.getByTestId("review-comment");
  expect(form).toHaveTextContent("Comment on line 2 of src/app.ts");
  await userEvent.type(within(form).getByRole("textbox", { name: "Your comment" }), "Handle the error too.");
  await userEvent.click(within(form).getByRole("button", { name: "Send comment" }));
  await waitFor(() => expect(s.sent).toHaveLength(1));
  expect(s.sent[0]).toBe("Review comment on `src/app.ts` line 2:\n> await login();\n\nHandle the error too.");
  expect(screen.queryByTestId("review-comment")).toBeNull();
  expect(screen.getByTestId("review-said")).toHaveTextContent("Comment on src/app.ts line 2 sent to the agent.");
});

test("a removed line is commented by its old number; Esc leaves the comment, not the review", async () => {
  const s = setup();
  await userEvent.click(await screen.findByRole("button", { name: "Comment on removed line 2" }));
  expect(screen.getByTestId("review-comment")).toHaveTextContent("Comment on removed line 2 of src/app.ts");
  await userEvent.keyboard("{Escape}");
  expect(screen.queryByTestId("review-comment")).toBeNull();
  expect(s.closed()).toBe(0);
});

test("Send back with a note sends the note and closes the review", async () => {
  const s = setup();
  await screen.findAllByTestId("review-file");
  const send = screen.getByRole("button", { name: "Send back with a note" });
  expect(send).toBeDisabled();
  await userEvent.type(screen.getByRole("textbox", { name: "Note for the agent" }), "Add a test for the error.");
  await userEvent.click(send);
  await waitFor(() => expect(s.closed()).toBe(1));
  expect(s.sent[0]).toMatch(/sending them back.*Add a test for the error\.$/s);
});
