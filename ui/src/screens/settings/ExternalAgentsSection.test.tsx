import { render, screen } from "@testing-library/react";
import type { Backend } from "../../backend";
import { ExternalAgentsSection } from "./ExternalAgentsSection";

test("each agent says whether it is installed, how to install it, and whether it is sandboxed", async () => {
  const backend = {
    listAgents: async () => [
      { name: "claude", command: "claude-agent-acp", preset: true, path: "/usr/local/bin/claude-agent-acp", install: "npm i -g x", unsandboxed: false },
      { name: "gemini", command: "gemini", preset: true, path: null, install: "npm install -g @google/gemini-cli", unsandboxed: false },
      { name: "mine", command: "my-agent", preset: false, path: null, install: null, unsandboxed: true },
    ],
  } as unknown as Backend;
  render(<ExternalAgentsSection backend={backend} />);
  const rows = await screen.findAllByTestId("external-agent");
  expect(rows).toHaveLength(3);
  expect(rows[0]).toHaveTextContent("Installed: /usr/local/bin/claude-agent-acp");
  expect(rows[0]).toHaveTextContent("Runs in Foreman's sandbox");
  expect(rows[1]).toHaveTextContent("Not installed. Install it with npm install -g @google/gemini-cli");
  expect(rows[2]).toHaveTextContent("my-agent was not found on your PATH");
  expect(rows[2]).toHaveTextContent("outside Foreman's sandbox");
});
