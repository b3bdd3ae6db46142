import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { Backend } from "../backend";
import type { ModelInfo } from "../protocol/ModelInfo";
import type { ProviderSettings } from "../protocol/ProviderSettings";
import { testSettings } from "../test/settingsView";
import { ModelPicker, formatTokens } from "./ModelPicker";
import { useState } from "react";

const models: ModelInfo[] = [
  { id: "anthropic/claude-sonnet-4.5", display_name: "Anthropic: Claude Sonnet 4.5", context_window: 1_000_000 },
  { id: "qwen/qwen3-coder", display_name: null, context_window: 262_144 },
  { id: "mystery/model", display_name: null, context_window: null },
];

/** The picker in a form that keeps what it is told, and what it was told. */
function Form({ backend, provider, changes }: { backend: Backend; provider: ProviderSettings; changes: unknown[][] }) {
  const [current, setCurrent] = useState(provider);
  return (
    <ModelPicker
      backend={backend}
      provider={current}
      keyStored={true}
      onChange={(model, window) => {
        changes.push([model, window]);
        setCurrent({ ...current, model, ...(window === undefined ? {} : { context_window: window }) });
      }}
    />
  );
}

const openrouter: ProviderSettings = { ...testSettings.provider, preset: "openrouter", base_url: "https://openrouter.ai/api/v1", model: "" };

test("the provider's models are listed with their context windows, and choosing one fills the field", async () => {
  const asked: ProviderSettings[] = [];
  const backend = { listModels: async (p: ProviderSettings) => (asked.push(p), models) } as unknown as Backend;
  const changes: unknown[][] = [];
  render(<Form backend={backend} provider={openrouter} changes={changes} />);
  const list = await screen.findByTestId("model-list");
  expect(asked.map((p) => [p.preset, p.base_url])).toEqual([["openrouter", "https://openrouter.ai/api/v1"]]);
  const options = within(list).getAllByRole("option").map((o) => o.textContent);
  expect(options).toEqual([
    "3 models",
    "anthropic/claude-sonnet-4.5 — Anthropic: Claude Sonnet 4.5 · 1M tokens",
    "qwen/qwen3-coder · 262k tokens",
    "mystery/model",
  ]);
  await userEvent.selectOptions(list, "qwen/qwen3-coder");
  expect(screen.getByTestId("model")).toHaveValue("qwen/qwen3-coder");
  expect(changes.at(-1)).toEqual(["qwen/qwen3-coder", 262_144]);
  expect(screen.getByTestId("model-window")).toHaveTextContent("Context window 262,144 tokens");
  await userEvent.selectOptions(list, "mystery/model");
  expect(changes.at(-1)).toEqual(["mystery/model", null]);
  expect(screen.queryByTestId("model-window")).toBeNull();
  expect(screen.queryByTestId("model-list-error")).toBeNull();
});

test("a model not in the list can still be typed", async () => {
  const backend = { listModels: async () => models } as unknown as Backend;
  const changes: unknown[][] = [];
  render(<Form backend={backend} provider={openrouter} changes={changes} />);
  const list = await screen.findByTestId("model-list");
  await userEvent.type(screen.getByTestId("model"), "my/own");
  expect(screen.getByTestId("model")).toHaveValue("my/own");
  expect(changes.at(-1)).toEqual(["my/own", undefined]);
  expect(list).toHaveValue("");
});

test("when the models cannot be listed the field stays free text and says why; Refresh asks again", async () => {
  let fail = true;
  const backend = {
    listModels: async () => {
      if (fail) throw { message: "Ollama (this computer) did not answer within 10 seconds" };
      return [{ id: "llama3.1:8b", display_name: null, context_window: null }];
    },
  } as unknown as Backend;
  const changes: unknown[][] = [];
  const ollama: ProviderSettings = { ...testSettings.provider, preset: "ollama", base_url: "http://localhost:11434/v1", model: "qwen2.5-coder:14b" };
  render(<Form backend={backend} provider={ollama} changes={changes} />);
  expect(await screen.findByTestId("model-list-error")).toHaveTextContent(
    "Could not list the models: Ollama (this computer) did not answer within 10 seconds",
  );
  expect(screen.queryByTestId("model-list")).toBeNull();
  const field = screen.getByTestId("model");
  await userEvent.clear(field);
  await userEvent.type(field, "llama3.2");
  expect(field).toHaveValue("llama3.2");
  fail = false;
  await userEvent.click(screen.getByTestId("refresh-models"));
  expect(await screen.findByTestId("model-list")).toBeInTheDocument();
  expect(screen.queryByTestId("model-list-error")).toBeNull();
});

test("token counts read short", () => {
  expect(formatTokens(1_047_576)).toBe("1M");
  expect(formatTokens(1_500_000)).toBe("1.5M");
  expect(formatTokens(200_000)).toBe("200k");
  expect(formatTokens(512)).toBe("512");
});
