// A hook's run as one quiet line: its event, its command (shortened; the whole command and the
// file it comes from in the tooltip), what it decided, how long it took, what it said, and what it
// left running that was ended when it returned. On a
// card the lines sit under its header; a hook of no call (a message sent, the agent stopping) is
// one such line in the conversation, starting with "Hook".
import type { HookRun } from "../protocol/HookRun";
import { hookTime, shortCommand, verdictTone, verdictWords } from "./hookWords";

interface Props {
  run: HookRun;
  /** A line alone in the conversation: it starts with "Hook". */
  standalone?: boolean;
  /** What the hook said is on the card already (why it was blocked): the line leaves it out. */
  saidElsewhere?: boolean;
}

export function HookLine({ run, standalone = false, saidElsewhere = false }: Props) {
  const short = shortCommand(run.command);
  return (
    <div
      className={`hook-line${standalone ? " hook-standalone" : ""}`}
      data-testid="hook-line"
      data-event={run.event}
      data-verdict={run.verdict}
      role={standalone ? "status" : undefined}
      title={run.message ?? undefined}
    >
      {standalone && <span className="hook-label">Hook </span>}
      <span className="hook-event">{run.event}</span>{" "}
      <code className="hook-command" title={`${run.command}\nfrom ${run.source}`}>
        {short}
      </code>{" "}
      <span className={`hook-verdict hook-${verdictTone(run)}`}>{verdictWords(run)}</span>
      <span className="hook-time"> · {hookTime(run)}</span>
      {run.message && !saidElsewhere && <span className="hook-message">: {run.message}</span>}
      {run.ended && (
        <span className="hook-ended" data-testid="hook-ended">
          {" "}
          · {run.ended}
        </span>
      )}
    </div>
  );
}

/** The hook lines of a card, in the order the hooks ran; `said`: the run the card's facts quote. */
export function HookLines({ runs, said = null }: { runs: readonly HookRun[]; said?: HookRun | null }) {
  if (runs.length === 0) return null;
  return (
    <div className="hook-lines" data-testid="hook-lines" aria-label="Hooks that ran">
      {runs.map((run, i) => (
        <HookLine key={i} run={run} saidElsewhere={run === said} />
      ))}
    </div>
  );
}
