// A notice in the conversation: how a task ended, a compaction, a rule added. An error reads in
// plain words ("Connection dropped mid-answer") with the engine's full message behind Details;
// once a retry got past it, it turns grey and says "Reconnected".
import { useState } from "react";
import { plainError } from "../session/plainError";

/** A button on the notice of a task's end: run the model again from there. */
export interface RetryOffer {
  /** The notice's item id. */
  at: number;
  /** "Retry" after an error, "Continue" at the iteration cap. */
  label: string;
  run(): void;
}

interface Props {
  id: number;
  tone: "info" | "error";
  text: string;
  recovered?: boolean;
  retry?: RetryOffer;
}

export function Notice({ id, tone, text, recovered = false, retry }: Props) {
  const [open, setOpen] = useState(false);
  const plain = tone === "error" ? plainError(text) : null;
  const shownTone = recovered ? "recovered" : tone;
  const title = recovered ? `Reconnected after: ${plain?.title ?? "an error"}` : (plain?.title ?? text);
  const hint = !recovered && plain?.hint;
  const details = plain || recovered;
  return (
    <div className={`notice notice-${shownTone}${retry || details ? " notice-with-action" : ""}`} data-testid="notice">
      <span id={`notice-${id}`} role={shownTone === "error" ? "alert" : "status"}>
        {plain || recovered ? <strong className="notice-title">{title}</strong> : title}
        {hint && <span className="notice-hint"> {hint}</span>}
        {details && open && (
          <span className="notice-details" data-testid="notice-details">
            {text}
          </span>
        )}
      </span>
      {details && (
        <button type="button" className="ghost small notice-toggle" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
          {open ? "Hide details" : "Details"}
        </button>
      )}
      {retry && (
        <button type="button" className="notice-action" data-testid="retry" aria-describedby={`notice-${id}`} onClick={retry.run}>
          {retry.label}
        </button>
      )}
    </div>
  );
}
