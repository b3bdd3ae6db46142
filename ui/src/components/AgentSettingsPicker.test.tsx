import { fireEvent, render, screen } from "@testing-library/react";
import type { AgentSetting } from "../protocol/AgentSetting";
import { AgentSettingsPicker } from "./AgentSettingsPicker";

const settings: AgentSetting[] = [
  {
    id: "model",
    name: "Model",
    description: null,
    kind: "model",
    current: "sonnet",
    choices: [
      { value: "sonnet", name: "Sonnet", description: "Fast and capable" },
      { value: "opus", name: "Opus", description: "The most capable" },
    ],
  },
  {
    id: "mode",
    name: "Mode",
    description: "How the agent asks",
    kind: "mode",
    current: "default",
    choices: [
      { value: "default", name: "Ask", description: null },
      { value: "bypassPermissions", name: "Bypass permissions", description: null },
    ],
  },
];

test("each setting is a labelled choice of the agent's values, and choosing one sends it", () => {
  const chosen: [string, string][] = [];
  render(<AgentSettingsPicker agent="claude" settings={settings} onChoose={(id, value) => chosen.push([id, value])} />);
  const model = screen.getByLabelText("Model") as HTMLSelectElement;
  expect(model.value).toBe("sonnet");
  expect([...model.options].map((o) => o.textContent)).toEqual(["Sonnet", "Opus"]);
  fireEvent.change(model, { target: { value: "opus" } });
  expect(chosen).toEqual([["model", "opus"]]);
  // The agent's words, and for its mode, plainly, what Foreman no longer asks for.
  expect(model.closest("label")).toHaveAttribute("title", expect.stringContaining("Sonnet: Fast and capable"));
  const mode = screen.getByLabelText("Mode").closest("label");
  expect(mode).toHaveAttribute("title", expect.stringContaining("claude's own setting: Mode"));
  expect(mode).toHaveAttribute("title", expect.stringContaining("without Foreman's approval"));
});

test("nothing shows for Foreman's own agent, and a value the agent did not list still shows", () => {
  const { container, rerender } = render(<AgentSettingsPicker agent={null} settings={[]} onChoose={() => {}} />);
  expect(container).toBeEmptyDOMElement();
  const odd = { ...settings[0]!, current: "haiku" };
  rerender(<AgentSettingsPicker agent="claude" settings={[odd]} onChoose={() => {}} />);
  expect((screen.getByLabelText("Model") as HTMLSelectElement).value).toBe("haiku");
});
