// The attachments of a message as chips: in the composer, what will be sent (each removable);
// in the conversation, what was sent (a file cut or not attached says why on its chip).
import type { AttachmentView } from "../protocol/AttachmentView";
import type { ImageInput } from "../protocol/ImageInput";
import { attachmentLabel, imageUrl } from "./attachments";

/** What the composer will attach: the mentioned paths and the images, each with a remove button. */
export function ComposerChips({
  mentions,
  images,
  onRemoveMention,
  onRemoveImage,
}: {
  mentions: string[];
  images: ImageInput[];
  onRemoveMention(path: string): void;
  onRemoveImage(index: number): void;
}) {
  if (mentions.length === 0 && images.length === 0) return null;
  return (
    <ul className="chips" data-testid="composer-attachments" aria-label="Attached to the message">
      {mentions.map((path) => (
        <li key={`p-${path}`} className="chip" title={path.endsWith("/") ? `The agent gets the listing of ${path}` : `The agent gets ${path} with the message`}>
          <span className="chip-label">@{path}</span>
          <button type="button" className="chip-remove" aria-label={`Do not attach ${path}`} onClick={() => onRemoveMention(path)}>
            ×
          </button>
        </li>
      ))}
      {images.map((image, i) => (
        <li key={`i-${i}`} className="chip chip-image" title={image.name ?? "Pasted image"}>
          <img src={imageUrl(image)} alt={image.name ?? "Pasted image"} />
          <button type="button" className="chip-remove" aria-label={`Remove ${image.name ?? "the pasted image"}`} onClick={() => onRemoveImage(i)}>
            ×
          </button>
        </li>
      ))}
    </ul>
  );
}

/** What a sent message attached. */
export function MessageAttachments({ attachments }: { attachments: AttachmentView[] }) {
  if (attachments.length === 0) return null;
  return (
    <ul className="chips msg-attachments" data-testid="message-attachments" aria-label="Attached">
      {attachments.map((a, i) =>
        a.kind === "image" ? (
          <li key={i} className="chip chip-image">
            <a href={imageUrl(a)} target="_blank" rel="noreferrer" title={a.name ?? "Image"}>
              <img src={imageUrl(a)} alt={a.name ?? "Attached image"} />
            </a>
          </li>
        ) : (
          <li
            key={i}
            className={a.kind === "unavailable" ? "chip chip-warn" : "chip"}
            title={a.kind === "unavailable" ? a.reason : (a.note ?? undefined)}
          >
            <span className="chip-label">{attachmentLabel(a)}</span>
            {a.kind === "unavailable" && <span className="chip-note">: {a.reason}</span>}
            {a.kind !== "unavailable" && a.note && <span className="chip-note"> · cut</span>}
          </li>
        ),
      )}
    </ul>
  );
}
