// What a command printed, in its card's body: live while it runs, then as it ended. How it ended
// is said once, in the card's header (commandOutcome.ts), not here again. A card with no live
// output (a session opened again keeps only what the model got) shows the output in the model's
// text, without the lines written for the model.
import type { CallView } from "../session/state";
import { commandOutput } from "./commandOutcome";
import { OutputView } from "./OutputView";

/**
 * The output a finished command shows: its live output, else the one in the model's text ("" for
 * none); null when neither is known (the card shows what the model got instead).
 */
export function finishedOutput(call: Pick<CallView, "output" | "result">): string | null {
  return call.output || commandOutput(call.result);
}

export function CommandOutput({ call }: { call: CallView }) {
  if (call.state === "executing") return <OutputView text={call.output} running />;
  if (call.result === null) return null;
  const text = finishedOutput(call);
  if (text === null) return null;
  if (text === "") {
    return (
      <div className="tool-tip muted" data-testid="no-output">
        No output.
      </div>
    );
  }
  return <OutputView text={text} running={false} />;
}
