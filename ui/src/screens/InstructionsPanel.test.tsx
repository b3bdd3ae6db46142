import { render, screen } from "@testing-library/react";
import type { Backend } from "../backend";
import type { RuleFilesView } from "../protocol/RuleFilesView";
import { InstructionsPanel } from "./InstructionsPanel";

test("the panel lists each instruction file with its kind, size and whether it is cut", async () => {
  const asked: string[] = [];
  const view: RuleFilesView = {
    user_file: "/home/u/.config/dev.foreman.app/AGENTS.md",
    files: [
      { path: "/home/u/.config/dev.foreman.app/AGENTS.md", kind: "user", bytes: 120, truncated: false, in_system_prompt: true },
      { path: "CLAUDE.md", kind: "claude_md", bytes: 2048, truncated: false, in_system_prompt: true },
      { path: "src/api/AGENTS.md", kind: "agents_md", bytes: 70000, truncated: true, in_system_prompt: false },
    ],
  };
  const backend = { ruleFiles: async (ws: string) => (asked.push(ws), view) } as unknown as Backend;
  render(<InstructionsPanel backend={backend} workspace="/ws" />);
  const rows = await screen.findAllByTestId("instruction-file");
  expect(asked).toEqual(["/ws"]);
  expect(rows.map((r) => r.textContent)).toEqual([
    "/home/u/.config/dev.foreman.app/AGENTS.mdyours, for every workspace120 bytes",
    "CLAUDE.mdCLAUDE.md, read as there is no AGENTS.md2.0 KiB",
    "src/api/AGENTS.mdAGENTS.md68.4 KiBonly the first 64 KiB are readwhen the agent works in its folder",
  ]);
});

test("without instruction files the panel says where to put them", async () => {
  const backend = {
    ruleFiles: async () => ({ user_file: "/cfg/AGENTS.md", files: [] }),
  } as unknown as Backend;
  render(<InstructionsPanel backend={backend} workspace="/ws" />);
  expect(await screen.findByTestId("no-instructions")).toHaveTextContent(
    "No instruction files. Add an AGENTS.md to the workspace, or your own at /cfg/AGENTS.md.",
  );
});

test("an error from the shell is shown", async () => {
  const backend = {
    ruleFiles: async () => {
      throw { message: "The folder /ws does not exist." };
    },
  } as unknown as Backend;
  render(<InstructionsPanel backend={backend} workspace="/ws" />);
  expect(await screen.findByRole("alert")).toHaveTextContent("The folder /ws does not exist.");
});
