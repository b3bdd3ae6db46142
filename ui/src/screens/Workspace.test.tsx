import { render, screen, waitFor } from "@testing-library/react";
import type { Backend } from "../backend";
import userEvent from "@testing-library/user-event";
import { Workspace } from "./Workspace";
import { draftKey, saveDraft } from "../session/drafts";

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

test("deleting a session drops its unsent draft", async () => {
  const api = backend([]);
  const deleted: string[] = [];
  api.listSessions = async () =>
    deleted.length > 0 ? [] : [{ id: "s1", workspace_path: "/w", title: "Old work", created_at: 1, updated_at: 2 }];
  api.deleteSession = async (id) => {
    deleted.push(id);
  };
  saveDraft(draftKey("/w", "s1"), "half a thought");
  saveDraft(draftKey("/w", "s2"), "another");
  render(<Workspace backend={api} workspace={{ name: "w", path: "/w" }} settings={null} onClose={() => {}} onOpenSettings={() => {}} />);
  await userEvent.click(await screen.findByLabelText("Delete Old work"));
  await userEvent.click(screen.getByLabelText("Confirm deleting Old work"));
  await waitFor(() => expect(localStorage.getItem(draftKey("/w", "s1"))).toBeNull());
  expect(deleted).toEqual(["s1"]);
  expect(localStorage.getItem(draftKey("/w", "s2"))).toBe("another");
});
