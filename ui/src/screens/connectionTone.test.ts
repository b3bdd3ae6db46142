import type { ConnectionTest } from "../protocol/ConnectionTest";
import { connectionTone } from "./connectionTone";

function result(over: Partial<ConnectionTest> = {}): ConnectionTest {
  return {
    connected: true,
    message: "Connected to Anthropic. claude-sonnet-4-5 answered and calls tools natively.",
    models: [],
    models_error: null,
    tool_support: { kind: "native" },
    suggest_text_protocol: false,
    latency_ms: 400,
    ...over,
  };
}

test("a model that answered and calls tools as the settings ask is a success", () => {
  expect(connectionTone(result())).toBe("success");
  // Tools refused, but the settings already use the text protocol: nothing to do.
  expect(connectionTone(result({ tool_support: { kind: "refused", message: "tools not supported" } }))).toBe("success");
});

test("an answer with a problem left for the person is a warning, not a success", () => {
  expect(connectionTone(result({ models_error: "HTTP 404 Not Found" }))).toBe("warning");
  expect(
    connectionTone(result({ tool_support: { kind: "ignored", answer: "Sure!" }, suggest_text_protocol: true })),
  ).toBe("warning");
});

test("no answer is an error, whatever else was found", () => {
  expect(connectionTone(result({ connected: false, message: "No API key for Anthropic: store one first." }))).toBe("error");
  expect(connectionTone(result({ connected: false, models_error: "HTTP 404 Not Found" }))).toBe("error");
});
