// The session's vital signs: model, tokens, estimated cost, cache reads, context used, the files
// changed. The approval mode and Stop are beside the composer.
import type { ReactNode } from "react";
import type { Usage } from "../session/state";
import { formatContext, formatCost, formatTokens, formatUsageTokens, groupDigits } from "./usageFormat";

interface Props {
  provider: string;
  model: string;
  usage: Usage;
  retrying: string | null;
  /** What the session changed (the files list), after the context gauge. */
  changes?: ReactNode;
  /** How the tool calls went (a count and its table). */
  stats?: ReactNode;
}

export function StatusBar(p: Props) {
  const cost = formatCost(p.usage.cost);
  const context = formatContext(p.usage.contextUsed, p.usage.contextWindow);
  return (
    <footer className="status-bar" data-testid="status-bar">
      {p.provider ? (
        // When the bar is narrow the provider gives way first: which model runs matters more.
        <span className="status-model" title={`Provider and model: ${p.provider} · ${p.model}`}>
          <span className="status-provider">{p.provider} · </span>
          <span className="status-model-name">{p.model}</span>
        </span>
      ) : (
        <span className="status-model">
          <span className="status-model-name">No session yet</span>
        </span>
      )}
      <span className="muted" data-testid="status-tokens" title="Tokens sent to and received from the model in this session">
        {formatUsageTokens(p.usage.totalInput, p.usage.totalOutput)}
      </span>
      {cost && (
        <span
          className="muted"
          data-testid="status-cost"
          title="Estimated cost of this session at list prices"
        >
          {cost}
        </span>
      )}
      {p.usage.cacheRead > 0 && (
        <span
          className="muted status-wide"
          data-testid="status-cache"
          title={`${groupDigits(p.usage.cacheRead)} input tokens were read from the prompt cache instead of being sent at the full input price`}
        >
          {formatTokens(p.usage.cacheRead)} cached
          {p.usage.cacheSaved !== null && p.usage.cacheSaved > 0 && ` · saved ${formatCost(p.usage.cacheSaved)}`}
        </span>
      )}
      {context && (
        <span
          className={context.warn ? "status-context warn" : "status-context muted"}
          data-testid="status-context"
          title={context.title}
        >
          {context.text}
        </span>
      )}
      {p.changes}
      {p.stats}
      {p.retrying && <span className="status-retry" role="status">{p.retrying}</span>}
      <span className="spacer" />
    </footer>
  );
}
