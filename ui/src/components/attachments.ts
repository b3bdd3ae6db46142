// What a message attaches, on the composer's side: the `@path` mentions in its text (sent as
// paths; the engine reads them when the model takes the message) and images pasted or dropped
// (read here, checked against the providers' smallest limit before they are sent).
import type { AttachInput } from "../protocol/AttachInput";
import type { AttachmentView } from "../protocol/AttachmentView";
import type { ImageInput } from "../protocol/ImageInput";

/** The image types a message may carry. */
export const IMAGE_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"];
/** The largest image a message may carry (Anthropic's limit, the smallest of the providers). */
export const MAX_IMAGE_BYTES = 5_000_000;

/** Trailing punctuation that ends a sentence, not a path: "see @a.rs." mentions `a.rs`. */
const TRAILING = /[.,;:!?)\]}'"]+$/;

/** The paths `text` mentions with `@` (`src/a.rs`, `src/a.rs:10-40`, `src/`), once each, in order. */
export function mentionsIn(text: string): string[] {
  const found = Array.from(text.matchAll(/(?:^|\s)@([^\s@]+)/g), (m) => {
    const raw = m[1] ?? "";
    // A range's digits are kept; sentence punctuation after it is not.
    const range = /^(.*:\d+(?:-\d+)?)[.,;!?)]*$/.exec(raw);
    return range ? range[1]! : raw.replace(TRAILING, "");
  });
  return Array.from(new Set(found.filter((p) => p.length > 0)));
}

/** `text` with `path` no longer mentioned: its words stay, without the `@`. */
export function withoutMention(text: string, path: string): string {
  const escaped = path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return text.replace(new RegExp(`(^|\\s)@(${escaped})(?=$|[\\s.,;:!?)\\]}'"])`, "g"), "$1$2");
}

/** What a message sends besides its text. */
export function attachInputs(text: string, images: ImageInput[]): AttachInput[] {
  return [
    ...mentionsIn(text).map((path): AttachInput => ({ kind: "path", path })),
    ...images.map((image): AttachInput => ({ kind: "image", ...image })),
  ];
}

function megabytes(bytes: number): string {
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

/** An image file as a message sends it, or an error that says why it cannot be sent. */
export function imageFromFile(file: File): Promise<ImageInput> {
  const name = file.name || null;
  const label = name ?? "The pasted image";
  if (!IMAGE_TYPES.includes(file.type)) {
    return Promise.reject(new Error(`${label} is not a PNG, JPEG, GIF or WebP image.`));
  }
  if (file.size > MAX_IMAGE_BYTES) {
    return Promise.reject(
      new Error(`${label} is ${megabytes(file.size)}; the limit is ${megabytes(MAX_IMAGE_BYTES)} per image.`),
    );
  }
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const url = String(reader.result ?? "");
      const comma = url.indexOf(",");
      resolve({ media_type: file.type, data: url.slice(comma + 1), name });
    };
    reader.onerror = () => reject(new Error(`${label} cannot be read.`));
    reader.readAsDataURL(file);
  });
}

/** A `data:` URL that shows `image`. */
export function imageUrl(image: { media_type: string; data: string }): string {
  return `data:${image.media_type};base64,${image.data}`;
}

/** The short label of an attachment in the conversation. */
export function attachmentLabel(view: AttachmentView): string {
  switch (view.kind) {
    case "file":
      return view.lines ? `${view.path}:${view.lines[0]}-${view.lines[1]}` : view.path;
    case "folder":
      return `${view.path} (${view.entries} ${view.entries === 1 ? "entry" : "entries"})`;
    case "image":
      return view.name ?? "image";
    case "unavailable":
      return `${view.mention} not attached`;
  }
}
