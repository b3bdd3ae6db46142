// What a finished call means for the person, in their words ("Rejected by you: …", "You edited
// this before approving · 1 line differs", "You approved 2 of 3 parts"), with the text the model got
// behind "What the agent was told" when that text was written for the model. The facts come
// from the engine (`call.decision`), never from the model's text.
import type { CallView } from "../session/state";
import { decisionWords } from "./decisionWords";
import { blockingHook } from "./hookWords";

/**
 * True when the call's result is the engine's message to the model about what happened (a
 * decision of the person, a Stop, a write the diff already shows): the card says it in the
 * person's words and keeps the result behind the toggle.
 */
export function hidesResult(call: CallView): boolean {
  if (call.result === null) return false;
  if (call.decision !== null) return true;
  // A hook refused it: its reason is the fact, what the model got stays behind the toggle.
  if (blockingHook(call.hooks) && (call.state === "rejected" || call.state === "failed")) return true;
  if (call.state === "rejected" || call.state === "cancelled" || call.state === "interrupted") return true;
  return call.state === "succeeded" && call.kind === "edit" && Boolean(call.preview?.diff);
}

/** The facts of a finished call for the person; `note` is what its look says already. */
export function CallFacts({ call, note }: { call: CallView; note: string | null }) {
  if (!hidesResult(call)) return null;
  const facts: string[] = [];
  const decision = call.decision;
  // A rejection's words are the look's note already.
  if (decision && decision.kind !== "rejected") facts.push(decisionWords(decision));
  else if (note && call.undo !== "done") facts.push(note);
  // The policy refused it: its own sentence is the fact.
  else if (call.state === "rejected" && !decision && call.result) facts.push(call.result);
  return (
    <div className="tool-facts" data-testid="call-facts">
      {facts.map((fact) => (
        <div key={fact} className="tool-fact">
          {fact}
        </div>
      ))}
      {call.result?.trim() && (
        <details className="agent-told" data-testid="agent-told">
          <summary>What the agent was told</summary>
          <pre>{call.result}</pre>
        </details>
      )}
    </div>
  );
}
