import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { Backend } from "../../backend";
import type { AppSettings } from "../../protocol/AppSettings";
import { Settings } from "../Settings";
import { settingsView } from "../../test/settingsView";

function open(over: Parameters<typeof settingsView>[0] = {}) {
  const saved: AppSettings[] = [];
  const api = {
    saveSettings: async (s: AppSettings) => (saved.push(s), settingsView({ settings: s })),
    listModels: async () => [],
  } as unknown as Backend;
  render(<Settings backend={api} view={settingsView(over)} onChange={() => {}} onClose={() => {}} />);
  return saved;
}

const row = (path: string) => screen.getAllByTestId("hidden-path-row").find((r) => r.dataset.path === path)!;

test("the sandbox has its own section with the level, the network and what it does not cover", async () => {
  const status = "Commands run confined (Landlock ABI 7). Not covered: reading files that are not hidden.";
  open({ sandbox_status: status });
  expect(screen.getByTestId("sandbox-settings")).not.toBeVisible();
  await userEvent.click(screen.getByTestId("settings-nav-sandbox"));
  expect(screen.getByTestId("settings-nav-sandbox")).toHaveTextContent("Sandbox");
  expect(screen.getByTestId("sandbox-settings")).toBeVisible();
  expect(screen.getByTestId("sandbox-level")).toHaveValue("workspace-write");
  expect(screen.getByTestId("sandbox-status")).toHaveTextContent(status);
  expect(screen.getByTestId("hidden-paths")).toBeVisible();
  await userEvent.click(screen.getByTestId("settings-nav-approvals"));
  expect(screen.getByTestId("default-mode")).toBeVisible();
  expect(screen.getByTestId("sandbox-level")).not.toBeVisible();
  await userEvent.click(screen.getByTestId("open-sandbox-section"));
  expect(screen.getByTestId("sandbox-level")).toBeVisible();
});

test("the app's own folders are listed as always hidden, without a switch", async () => {
  open();
  await userEvent.click(screen.getByTestId("settings-nav-sandbox"));
  const own = screen.getAllByTestId("hidden-own-dir");
  expect(own.map((r) => r.textContent)).toEqual(["always/data", "always/cfg"]);
  for (const r of own) {
    expect(within(r).queryByRole("checkbox")).toBeNull();
    expect(within(r).queryByRole("button")).toBeNull();
  }
  expect(screen.getAllByTestId("hidden-path-row").map((r) => r.dataset.path)).toEqual(["~/.ssh", "~/.aws"]);
});

test("a default turned off is saved off, and it cannot be removed", async () => {
  const saved = open();
  await userEvent.click(screen.getByTestId("settings-nav-sandbox"));
  expect(within(row("~/.ssh")).queryByTestId("hidden-path-remove")).toBeNull();
  const toggle = within(row("~/.ssh")).getByTestId("hidden-path-toggle");
  expect(toggle).toBeChecked();
  await userEvent.click(toggle);
  expect(toggle).not.toBeChecked();
  expect(row("~/.ssh")).toHaveTextContent("readable");
  await userEvent.click(screen.getByTestId("save-settings"));
  expect(saved.at(-1)?.sandbox_hidden).toEqual([
    { path: "~/.ssh", enabled: false },
    { path: "~/.aws", enabled: true },
  ]);
});

test("a path you add is saved on, and one you added can be removed", async () => {
  const saved = open();
  await userEvent.click(screen.getByTestId("settings-nav-sandbox"));
  await userEvent.type(screen.getByTestId("hidden-path-input"), "~/.config/tool/");
  await userEvent.click(screen.getByTestId("hidden-path-add"));
  expect(screen.getByTestId("hidden-path-input")).toHaveValue("");
  expect(screen.queryByTestId("hidden-path-error")).toBeNull();
  expect(within(row("~/.config/tool")).getByTestId("hidden-path-toggle")).toBeChecked();
  await userEvent.type(screen.getByTestId("hidden-path-input"), "/srv/keys{Enter}");
  await userEvent.click(within(row("~/.config/tool")).getByTestId("hidden-path-remove"));
  expect(screen.getAllByTestId("hidden-path-row").map((r) => r.dataset.path)).toEqual(["~/.ssh", "~/.aws", "/srv/keys"]);
  await userEvent.click(screen.getByTestId("save-settings"));
  expect(saved.at(-1)?.sandbox_hidden).toEqual([
    { path: "~/.ssh", enabled: true },
    { path: "~/.aws", enabled: true },
    { path: "/srv/keys", enabled: true },
  ]);
});

test("a relative or already listed path is refused with the reason, and nothing changes", async () => {
  const saved = open();
  await userEvent.click(screen.getByTestId("settings-nav-sandbox"));
  const input = screen.getByTestId("hidden-path-input");
  await userEvent.type(input, "secrets/key");
  await userEvent.click(screen.getByTestId("hidden-path-add"));
  expect(screen.getByTestId("hidden-path-error")).toHaveTextContent("“secrets/key” is relative: start it with / or ~/ (your home folder).");
  expect(input).toHaveValue("secrets/key");
  await userEvent.clear(input);
  expect(screen.queryByTestId("hidden-path-error")).toBeNull();
  await userEvent.type(input, "~/.aws");
  await userEvent.click(screen.getByTestId("hidden-path-add"));
  expect(screen.getByTestId("hidden-path-error")).toHaveTextContent("~/.aws is already listed.");
  expect(screen.getAllByTestId("hidden-path-row")).toHaveLength(2);
  expect(screen.getByTestId("save-settings")).toBeDisabled();
  expect(saved).toHaveLength(0);
});

test("with the sandbox off the list says commands can read all of it", async () => {
  open();
  await userEvent.click(screen.getByTestId("settings-nav-sandbox"));
  expect(screen.queryByTestId("hidden-paths-off")).toBeNull();
  await userEvent.selectOptions(screen.getByTestId("sandbox-level"), "off");
  expect(screen.getByTestId("hidden-paths-off")).toHaveTextContent("The sandbox is off: commands can read all of these.");
  expect(screen.getByTestId("sandbox-network")).toBeDisabled();
});
