import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ConnectionTest } from "../protocol/ConnectionTest";
import { ConnectionResult } from "./ConnectionResult";

function result(over: Partial<ConnectionTest> = {}): ConnectionTest {
  return {
    connected: true,
    message: "Connected to OpenAI-compatible server. gemma answered but did not call the tool it was asked to call.",
    models: [
      { id: "gemma-3-270m", display_name: null, context_window: null },
      { id: "qwen2.5-coder-7b", display_name: null, context_window: 32768 },
    ],
    models_error: null,
    tool_support: { kind: "ignored", answer: "Sure! The status is ok." },
    suggest_text_protocol: true,
    latency_ms: 812,
    ...over,
  };
}

test("a model that ignored the tool gets the text protocol in one click", async () => {
  const use = vi.fn();
  const { rerender } = render(
    <ConnectionResult result={result()} textProtocol={false} onUseTextProtocol={use} onChooseModel={() => {}} />,
  );
  // The model answered, but does not call tools as the settings ask: amber, not green.
  expect(screen.getByTestId("connection-result")).toHaveClass("banner-warning");
  expect(screen.getByTestId("connection-result")).toHaveAttribute("data-tone", "warning");
  expect(screen.getByTestId("connection-message")).toHaveTextContent("did not call the tool");
  expect(screen.getByTestId("connection-latency")).toHaveTextContent("Answered in 0.8 s.");
  expect(screen.getByTestId("connection-tools")).toHaveTextContent("The model answered in text instead: “Sure! The status is ok.”");
  await userEvent.click(screen.getByTestId("use-text-protocol"));
  expect(use).toHaveBeenCalledTimes(1);
  rerender(<ConnectionResult result={result()} textProtocol={true} onUseTextProtocol={use} onChooseModel={() => {}} />);
  expect(screen.queryByTestId("use-text-protocol")).toBeNull();
  expect(screen.getByTestId("text-protocol-chosen")).toHaveTextContent("save the settings to use it");
});

test("a server that refused the tool says what it said; one that calls tools suggests nothing", () => {
  const { rerender } = render(
    <ConnectionResult
      result={result({ tool_support: { kind: "refused", message: "HTTP 400: tools is not supported" } })}
      textProtocol={false}
      onUseTextProtocol={() => {}}
      onChooseModel={() => {}}
    />,
  );
  expect(screen.getByTestId("connection-tools")).toHaveTextContent("refused by the server: HTTP 400: tools is not supported");
  expect(screen.getByTestId("use-text-protocol")).toBeInTheDocument();
  rerender(
    <ConnectionResult
      result={result({ tool_support: { kind: "native" }, suggest_text_protocol: false })}
      textProtocol={false}
      onUseTextProtocol={() => {}}
      onChooseModel={() => {}}
    />,
  );
  expect(screen.getByTestId("connection-tools")).toHaveTextContent("Tools: called natively.");
  expect(screen.queryByTestId("use-text-protocol")).toBeNull();
  expect(screen.getByTestId("connection-result")).toHaveClass("banner-ok");
  // The same answer with a list that failed (a 404) is not all green.
  rerender(
    <ConnectionResult
      result={result({ tool_support: { kind: "native" }, suggest_text_protocol: false, models: [], models_error: "HTTP 404 Not Found" })}
      textProtocol={false}
      onUseTextProtocol={() => {}}
      onChooseModel={() => {}}
    />,
  );
  expect(screen.getByTestId("connection-result")).toHaveClass("banner-warning");
  expect(screen.getByTestId("connection-models-error")).toHaveTextContent("HTTP 404 Not Found");
});

test("the listed models choose the model, and a failure shows as an error", async () => {
  const choose = vi.fn();
  const { rerender } = render(
    <ConnectionResult result={result()} textProtocol={false} onUseTextProtocol={() => {}} onChooseModel={choose} />,
  );
  await userEvent.click(screen.getByRole("button", { name: "qwen2.5-coder-7b" }));
  expect(choose).toHaveBeenCalledWith("qwen2.5-coder-7b");
  rerender(
    <ConnectionResult
      result={result({
        connected: false,
        message: "gemma did not answer: connection refused.",
        models: [],
        models_error: "cannot reach OpenAI-compatible server: connection refused",
        tool_support: { kind: "unknown" },
        suggest_text_protocol: false,
        latency_ms: null,
      })}
      textProtocol={false}
      onUseTextProtocol={() => {}}
      onChooseModel={choose}
    />,
  );
  expect(screen.getByTestId("connection-result")).toHaveClass("banner-error");
  expect(screen.queryByTestId("connection-latency")).toBeNull();
  expect(screen.queryByTestId("connection-tools")).toBeNull();
  expect(screen.queryByTestId("connection-models")).toBeNull();
  expect(screen.getByTestId("connection-models-error")).toHaveTextContent("connection refused");
});
