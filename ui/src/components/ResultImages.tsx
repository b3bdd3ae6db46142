// The images a tool returned, shown in its card (the model only got a note about them).
import type { CallImages } from "../protocol/CallImages";
import type { ImageLeftOut } from "../protocol/ImageLeftOut";
import type { ToolImage } from "../protocol/ToolImage";

/** The image types a card shows: no SVG (it can carry script). The engine keeps only these too. */
export const SHOWN_IMAGE_TYPES: ReadonlySet<string> = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** True when `image` can go into a `data:` URL: an allowed type and base64 data. */
export function isShowable(image: ToolImage): boolean {
  return SHOWN_IMAGE_TYPES.has(image.mime_type) && image.data.length % 4 === 0 && BASE64.test(image.data);
}

const REASONS: Record<ImageLeftOut, string> = {
  too_large: "too large to show",
  call_limit: "over the limit of images one tool may return",
  unsupported_type: "not a PNG, JPEG, GIF or WebP image",
  invalid_data: "not valid image data",
};

function leftOutText(count: number, reason: ImageLeftOut): string {
  return `${count === 1 ? "1 image" : `${count} images`} not shown: ${REASONS[reason]}.`;
}

export function ResultImages({ tool, images }: { tool: string; images: CallImages }) {
  const shown = images.shown.filter(isShowable);
  const leftOut = new Map<ImageLeftOut, number>(images.left_out.map((l) => [l.reason, l.count]));
  const refused = images.shown.length - shown.length;
  if (refused > 0) leftOut.set("unsupported_type", (leftOut.get("unsupported_type") ?? 0) + refused);
  const notes = [...leftOut].map(([reason, count]) => leftOutText(count, reason));
  if (shown.length === 0 && notes.length === 0) return null;
  return (
    <div className="result-images">
      {shown.map((image, i) => (
        <img
          key={i}
          className="result-image"
          src={`data:${image.mime_type};base64,${image.data}`}
          alt={`Image ${i + 1} of ${shown.length} returned by ${tool} (${image.mime_type})`}
        />
      ))}
      {notes.map((note) => (
        <p key={note} className="muted small result-images-note">
          {note}
        </p>
      ))}
    </div>
  );
}
