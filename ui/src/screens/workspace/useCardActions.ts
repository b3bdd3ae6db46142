// What the cards do: each button is one op to the engine. Only a running session can undo (a
// stored one shown without its engine cannot).
import { useMemo } from "react";
import type { CardActions } from "../../components/ToolCard";
import type { Op } from "../../protocol/Op";

export function useCardActions(op: (op: Op) => Promise<void>, stopped: string | null): CardActions {
  return useMemo<CardActions>(
    () => ({
      approve: (call_id, preview_hash, scope) => void op({ op: "approve", call_id, preview_hash, scope }),
      reject: (call_id, feedback) => void op({ op: "reject", call_id, feedback }),
      editApprove: (call_id, preview_hash, new_content) =>
        void op({ op: "edit_and_approve", call_id, preview_hash, new_content }),
      approveHunks: (call_id, preview_hash, hunks) => void op({ op: "approve_hunks", call_id, preview_hash, hunks }),
      loadPreview: (call_id) => void op({ op: "load_preview", call_id }),
      undo: stopped ? undefined : (call_id) => void op({ op: "undo_change", call_id }),
      undoHunk: stopped ? undefined : (call_id, hunk) => void op({ op: "undo_hunks", call_id, hunks: [hunk] }),
    }),
    [op, stopped],
  );
}
