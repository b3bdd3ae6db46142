import { defaultMaxTokens, isLocalUrl, keyRequired, maxTokensProblem } from "./localServer";
import { testSettings } from "../test/settingsView";

test("this computer and private networks are local, hosted services are not", () => {
  for (const url of [
    "http://localhost:11434/v1",
    "http://127.0.0.1:8000/v1",
    "http://[::1]:8080/v1",
    "http://10.1.2.3/v1",
    "http://172.20.0.1/v1",
    "https://192.168.1.20:8443/v1",
    "http://[fd12::1]/v1",
    "http://[::ffff:192.168.0.2]/v1",
    "http://ollama.localhost/v1",
  ]) {
    expect(isLocalUrl(url)).toBe(true);
  }
  for (const url of ["https://api.openai.com/v1", "http://172.32.0.1/v1", "http://8.8.8.8", "ftp://localhost/", "localhost:1234", ""]) {
    expect(isLocalUrl(url)).toBe(false);
  }
});

test("the key is optional and the answer limit smaller for a local server", () => {
  const custom = { ...testSettings.provider, preset: "custom" as const, base_url: "http://127.0.0.1:8000/v1" };
  expect(keyRequired(custom, false, "")).toBe(false);
  expect(defaultMaxTokens(custom, "")).toBe(2048);
  expect(defaultMaxTokens({ ...custom, base_url: "https://llm.example.com/v1" }, "")).toBe(8192);
  const anthropic = testSettings.provider;
  expect(keyRequired(anthropic, true, "https://api.anthropic.com")).toBe(true);
  expect(keyRequired({ ...anthropic, base_url: "http://localhost:4000" }, true, "https://api.anthropic.com")).toBe(false);
  expect(defaultMaxTokens({ ...anthropic, base_url: "http://localhost:4000" }, "")).toBe(8192);
  expect(defaultMaxTokens({ ...anthropic, preset: "ollama", base_url: "" }, "http://localhost:11434/v1")).toBe(2048);
  expect(maxTokensProblem(null)).toBeNull();
  expect(maxTokensProblem(0)).toMatch(/At least 1/);
  expect(maxTokensProblem(200000)).toMatch(/At most 128000/);
});
