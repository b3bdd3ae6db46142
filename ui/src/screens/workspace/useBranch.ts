// Editing an earlier message: a branch with the conversation before it opens, the message in its
// composer. Offered while no task runs (two agents in one workspace would be a surprise).
import { useCallback, useRef } from "react";
import type { Backend } from "../../backend";
import { errorMessage } from "../../backend";
import { draftKey, saveDraft } from "../../session/drafts";

export function useBranch(
  backend: Backend,
  workspace: string,
  current: string | null,
  on: { refresh: () => void; open: (id: string) => void; failed: (message: string) => void },
) {
  const { refresh, open, failed } = on;
  const shown = useRef(current);
  shown.current = current;
  const branching = useRef(false);
  return useCallback(
    (index: number, text: string) => {
      if (!current || branching.current) return;
      branching.current = true;
      backend.branchSession(current, index, text).then(
        (created) => {
          branching.current = false;
          saveDraft(draftKey(workspace, created.id), text);
          refresh();
          // The user may have opened another conversation meanwhile: it stays open.
          if (shown.current === current) open(created.id);
        },
        (e: unknown) => {
          branching.current = false;
          failed(errorMessage(e));
        },
      );
    },
    [backend, current, workspace, refresh, open, failed],
  );
}
