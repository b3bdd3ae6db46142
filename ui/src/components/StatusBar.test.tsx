import { render, screen } from "@testing-library/react";
import type { Usage } from "../session/state";
import { StatusBar } from "./StatusBar";

function show(usage: Partial<Usage>) {
  render(
    <StatusBar
      provider="Anthropic"
      model="claude-sonnet-4-5"
      usage={{ input: 0, output: 0, totalInput: 12_345, totalOutput: 678, cost: null, contextUsed: 0, contextWindow: 0, cacheRead: 0, cacheSaved: null, ...usage }}
      retrying={null}
    />,
  );
}

test("shows the cost estimate and the context used", () => {
  show({ cost: 0.0042, contextUsed: 84_000, contextWindow: 200_000 });
  expect(screen.getByTestId("status-bar")).toHaveTextContent("12.3k in · 678 out tokens");
  expect(screen.getByTestId("status-cost")).toHaveTextContent("$0.0042");
  const context = screen.getByTestId("status-context");
  expect(context).toHaveTextContent("42% of 200k context");
  expect(context).not.toHaveClass("warn");
});

test("an unpriced model shows no cost at all, not $0.00", () => {
  show({ cost: "unknown", contextUsed: 100, contextWindow: 8_192 });
  expect(screen.queryByTestId("status-cost")).toBeNull();
  expect(screen.getByTestId("status-bar")).not.toHaveTextContent("cost");
  expect(screen.getByTestId("status-bar")).not.toHaveTextContent("$");
});

test("a nearly full context is marked as a warning", () => {
  show({ cost: 1234.5, contextUsed: 170_000, contextWindow: 200_000 });
  expect(screen.getByTestId("status-context")).toHaveClass("warn");
  expect(screen.getByTestId("status-context")).toHaveTextContent("85% of 200k context");
  expect(screen.getByTestId("status-cost")).toHaveTextContent("$1,235");
});

test("a model whose context window is not known shows the tokens sent, not a share of 200k", () => {
  show({ cost: "unknown", contextUsed: 3_210, contextWindow: 0 });
  const context = screen.getByTestId("status-context");
  expect(context).toHaveTextContent("3210 tokens in context");
  expect(context).not.toHaveTextContent("%");
  expect(context).toHaveAttribute("title", expect.stringContaining("context window is not known"));
});

test("before the engine reports, neither cost nor context is shown", () => {
  show({});
  expect(screen.queryByTestId("status-cost")).toBeNull();
  expect(screen.queryByTestId("status-context")).toBeNull();
});

test("the provider and the model are named, in full on hover", () => {
  show({});
  const model = screen.getByTitle("Provider and model: Anthropic · claude-sonnet-4-5");
  expect(model).toHaveTextContent("Anthropic · claude-sonnet-4-5");
});

test("cache reads show with what they saved, and nothing shows before the first read", () => {
  show({ cost: 0.5, cacheRead: 480_000, cacheSaved: 1.2961 });
  const cache = screen.getByTestId("status-cache");
  expect(cache).toHaveTextContent("480.0k cached · saved $1.30");
  expect(cache).toHaveAttribute("title", expect.stringContaining("480,000 input tokens were read from the prompt cache"));
});

test("no cache line before the first cache read", () => {
  show({ cost: 0.01, cacheRead: 0, cacheSaved: -0.002 });
  expect(screen.queryByTestId("status-cache")).toBeNull();
});
