import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { Backend } from "../../backend";
import type { AppSettings } from "../../protocol/AppSettings";
import { Settings } from "../Settings";
import { settingsView } from "../../test/settingsView";
import { folderNames } from "./CheckpointSection";

function open() {
  const saved: AppSettings[] = [];
  const api = {
    saveSettings: async (s: AppSettings) => (saved.push(s), settingsView({ settings: s })),
    listModels: async () => [],
  } as unknown as Backend;
  render(<Settings backend={api} view={settingsView()} onChange={() => {}} onClose={() => {}} />);
  return saved;
}

test("folder names are read one each, without slashes or paths", () => {
  expect(folderNames("node_modules, target/\n .venv ,, node_modules, a/b")).toEqual(["node_modules", "target", ".venv"]);
});

test("what checkpoints keep of ignored files is saved from Settings", async () => {
  const saved = open();
  await userEvent.click(screen.getByTestId("settings-nav-checkpoints"));
  const folders = screen.getByTestId("checkpoint-excluded");
  expect(folders).toHaveValue("node_modules, target");
  await userEvent.clear(folders);
  await userEvent.type(folders, "node_modules, dist/, .venv");
  await userEvent.tab();
  await userEvent.click(screen.getByTestId("save-settings"));
  expect(saved.at(-1)?.checkpoint_excluded_folders).toEqual(["node_modules", "dist", ".venv"]);
  await userEvent.click(screen.getByTestId("checkpoint-keep-ignored"));
  expect(folders).toBeDisabled();
  await userEvent.click(screen.getByTestId("save-settings"));
  expect(saved.at(-1)?.checkpoint_keep_ignored).toBe(false);
});
