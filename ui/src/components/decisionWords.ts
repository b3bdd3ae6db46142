// The person's decision on a call (from the engine: `CallDecision`) in their words, for the
// card's facts and its folded header.
import type { CallDecision } from "../protocol/CallDecision";

/** The decision in words for the person (`You edited this before approving · 1 line differs`). */
export function decisionWords(decision: CallDecision): string {
  switch (decision.kind) {
    case "rejected":
      return decision.reason ? `Rejected by you: ${decision.reason}` : "Rejected by you";
    case "edited":
      return `You edited this before approving · ${decision.lines} ${decision.lines === 1 ? "line differs" : "lines differ"}`;
    case "parts":
      return `You approved ${decision.written} of ${decision.total} parts`;
    case "not_run":
      return "Stopped by you before it ran";
  }
}
