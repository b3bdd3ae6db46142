import { formatContext, formatCost, formatTokens, formatUsageTokens, formatWindow, groupDigits } from "./usageFormat";

test("an unknown price shows nothing, never a free $0.00", () => {
  expect(formatCost("unknown")).toBeNull();
  expect(formatCost(null)).toBeNull();
  expect(formatCost(0)).toBe("$0.00");
});

test("small costs keep their digits", () => {
  expect(formatCost(0.0042)).toBe("$0.0042");
  expect(formatCost(0.00999)).toBe("$0.0100");
  expect(formatCost(0.00004)).toBe("<$0.0001");
  expect(formatCost(0.131775)).toBe("$0.13");
});

test("large costs are rounded and grouped", () => {
  expect(formatCost(12.346)).toBe("$12.35");
  expect(formatCost(999.99)).toBe("$999.99");
  expect(formatCost(1234.56)).toBe("$1,235");
});

test("digits are grouped in threes, as en-US does, without Intl", () => {
  for (const n of [0, 7, 999, 1000, 12_345, 200_000, 1_000_000, 1_234_567_890, -4321]) {
    expect(groupDigits(n)).toBe(n.toLocaleString("en-US"));
  }
  expect(groupDigits(1234.6)).toBe("1,235");
});

test("tokens and window sizes are short", () => {
  expect(formatTokens(9_999)).toBe("9999");
  expect(formatTokens(12_345)).toBe("12.3k");
  expect(formatWindow(200_000)).toBe("200k");
  expect(formatWindow(128_000)).toBe("128k");
  expect(formatWindow(1_000_000)).toBe("1M");
  expect(formatWindow(1_048_576)).toBe("1M");
  expect(formatWindow(8_192)).toBe("8k");
  expect(formatWindow(512)).toBe("512");
});

test("the context warns from the threshold on", () => {
  expect(formatContext(84_000, 200_000)).toMatchObject({ text: "42% of 200k context", warn: false });
  expect(formatContext(159_998, 200_000)?.warn).toBe(false);
  expect(formatContext(160_000, 200_000)).toMatchObject({ text: "80% of 200k context", warn: true });
  expect(formatContext(190_000, 200_000)).toMatchObject({ text: "95% of 200k context", warn: true });
  expect(formatContext(0, 200_000)).toMatchObject({ text: "0% of 200k context", warn: false });
  expect(formatContext(84_000, 200_000)?.title).toBe("The last request sent 84,000 tokens of the model's 200,000-token context window");
});

test("with the window not known, the context shows what was sent and no share of a made-up window", () => {
  const context = formatContext(12_345, 0);
  expect(context).toMatchObject({ text: "12.3k tokens in context", warn: false });
  expect(context?.text).not.toMatch(/%/);
  expect(context?.title).toBe(
    "The last request sent 12,345 tokens. The model's context window is not known, so how full it is cannot be shown; set the window in Settings › Provider.",
  );
  expect(formatContext(0, 0)).toBeNull();
});

test("token totals carry their unit", () => {
  expect(formatUsageTokens(720, 252)).toBe("720 in · 252 out tokens");
  expect(formatUsageTokens(12_345, 0)).toBe("12.3k in · 0 out tokens");
});
