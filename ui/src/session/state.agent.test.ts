// The session reducer and an external agent: what it offers beside the composer.
import { initialState, reduceAll } from "./state";
import { ev } from "../test/events";

test("an external agent's settings and commands are kept as it last listed them", () => {
  const setting = { id: "model", name: "Model", description: null, kind: "model" as const, current: "a", choices: [{ value: "a", name: "A", description: null }] };
  const command = { name: "init", kind: "agent" as const, description: "Write CLAUDE.md", argument_hint: null, source: null };
  const s = reduceAll(
    initialState(),
    [
      ev({ type: "agent_settings", settings: [setting], commands: [] }),
      ev({ type: "agent_settings", settings: [{ ...setting, current: "b" }], commands: [command] }),
    ],
    0,
  );
  expect(s.agentSettings.map((x) => x.current)).toEqual(["b"]);
  expect(s.agentCommands).toEqual([command]);
});
