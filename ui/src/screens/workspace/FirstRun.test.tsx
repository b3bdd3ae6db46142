import { render, screen } from "@testing-library/react";
import type { Backend } from "../../backend";
import type { SettingsView } from "../../protocol/SettingsView";
import { FirstRun } from "./FirstRun";

const ready = { missing: null, presets: [], settings: { provider: { preset: "anthropic" } } } as unknown as SettingsView;
const backend = {} as Backend;

test("the empty conversation says what the agent may do in the mode it starts in", () => {
  const view = render(
    <FirstRun backend={backend} workspacePath="/w" settings={ready} mode="ask" onSettings={() => {}} onOpenSettings={() => {}} />,
  );
  expect(screen.getByText(/Every edit and command it proposes waits for your approval\./)).toBeInTheDocument();
  view.rerender(
    <FirstRun
      backend={backend}
      workspacePath="/data/worktrees/repo/notes"
      branch="foreman/notes"
      settings={ready}
      mode="auto"
      onSettings={() => {}}
      onOpenSettings={() => {}}
    />,
  );
  expect(screen.getByText(/worktree of its own/)).toHaveTextContent("foreman/notes");
  const said = screen.getByTestId("first-run-mode");
  expect(said).toHaveTextContent("Auto, sandboxed: Edits and sandboxed commands run freely");
  expect(said).not.toHaveTextContent("waits for your approval");
});
