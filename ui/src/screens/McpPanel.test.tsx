import { render, screen } from "@testing-library/react";
import type { Backend } from "../backend";
import type { McpView } from "../protocol/McpView";
import { McpPanel } from "./McpPanel";

const view: McpView = {
  status: {
    servers: [
      {
        name: "slow",
        source: "user",
        target: "node slow.js",
        state: { kind: "connected", tools: 0 },
        tools: [],
        problems: [],
        pid: 42,
        call_timeout_secs: 300,
      },
    ],
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
  expect(server).toHaveTextContent("Calls time out after 300 s");
});
