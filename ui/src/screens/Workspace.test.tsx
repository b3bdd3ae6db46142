import { render, screen } from "@testing-library/react";
import type { Backend } from "../backend";
import { Workspace } from "./Workspace";

function backend(warnings: string[]): Backend {
  return {
    listSessions: async () => [],
    mcpStatus: async () => ({
      status: { servers: [], enabled_tools: 52, tool_limit: 40, warnings },
      user_file: "/cfg/mcp.json",
      user_text: "",
      workspace_file: "/w/.foreman/mcp.json",
    }),
    workspaceFiles: async () => [],
    openExternal: async () => {},
    showNewSession: async () => {},
  } as unknown as Backend;
}

test("too many tools is shown in the session header with a way to the settings", async () => {
  const warning = "52 tools are enabled; models choose less accurately above 40.";
  render(
    <Workspace backend={backend([warning])} workspace={{ name: "w", path: "/w" }} settings={null} onClose={() => {}} onOpenSettings={() => {}} />,
  );
  expect(await screen.findByTestId("tool-warning")).toHaveTextContent(warning);
  expect(screen.getByRole("button", { name: "Tool servers…" })).toBeInTheDocument();
});

test("no warning, no banner", async () => {
  render(<Workspace backend={backend([])} workspace={{ name: "w", path: "/w" }} settings={null} onClose={() => {}} onOpenSettings={() => {}} />);
  await screen.findByText("Ready when you are");
  expect(screen.queryByTestId("tool-warning")).toBeNull();
});
