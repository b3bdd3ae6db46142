import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { Backend } from "../backend";
import type { AppSettings } from "../protocol/AppSettings";
import { Settings } from "./Settings";
import { settingsView } from "../test/settingsView";


function backend(calls: string[]): Backend {
  return {
    saveSettings: async (s: AppSettings) => {
      calls.push(`save:${s.provider.preset}:${s.provider.base_url}`);
      return settingsView({ settings: s });
    },
    setApiKey: async (preset: string, key: string) => {
      calls.push(`key:${preset}:${key.length}`);
      return settingsView({ key_stored: true, missing: null });
    },
    testConnection: async () => ({
      connected: true,
      message: "Connected to Anthropic. claude-sonnet-4-5 answered and calls tools natively.",
      models: [],
      models_error: null,
      tool_support: { kind: "native" },
      suggest_text_protocol: false,
      latency_ms: 400,
    }),
    listModels: async () => [],
  } as unknown as Backend;
}

test("choosing a preset fills its base URL and model, and saving sends them", async () => {
  const calls: string[] = [];
  const onChange = vi.fn();
  render(<Settings backend={backend(calls)} view={settingsView()} onChange={onChange} onClose={() => {}} />);
  await userEvent.selectOptions(screen.getByTestId("preset"), "ollama");
  expect(screen.getByTestId("base-url")).toHaveValue("http://localhost:11434/v1");
  expect(screen.getByTestId("model")).toHaveValue("qwen2.5-coder:14b");
  await userEvent.click(screen.getByTestId("save-settings"));
  expect(calls).toEqual(["save:ollama:http://localhost:11434/v1"]);
  expect(onChange).toHaveBeenCalled();
});

test("a context window typed for an unknown model is saved, and cleared back to the default", async () => {
  const saved: AppSettings[] = [];
  const api = {
    saveSettings: async (s: AppSettings) => (saved.push(s), settingsView({ settings: s })),
    listModels: async () => [],
  } as unknown as Backend;
  render(<Settings backend={api} view={settingsView()} onChange={() => {}} onClose={() => {}} />);
  const field = screen.getByTestId("context-window");
  expect(field).toHaveValue(null);
  await userEvent.type(field, "32768");
  await userEvent.click(screen.getByTestId("save-settings"));
  expect(saved.at(-1)?.provider.context_window).toBe(32768);
  await userEvent.clear(field);
  await userEvent.click(screen.getByTestId("save-settings"));
  expect(saved.at(-1)?.provider.context_window).toBeNull();
});

test("recording the provider's responses is off until ticked, and says where the files go", async () => {
  const saved: AppSettings[] = [];
  const api = {
    saveSettings: async (s: AppSettings) => (saved.push(s), settingsView({ settings: s })),
    listModels: async () => [],
  } as unknown as Backend;
  render(<Settings backend={api} view={settingsView()} onChange={() => {}} onClose={() => {}} />);
  const box = screen.getByTestId("record-streams");
  expect(box).not.toBeChecked();
  expect(screen.queryByTestId("recordings-path")).toBeNull();
  await userEvent.click(box);
  expect(screen.getByTestId("recordings-path")).toHaveTextContent("/data/recordings");
  await userEvent.click(screen.getByTestId("save-settings"));
  expect(saved.at(-1)?.provider.record_streams).toBe(true);
});

test("the key goes to the keychain and the field is cleared; it is never shown", async () => {
  const calls: string[] = [];
  render(<Settings backend={backend(calls)} view={settingsView()} onChange={() => {}} onClose={() => {}} />);
  const input = screen.getByTestId("api-key");
  expect(input).toHaveAttribute("type", "password");
  await userEvent.type(input, "sk-secret-123");
  await userEvent.click(screen.getByTestId("save-key"));
  expect(calls).toEqual(["key:anthropic:13"]);
  expect(input).toHaveValue("");
  expect(document.body.textContent).not.toContain("sk-secret-123");
});

test("a stored key is shown masked, and Test connection reports the answer", async () => {
  render(<Settings backend={backend([])} view={settingsView({ key_stored: true, missing: null })} onChange={() => {}} onClose={() => {}} />);
  expect(screen.getByTestId("key-stored")).toHaveTextContent("stored in the system keychain");
  await userEvent.click(screen.getByTestId("test-connection"));
  expect(await screen.findByTestId("connection-message")).toHaveTextContent("Connected to Anthropic");
  expect(screen.getByTestId("connection-tools")).toHaveTextContent("called natively");
});

test("a local server's test offers the text protocol, and saving sends it with the answer limit", async () => {
  const saved: AppSettings[] = [];
  const api = {
    saveSettings: async (s: AppSettings) => (saved.push(s), settingsView({ settings: s })),
    listModels: async () => [],
    testConnection: async (s: AppSettings) => ({
      connected: true,
      message: `Connected to Ollama (this computer). ${s.provider.model} answered but did not call the tool it was asked to call.`,
      models: [{ id: "gemma3:270m", display_name: null, context_window: null }],
      models_error: null,
      tool_support: { kind: "ignored", answer: "ok" },
      suggest_text_protocol: true,
      latency_ms: 1200,
    }),
  } as unknown as Backend;
  render(<Settings backend={api} view={settingsView()} onChange={() => {}} onClose={() => {}} />);
  expect(screen.getByTestId("key-hint")).toHaveTextContent("No key stored yet.");
  expect(screen.getByTestId("max-tokens")).toHaveAttribute("placeholder", "8192 (the default for this server)");
  await userEvent.selectOptions(screen.getByTestId("preset"), "ollama");
  expect(screen.getByTestId("key-hint")).toHaveTextContent("Optional for this server.");
  expect(screen.getByTestId("max-tokens")).toHaveAttribute("placeholder", "2048 (the default for this server)");
  const tokens = screen.getByTestId("max-tokens");
  await userEvent.type(tokens, "0");
  expect(screen.getByTestId("max-tokens-error")).toHaveTextContent("At least 1 token");
  expect(screen.getByTestId("save-settings")).toBeDisabled();
  await userEvent.clear(tokens);
  await userEvent.type(tokens, "1024");
  expect(screen.queryByTestId("max-tokens-error")).toBeNull();

  await userEvent.click(screen.getByTestId("test-connection"));
  expect(await screen.findByTestId("connection-tools")).toHaveTextContent("not used");
  await userEvent.click(screen.getByRole("button", { name: "gemma3:270m" }));
  expect(screen.getByTestId("model")).toHaveValue("gemma3:270m");
  await userEvent.click(screen.getByTestId("use-text-protocol"));
  expect(screen.getByTestId("text-protocol-chosen")).toBeInTheDocument();
  await userEvent.click(screen.getByTestId("save-settings"));
  expect(saved.at(-1)?.provider).toMatchObject({
    preset: "ollama",
    model: "gemma3:270m",
    text_protocol: true,
    max_tokens: 1024,
  });
});

test("the yolo mode says commands run with the user's full rights, not that they stay in the workspace", async () => {
  render(<Settings backend={backend([])} view={settingsView()} onChange={() => {}} onClose={() => {}} />);
  await userEvent.click(screen.getByTestId("settings-nav-approvals"));
  const yolo = screen.getByRole("option", { name: "Run everything" });
  expect(yolo).toHaveAttribute("title", expect.stringContaining("commands run with your full rights"));
  await userEvent.selectOptions(screen.getByTestId("default-mode"), "yolo");
  const detail = screen.getByTestId("mode-detail");
  expect(detail).toHaveTextContent("commands run with your full rights, outside the sandbox");
  expect(detail.textContent).not.toMatch(/never outside/);
});

test("each mode has one short name in the picker", async () => {
  render(<Settings backend={backend([])} view={settingsView()} onChange={() => {}} onClose={() => {}} />);
  await userEvent.click(screen.getByTestId("settings-nav-approvals"));
  const names = screen.getAllByRole("option").filter((o) => o.parentElement === screen.getByTestId("default-mode"));
  expect(names.map((o) => o.textContent)).toEqual(["Read only", "Ask first", "Auto-edit", "Auto, sandboxed", "Run everything"]);
});

test("a section list shows one section at a time; workspace sections only with a workspace", async () => {
  const api = { ...backend([]), mcpStatus: async () => new Promise(() => {}) } as unknown as Backend;
  const { rerender } = render(<Settings backend={api} view={settingsView()} onChange={() => {}} onClose={() => {}} />);
  expect(screen.queryByTestId("settings-nav-mcp")).toBeNull();
  expect(screen.getByTestId("settings-provider")).toBeVisible();
  await userEvent.click(screen.getByTestId("settings-nav-agent"));
  expect(screen.getByTestId("settings-provider")).not.toBeVisible();
  expect(screen.getByTestId("settings-agent")).toBeVisible();
  expect(screen.getByTestId("settings-nav-agent")).toHaveAttribute("aria-current", "page");
  await userEvent.click(screen.getByTestId("settings-nav-about"));
  expect(screen.getByTestId("settings-about")).toHaveTextContent("/cfg/settings.json");
  rerender(<Settings backend={api} view={settingsView()} workspace="/w" onChange={() => {}} onClose={() => {}} />);
  await userEvent.click(screen.getByTestId("settings-nav-mcp"));
  expect(screen.getByTestId("mcp-panel")).toBeInTheDocument();
  expect(screen.queryByTestId("settings-about")).toBeNull();
});

test("a draft changed in one section is kept across sections and saved once", async () => {
  const saved: AppSettings[] = [];
  const api = {
    saveSettings: async (s: AppSettings) => (saved.push(s), settingsView({ settings: s })),
    listModels: async () => [],
  } as unknown as Backend;
  render(<Settings backend={api} view={settingsView()} onChange={() => {}} onClose={() => {}} />);
  await userEvent.selectOptions(screen.getByTestId("preset"), "ollama");
  await userEvent.click(screen.getByTestId("settings-nav-approvals"));
  await userEvent.selectOptions(screen.getByTestId("default-mode"), "auto-edit");
  await userEvent.click(screen.getByTestId("settings-nav-provider"));
  expect(screen.getByTestId("preset")).toHaveValue("ollama");
  await userEvent.click(screen.getByTestId("save-settings"));
  expect(saved).toHaveLength(1);
  expect(saved[0]).toMatchObject({ approval_mode: "auto-edit", provider: { preset: "ollama" } });
});

test("Anthropic shows the thinking budget, others the reasoning effort; each is saved", async () => {
  const saved: AppSettings[] = [];
  const api = {
    saveSettings: async (s: AppSettings) => (saved.push(s), settingsView({ settings: s })),
    listModels: async () => [],
  } as unknown as Backend;
  render(<Settings backend={api} view={settingsView()} onChange={() => {}} onClose={() => {}} />);
  expect(screen.queryByTestId("reasoning-effort")).toBeNull();
  const budget = screen.getByTestId("thinking-budget");
  expect(budget).toHaveAttribute("placeholder", "off");
  await userEvent.type(budget, "500");
  expect(screen.getByTestId("thinking-budget-error")).toHaveTextContent("At least 1024 tokens");
  expect(screen.getByTestId("save-settings")).toBeDisabled();
  await userEvent.clear(budget);
  await userEvent.type(budget, "8192");
  expect(screen.queryByTestId("thinking-budget-error")).toBeNull();
  await userEvent.click(screen.getByTestId("save-settings"));
  expect(saved.at(-1)?.provider.thinking_budget).toBe(8192);

  await userEvent.selectOptions(screen.getByTestId("preset"), "ollama");
  expect(screen.queryByTestId("thinking-budget")).toBeNull();
  const effort = screen.getByTestId("reasoning-effort");
  expect(effort).toHaveValue("");
  await userEvent.selectOptions(effort, "high");
  await userEvent.click(screen.getByTestId("save-settings"));
  expect(saved.at(-1)?.provider).toMatchObject({ preset: "ollama", reasoning_effort: "high" });
  await userEvent.selectOptions(effort, "");
  await userEvent.click(screen.getByTestId("save-settings"));
  expect(saved.at(-1)?.provider.reasoning_effort).toBeNull();
});

test("Save is offered only on sections with settings to save, in a bar below the section", async () => {
  const saved: AppSettings[] = [];
  const api = {
    saveSettings: async (s: AppSettings) => (saved.push(s), settingsView({ settings: s })),
    listModels: async () => [],
  } as unknown as Backend;
  render(<Settings backend={api} view={settingsView()} onChange={() => {}} onClose={() => {}} initialSection="about" />);
  expect(screen.getByTestId("settings-about")).toBeInTheDocument();
  expect(screen.queryByTestId("save-settings")).toBeNull();
  for (const section of ["provider", "agent", "approvals", "sandbox", "tasks", "checkpoints"]) {
    await userEvent.click(screen.getByTestId(`settings-nav-${section}`));
    const bar = screen.getByTestId("settings-save");
    // The bar is the layout's own row, after the scrolling sections, never inside them.
    expect(bar.closest(".settings-body")).toBeNull();
    expect(bar.previousElementSibling).toHaveClass("settings-body");
    expect(screen.getByTestId("save-settings")).toBeDisabled();
  }
  // Save says it saved; that note stays with the section it was said on.
  await userEvent.click(screen.getByTestId("settings-nav-approvals"));
  await userEvent.selectOptions(screen.getByTestId("default-mode"), "auto-edit");
  await userEvent.click(screen.getByTestId("save-settings"));
  expect(saved.at(-1)?.approval_mode).toBe("auto-edit");
  expect(screen.getByTestId("settings-message")).toHaveTextContent("Settings saved");
  await userEvent.click(screen.getByTestId("settings-nav-about"));
  expect(screen.queryByTestId("settings-save")).toBeNull();
  expect(screen.queryByTestId("settings-message")).toBeNull();
});
