import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { McpServerForm } from "./McpServerForm";
import type { McpServerEntry } from "./mcpConfig";
import { emptyServer } from "./mcpConfig";

function form(initial: McpServerEntry, saved: McpServerEntry[]) {
  return render(<McpServerForm initial={initial} others={[]} busy={false} onSave={(e) => saved.push(e)} onCancel={() => {}} />);
}

test("a new server runs with full rights, and the form says so plainly", async () => {
  const saved: McpServerEntry[] = [];
  form({ ...emptyServer(), name: "files", command: "npx" }, saved);
  expect(screen.getByTestId("mcp-form-sandbox")).toHaveValue("off");
  expect(screen.getByTestId("mcp-form-sandbox-text")).toHaveTextContent(
    "Runs with your full rights: it can read and write anything you can, and reach the network.",
  );
  // Off has the network anyway: the choice is for a sandbox.
  expect(screen.getByTestId("mcp-form-network")).toBeDisabled();
  await userEvent.click(screen.getByTestId("mcp-form-save"));
  expect(saved[0]).toMatchObject({ sandbox: "off", sandboxNetwork: false });
});

test("each level says what the server may do, and the network is its own choice", async () => {
  const saved: McpServerEntry[] = [];
  form({ ...emptyServer(), name: "files", command: "npx" }, saved);
  const text = () => screen.getByTestId("mcp-form-sandbox-text");
  await userEvent.selectOptions(screen.getByTestId("mcp-form-sandbox"), "read-only");
  expect(text()).toHaveTextContent("Sandboxed: writes nothing but a temporary folder · no network.");
  expect(text()).toHaveTextContent("The paths hidden in Settings › Sandbox stay hidden from it.");
  await userEvent.selectOptions(screen.getByTestId("mcp-form-sandbox"), "workspace-write");
  expect(text()).toHaveTextContent("Sandboxed: writes the workspace only · no network.");
  await userEvent.click(screen.getByTestId("mcp-form-network"));
  expect(text()).toHaveTextContent("Sandboxed: writes the workspace only · network allowed.");
  await userEvent.click(screen.getByTestId("mcp-form-save"));
  expect(saved[0]).toMatchObject({ sandbox: "workspace-write", sandboxNetwork: true });
});

test("an edited server shows its sandbox, and a URL server has none to choose", async () => {
  const saved: McpServerEntry[] = [];
  const { unmount } = form({ ...emptyServer(), name: "s", command: "x", sandbox: "read-only", sandboxNetwork: true }, saved);
  expect(screen.getByTestId("mcp-form-sandbox")).toHaveValue("read-only");
  expect(screen.getByTestId("mcp-form-network")).toBeChecked();
  unmount();
  form({ ...emptyServer(), name: "r", transport: "url", url: "https://example.com/mcp" }, saved);
  expect(screen.queryByTestId("mcp-form-sandbox")).toBeNull();
  expect(screen.queryByTestId("mcp-form-sandbox-text")).toBeNull();
});
