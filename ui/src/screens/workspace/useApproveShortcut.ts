// Ctrl/Cmd+Enter approves the only waiting request when focus is not in a text field, exactly
// as its card shows it ticked: some hunks, all of them, or (all unticked) nothing.
import { useEffect, type RefObject } from "react";
import type { CardActions } from "../../components/ToolCard";
import type { CallView } from "../../session/state";
import { choosableHunks, hunkApproval, skippedHunks } from "../../session/hunkChoice";

export function useApproveShortcut(calls: Record<string, CallView>, actions: CardActions, dialogOpen: RefObject<boolean>) {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!(e.key === "Enter" && (e.ctrlKey || e.metaKey)) || dialogOpen.current) return;
      const target = e.target as HTMLElement | null;
      // A hunk's box is not a text field: Ctrl+Enter right after ticking approves what is ticked.
      const field = target?.tagName === "TEXTAREA" || (target?.tagName === "INPUT" && !target.classList.contains("hunk-choice"));
      if (target && (field || target.closest(".approval-bar"))) return;
      const waiting = Object.values(calls).filter((c) => c.approval);
      const only = waiting.length === 1 ? waiting[0] : undefined;
      if (only?.approval) {
        e.preventDefault();
        const hash = only.approval.previewHash;
        const chosen = hunkApproval(choosableHunks(only), skippedHunks(only.id, hash));
        if (chosen.kind === "whole") actions.approve(only.id, hash, { kind: "once" });
        else if (chosen.kind === "some") actions.approveHunks(only.id, hash, chosen.hunks);
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [calls, actions, dialogOpen]);
}
