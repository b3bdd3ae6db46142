import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { Backend } from "../backend";
import type { McpView } from "../protocol/McpView";
import type { ServerSandbox } from "../protocol/ServerSandbox";
import type { ServerStatus } from "../protocol/ServerStatus";
import { McpPanel } from "./McpPanel";

const server: ServerStatus = {
  name: "slow",
  source: "user",
  target: "node slow.js",
  state: { kind: "connected", tools: 0 },
  tools: [],
  problems: [],
  pid: 42,
  call_timeout_secs: 300,
  sandbox: { level: "off", network: false },
};

const view: McpView = {
  status: {
    servers: [server],
    enabled_tools: 11,
    tool_limit: 40,
    warnings: [],
  },
  user_file: "/cfg/mcp.json",
  user_text: "",
  workspace_file: "/w/.foreman/mcp.json",
};

test("each server shows how long its calls may take", async () => {
  const backend = { mcpStatus: async () => view } as unknown as Backend;
  render(<McpPanel backend={backend} workspace="/w" />);
  const server = await screen.findByTestId("mcp-server");
  expect(server).toHaveTextContent("Tool uses time out after 300 s");
});

/** A backend whose user file is `text`; saving it lists its servers as the status, as the shell does. */
function fileBackend(initial: string, saved: string[]): Backend {
  type Entry = { command?: string; sandbox?: ServerSandbox["level"]; sandboxNetwork?: boolean };
  const viewOf = (text: string): McpView => {
    const servers: Record<string, Entry> = text.trim() ? ((JSON.parse(text) as { mcpServers?: Record<string, Entry> }).mcpServers ?? {}) : {};
    return {
      ...view,
      status: {
        ...view.status,
        servers: Object.entries(servers).map(([name, s]) => ({
          ...server,
          name,
          target: name,
          sandbox: s.command ? { level: s.sandbox ?? "off", network: s.sandboxNetwork === true } : null,
        })),
      },
      user_text: text,
    };
  };
  return {
    mcpStatus: async () => viewOf(initial),
    mcpSaveUserConfig: async (_w: string, text: string) => (saved.push(text), viewOf(text)),
  } as unknown as Backend;
}

test("a server added, edited and removed with the form is written to the file the JSON view edits", async () => {
  const saved: string[] = [];
  render(<McpPanel backend={fileBackend("", saved)} workspace="/w" />);
  await userEvent.click(await screen.findByTestId("mcp-add"));
  expect(screen.getByTestId("mcp-form-save")).toBeDisabled();
  await userEvent.type(screen.getByTestId("mcp-form-name"), "files");
  await userEvent.type(screen.getByTestId("mcp-form-command"), "npx");
  await userEvent.type(screen.getByTestId("mcp-form-args"), "-y{enter}@modelcontextprotocol/server-filesystem");
  await userEvent.type(screen.getByTestId("mcp-form-env"), "ROOT=/tmp");
  await userEvent.type(screen.getByTestId("mcp-form-timeout"), "90");
  await userEvent.click(screen.getByTestId("mcp-form-save"));
  expect(JSON.parse(saved.at(-1) ?? "")).toEqual({
    mcpServers: { files: { command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem"], env: { ROOT: "/tmp" }, timeout: 90 } },
  });
  expect(screen.queryByTestId("mcp-form")).toBeNull();

  await userEvent.click(screen.getByTestId("mcp-advanced"));
  expect(screen.getByRole("textbox", { name: /Your servers/ })).toHaveValue(saved.at(-1));

  await userEvent.click(screen.getByTestId("mcp-edit"));
  await userEvent.click(screen.getByTestId("mcp-form-enabled"));
  await userEvent.type(screen.getByTestId("mcp-form-replaces"), "read_file");
  await userEvent.click(screen.getByTestId("mcp-form-save"));
  expect(JSON.parse(saved.at(-1) ?? "").mcpServers.files).toMatchObject({ disabled: true, replaces: ["read_file"], command: "npx" });

  await userEvent.click(screen.getByTestId("mcp-remove"));
  await userEvent.click(screen.getByTestId("mcp-remove-confirm"));
  expect(JSON.parse(saved.at(-1) ?? "")).toEqual({ mcpServers: {} });
  expect(screen.queryByTestId("mcp-server")).toBeNull();
});

test("a URL server is saved with its headers, and a file that is not JSON opens the JSON view", async () => {
  const saved: string[] = [];
  const { unmount } = render(<McpPanel backend={fileBackend("", saved)} workspace="/w" />);
  await userEvent.click(await screen.findByTestId("mcp-add"));
  await userEvent.type(screen.getByTestId("mcp-form-name"), "remote");
  await userEvent.click(screen.getByTestId("mcp-form-url-kind"));
  await userEvent.type(screen.getByTestId("mcp-form-url"), "https://example.com/mcp");
  await userEvent.type(screen.getByTestId("mcp-form-env"), "Authorization=Bearer t");
  await userEvent.click(screen.getByTestId("mcp-form-save"));
  expect(JSON.parse(saved.at(-1) ?? "")).toEqual({
    mcpServers: { remote: { url: "https://example.com/mcp", headers: { Authorization: "Bearer t" } } },
  });
  unmount();

  const broken = { mcpStatus: async () => ({ ...view, user_text: "{ oops" }) } as unknown as Backend;
  render(<McpPanel backend={broken} workspace="/w" />);
  expect(await screen.findByTestId("mcp-json-invalid")).toHaveTextContent("not valid JSON");
  expect(screen.getByTestId("mcp-add")).toBeDisabled();
  expect(screen.getByRole("textbox", { name: /Your servers/ })).toHaveValue("{ oops");
});

test("a command server's sandbox is chosen in the form, saved into mcp.json, and said on its row", async () => {
  const saved: string[] = [];
  render(<McpPanel backend={fileBackend("", saved)} workspace="/w" />);
  await userEvent.click(await screen.findByTestId("mcp-add"));
  await userEvent.type(screen.getByTestId("mcp-form-name"), "files");
  await userEvent.type(screen.getByTestId("mcp-form-command"), "npx");
  await userEvent.selectOptions(screen.getByTestId("mcp-form-sandbox"), "workspace-write");
  await userEvent.click(screen.getByTestId("mcp-form-save"));
  expect(JSON.parse(saved.at(-1) ?? "").mcpServers.files).toEqual({ command: "npx", sandbox: "workspace-write" });
  expect(screen.getByTestId("mcp-sandbox")).toHaveTextContent("Sandboxed: writes the workspace only · no network.");

  await userEvent.click(screen.getByTestId("mcp-edit"));
  expect(screen.getByTestId("mcp-form-sandbox")).toHaveValue("workspace-write");
  await userEvent.click(screen.getByTestId("mcp-form-network"));
  await userEvent.click(screen.getByTestId("mcp-form-save"));
  expect(JSON.parse(saved.at(-1) ?? "").mcpServers.files).toEqual({ command: "npx", sandbox: "workspace-write", sandboxNetwork: true });
  expect(screen.getByTestId("mcp-sandbox")).toHaveTextContent("writes the workspace only · network allowed");

  await userEvent.click(screen.getByTestId("mcp-edit"));
  await userEvent.selectOptions(screen.getByTestId("mcp-form-sandbox"), "off");
  await userEvent.click(screen.getByTestId("mcp-form-save"));
  expect(JSON.parse(saved.at(-1) ?? "").mcpServers.files).toEqual({ command: "npx" });
  expect(screen.getByTestId("mcp-sandbox")).toHaveTextContent(
    "Runs with your full rights: it can read and write anything you can, and reach the network.",
  );
});

test("a URL server has no sandbox row", async () => {
  const remote: ServerStatus = { ...server, name: "remote", target: "https://example.com/mcp", sandbox: null };
  const backend = { mcpStatus: async () => ({ ...view, status: { ...view.status, servers: [remote] } }) } as unknown as Backend;
  render(<McpPanel backend={backend} workspace="/w" />);
  await screen.findByTestId("mcp-server");
  expect(screen.queryByTestId("mcp-sandbox")).toBeNull();
});
