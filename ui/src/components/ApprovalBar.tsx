// The decision on one waiting call: Approve, Reject (with a note to the agent), Always allow
// (with the rule it adds, editable), and Edit (change the proposed content before approving).
// When the user has unticked some of a diff's hunks, Approve writes only the ticked ones.
// Ctrl/Cmd+Enter approves and Esc rejects while the bar has focus; it never takes focus itself.
import { useRef, useState, type KeyboardEvent } from "react";
import type { ApprovalScope } from "../protocol/ApprovalScope";
import type { PrivateTarget } from "../protocol/PrivateTarget";
import type { RuleScope } from "../protocol/RuleScope";
import { hunkApproval } from "../session/hunkChoice";
import { useStuck } from "./useStuck";

interface Props {
  tool: string;
  /** What it approves, for the bar's label ("Write hello.txt", +60 −2). */
  what?: { words: string; added: number | null; removed: number | null };
  reason: string;
  suggestedRule: string | null;
  /** No rule can allow the call: "Always allow" is not offered. */
  noRule?: boolean;
  /** The fetch reaches this computer or a private network: said in warning colours. */
  privateTarget?: PrivateTarget | null;
  /** The full proposed file content, when the user may edit it before approving. */
  editableContent: string | null;
  refused: string | null;
  /** The diff's hunks when the user may choose among them, and those they left out. */
  hunks?: { total: number; skipped: ReadonlySet<number> } | null;
  onApprove(scope: ApprovalScope): void;
  /** Approves only the hunks at these indices. */
  onApproveHunks?(hunks: number[]): void;
  onReject(feedback: string | null): void;
  onEditApprove(content: string): void;
}

type Mode = "idle" | "reject" | "always" | "edit";

export function ApprovalBar(props: Props) {
  const [mode, setMode] = useState<Mode>("idle");
  const [note, setNote] = useState("");
  const [rule, setRule] = useState(props.suggestedRule ?? `${props.tool}(*)`);
  const [scope, setScope] = useState<RuleScope>("session");
  const [content, setContent] = useState(props.editableContent ?? "");
  const bar = useRef<HTMLDivElement>(null);
  // Pinned over a diff that goes on below it (state.css: `bottom: 8px`).
  const stuck = useStuck(bar, 8);

  const chosen = hunkApproval(props.hunks?.total ?? 0, props.hunks?.skipped ?? new Set());
  // With hunks left out, the whole-change actions (a rule, an edit of everything) are not offered.
  const whole = chosen.kind === "whole";
  const approve = () => {
    if (chosen.kind === "whole") props.onApprove({ kind: "once" });
    else if (chosen.kind === "some") props.onApproveHunks?.(chosen.hunks);
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      if (mode === "reject") props.onReject(note.trim() || null);
      // A hunk unticked after the bar opened these: they would write every hunk.
      else if (mode === "always") whole && props.onApprove({ kind: "always", rule: rule.trim(), scope });
      else if (mode === "edit") whole && props.onEditApprove(content);
      else approve();
    } else if (e.key === "Escape") {
      e.preventDefault();
      if (mode === "idle") props.onReject(null);
      else setMode("idle");
    }
  };

  return (
    <div
      ref={bar}
      className={`approval-bar approval-sticky${stuck ? " stuck" : ""}`}
      role="group"
      aria-label={props.what ? `Approve ${props.what.words}` : `Approval for ${props.tool}`}
      data-testid="approval-bar"
      onKeyDown={onKeyDown}
    >
      <div className="approval-reason">
        <strong className="approval-what" data-testid="approval-what" title={props.what?.words}>
          {props.what ? props.what.words : "Approve"}
          {props.what && props.what.added !== null && (
            <span className="approval-counts">
              <span className="diff-count-added">+{props.what.added}</span>
              {props.what.removed ? <span className="diff-count-removed"> −{props.what.removed}</span> : null}
            </span>
          )}
          ?
        </strong>{" "}
        <span className="muted approval-why">{props.reason}</span>
        <span className="muted keys">
          {" "}
          Ctrl+Enter approves · Esc rejects{props.hunks ? " · untick a part to leave it out" : ""}
        </span>
      </div>
      {props.privateTarget && (
        <div className="approval-private" role="note" data-testid="private-target">
          <strong>Private address:</strong> {describeTarget(props.privateTarget)}
        </div>
      )}
      {props.refused && (
        <div className="approval-refused" role="alert">
          {props.refused}
        </div>
      )}
      {mode === "reject" && (
        <label className="approval-field">
          <span>Note to the agent (optional)</span>
          <textarea
            data-testid="reject-note"
            value={note}
            rows={2}
            onChange={(e) => setNote(e.target.value)}
            placeholder="What should it do instead?"
            autoFocus
          />
        </label>
      )}
      {mode === "always" && (
        <div className="approval-field">
          <label>
            <span>Rule to add</span>
            <input data-testid="rule-input" value={rule} onChange={(e) => setRule(e.target.value)} autoFocus />
          </label>
          <label>
            <span>For</span>
            <select value={scope} onChange={(e) => setScope(e.target.value as RuleScope)}>
              <option value="session">this session</option>
              <option value="workspace">this workspace (remembered)</option>
              <option value="user">every workspace (remembered)</option>
            </select>
          </label>
        </div>
      )}
      {mode === "edit" && (
        <label className="approval-field">
          <span>Your version of the file (this is what will be written)</span>
          <textarea
            data-testid="edit-content"
            className="mono"
            value={content}
            rows={Math.min(20, Math.max(4, content.split("\n").length + 1))}
            onChange={(e) => setContent(e.target.value)}
            autoFocus
          />
        </label>
      )}
      <div className="approval-actions">
        {mode === "idle" && (
          <>
            <button
              className="primary"
              data-testid="approve"
              disabled={chosen.kind === "none"}
              title={chosen.kind === "none" ? "Every part is unticked: reject instead" : undefined}
              onClick={approve}
            >
              {chosen.kind === "some" ? `Approve ${chosen.hunks.length} of ${props.hunks?.total} parts` : "Approve"}
            </button>
            <button data-testid="reject" onClick={() => setMode("reject")}>
              Reject…
            </button>
            {!props.noRule && (
              <button
                data-testid="always"
                disabled={!whole}
                title={whole ? undefined : "Tick every part to approve it with a rule"}
                onClick={() => setMode("always")}
              >
                Always allow…
              </button>
            )}
            {props.editableContent !== null && (
              <button
                data-testid="edit"
                disabled={!whole}
                title={whole ? undefined : "Tick every part to edit the whole file"}
                onClick={() => setMode("edit")}
              >
                Edit…
              </button>
            )}
          </>
        )}
        {mode === "reject" && (
          <>
            <button className="danger" data-testid="confirm-reject" onClick={() => props.onReject(note.trim() || null)}>
              Reject
            </button>
            <button className="ghost" onClick={() => setMode("idle")}>
              Back
            </button>
          </>
        )}
        {mode === "always" && (
          <>
            <button
              className="primary"
              data-testid="confirm-always"
              disabled={!rule.trim() || !whole}
              title={whole ? undefined : "Tick every part to approve it with a rule"}
              onClick={() => props.onApprove({ kind: "always", rule: rule.trim(), scope })}
            >
              Approve and add rule
            </button>
            <button className="ghost" onClick={() => setMode("idle")}>
              Back
            </button>
          </>
        )}
        {mode === "edit" && (
          <>
            <button
              className="primary"
              data-testid="confirm-edit"
              disabled={!whole}
              title={whole ? undefined : "Tick every part to write your version of the whole file"}
              onClick={() => props.onEditApprove(content)}
            >
              Approve my version
            </button>
            <button className="ghost" onClick={() => setMode("idle")}>
              Back
            </button>
          </>
        )}
      </div>
    </div>
  );
}

const KIND_TEXT: Record<PrivateTarget["kind"], string> = {
  loopback: "is this computer (loopback)",
  cloud_metadata: "is a cloud metadata service, which can hand out credentials",
  link_local: "is a link-local address on your network",
  private_network: "is on a private network",
};

/** What a private target is, in one sentence (as the engine's `PrivateTarget::describe`). */
export function describeTarget(t: PrivateTarget): string {
  const name = t.host === t.address ? t.host : `${t.host} (${t.address})`;
  return `${name} ${KIND_TEXT[t.kind]}`;
}
