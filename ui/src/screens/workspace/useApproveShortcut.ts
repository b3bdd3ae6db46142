// Ctrl/Cmd+Enter approves the only waiting request when focus is not in a text field, exactly
// as its card shows it ticked: some hunks, all of them, or (all unticked) nothing. The inbox's
// "a" approves the same way (approveOnlyWaiting).
import { useEffect, type RefObject } from "react";
import type { CardActions } from "../../components/ToolCard";
import type { CallView } from "../../session/state";
import { choosableHunks, hunkApproval, skippedHunks } from "../../session/hunkChoice";

/** What approving the only waiting request did: nothing waits, several do, or all its parts are unticked. */
export type ApproveResult = "approved" | "none" | "several" | "unticked";

/** Approves the only waiting request of `calls` as its card shows it ticked. */
export function approveOnlyWaiting(calls: Record<string, CallView>, actions: CardActions): ApproveResult {
  const waiting = Object.values(calls).filter((c) => c.approval);
  if (waiting.length > 1) return "several";
  const only = waiting[0];
  if (!only?.approval) return "none";
  const hash = only.approval.previewHash;
  const chosen = hunkApproval(choosableHunks(only), skippedHunks(only.id, hash));
  if (chosen.kind === "whole") actions.approve(only.id, hash, { kind: "once" });
  else if (chosen.kind === "some") actions.approveHunks(only.id, hash, chosen.hunks);
  else return "unticked";
  return "approved";
}

export function useApproveShortcut(calls: Record<string, CallView>, actions: CardActions, dialogOpen: RefObject<boolean>) {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!(e.key === "Enter" && (e.ctrlKey || e.metaKey)) || dialogOpen.current) return;
      const target = e.target as HTMLElement | null;
      // A hunk's box is not a text field: Ctrl+Enter right after ticking approves what is ticked.
      const field = target?.tagName === "TEXTAREA" || (target?.tagName === "INPUT" && !target.classList.contains("hunk-choice"));
      if (target && (field || target.closest(".approval-bar"))) return;
      const waiting = Object.values(calls).filter((c) => c.approval);
      if (waiting.length === 1) {
        e.preventDefault();
        approveOnlyWaiting(calls, actions);
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [calls, actions, dialogOpen]);
}
