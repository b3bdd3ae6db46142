// How the status bar words a session's usage: tokens, the estimated cost, the context used.
import type { Usage } from "../session/state";

/** The share of the context window above which the status bar warns. */
export const CONTEXT_WARNING = 0.8;

/**
 * An integer with commas between groups of three digits: 1234567 → "1,234,567". Written out
 * rather than `toLocaleString("en-US")`: the first use of `Intl` in the page costs WebKit 10-25 ms
 * (it loads the ICU data), and the status bar first needs this as a stream starts.
 */
export function groupDigits(n: number): string {
  const digits = String(Math.round(Math.abs(n)));
  let out = "";
  for (let i = 0; i < digits.length; i++) {
    if (i > 0 && (digits.length - i) % 3 === 0) out += ",";
    out += digits[i];
  }
  return n < 0 && out !== "0" ? `-${out}` : out;
}

/** A token count: exact below 10,000, then "12.3k". */
export function formatTokens(n: number): string {
  return n >= 10_000 ? `${(n / 1000).toFixed(1)}k` : String(n);
}

/** A context window size: "200k", "1M", "8192". */
export function formatWindow(n: number): string {
  if (n >= 1_000_000) return `${Number((n / 1_000_000).toFixed(1))}M`;
  if (n >= 1000) return `${Math.round(n / 1000)}k`;
  return String(n);
}

/**
 * The session's estimated cost: "$0.0042" below a cent (never rounded to a misleading $0.00),
 * "$1.25", "$1,234" from a thousand; null (show nothing) before the engine reported a cost and when
 * the model has no known price: a cost that cannot be estimated is not worth a place on every screen.
 */
export function formatCost(cost: Usage["cost"]): string | null {
  if (cost === null || cost === "unknown") return null;
  if (cost === 0) return "$0.00";
  if (cost < 0.0001) return "<$0.0001";
  if (cost < 0.01) return `$${cost.toFixed(4)}`;
  if (cost < 1000) return `$${cost.toFixed(2)}`;
  return `$${groupDigits(cost)}`;
}

/** The session's token totals with their unit: "720 in · 252 out tokens". */
export function formatUsageTokens(input: number, output: number): string {
  return `${formatTokens(input)} in · ${formatTokens(output)} out tokens`;
}

export interface ContextView {
  text: string;
  /** What the text stands for, in full, for its tooltip. */
  title: string;
  /** True from CONTEXT_WARNING of the window on. */
  warn: boolean;
}

/**
 * How full the context is: "42% of 200k context" with the model's window (`window`, in
 * tokens); with a window not known (0), only what the last request sent, "3,200 tokens in
 * context", never a share of a window made up; null before the first request.
 */
export function formatContext(used: number, window: number): ContextView | null {
  if (window <= 0) {
    if (used <= 0) return null;
    return {
      text: `${formatTokens(used)} tokens in context`,
      title: `The last request sent ${groupDigits(used)} tokens. The model's context window is not known, so how full it is cannot be shown; set the window in Settings › Provider.`,
      warn: false,
    };
  }
  const share = used / window;
  return {
    text: `${Math.round(share * 100)}% of ${formatWindow(window)} context`,
    title: `The last request sent ${groupDigits(used)} tokens of the model's ${groupDigits(window)}-token context window`,
    warn: share >= CONTEXT_WARNING,
  };
}
