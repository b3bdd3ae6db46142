// After a task that ended with an error a new attempt may get past (or at the iteration cap),
// its notice offers to run the model again; not while a message waits (it starts the next
// task). The button goes once clicked: the focus moves to the message box, where the next step
// is.
import { useMemo, type RefObject } from "react";
import type { ComposerFocus } from "../../components/Composer";
import type { RetryOffer } from "../../components/Conversation";
import type { SessionState } from "../../session/state";

export function useRetryOffer(state: SessionState, retry: () => Promise<void>, composer: RefObject<ComposerFocus | null>) {
  const at = !state.running && state.queued.length === 0 ? state.retryAt : null;
  const label = state.ended?.kind === "iteration_cap" ? "Continue" : "Retry";
  return useMemo<RetryOffer | undefined>(
    () =>
      at === null
        ? undefined
        : {
            at,
            label,
            run: () => {
              void retry();
              composer.current?.focus();
            },
          },
    [at, label, retry, composer],
  );
}
