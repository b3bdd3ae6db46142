// The arithmetic of WCAG contrast, kept apart from the window so it can be tested with plain
// node (`node --test lib/`): reading a CSS colour, painting layers the way the page paints them
// (backgrounds with alpha, and an ancestor's `opacity` over everything inside it), the relative
// luminance and contrast ratio of WCAG 2.x, and the ratio a thing needs.

/** WCAG AA: normal text, large text, and the parts of controls that identify them. */
export const AA_TEXT = 4.5;
export const AA_LARGE_TEXT = 3;
export const AA_CONTROL = 3;

/**
 * A CSS colour as the page computes it, as { r, g, b, a } (r, g, b from 0 to 255, a from 0 to
 * 1), or null for a value that is not a plain colour ("auto", "currentcolor", a gradient).
 * Reads rgb()/rgba() in both syntaxes, #hex, "transparent" and color(srgb ...).
 */
export function parseColor(text) {
  const value = String(text ?? "").trim().toLowerCase();
  if (value === "transparent") return { r: 0, g: 0, b: 0, a: 0 };
  const hex = /^#([0-9a-f]{3,8})$/.exec(value);
  if (hex) return parseHex(hex[1]);
  const rgb = /^rgba?\((.*)\)$/.exec(value);
  if (rgb) {
    const parts = channels(rgb[1]);
    if (!parts || parts.length < 3 || parts.length > 4) return null;
    const [r, g, b] = parts.slice(0, 3).map((p) => (p.endsWith("%") ? (parseFloat(p) * 255) / 100 : parseFloat(p)));
    return finish(r, g, b, parts[3]);
  }
  const srgb = /^color\(srgb\s+(.*)\)$/.exec(value);
  if (srgb) {
    const parts = channels(srgb[1]);
    if (!parts || parts.length < 3 || parts.length > 4) return null;
    const [r, g, b] = parts.slice(0, 3).map((p) => (p.endsWith("%") ? parseFloat(p) / 100 : parseFloat(p)) * 255);
    return finish(r, g, b, parts[3]);
  }
  return null;
}

/** The channels of rgb(...): "1, 2, 3, 0.5" or "1 2 3 / 50%". */
function channels(inner) {
  const slash = inner.split("/");
  if (slash.length > 2) return null;
  const main = slash[0].trim().split(/[\s,]+/).filter(Boolean);
  if (slash.length === 2) main.push(slash[1].trim());
  return main;
}

function parseHex(digits) {
  if (![3, 4, 6, 8].includes(digits.length)) return null;
  const full = digits.length <= 4 ? [...digits].map((d) => d + d).join("") : digits;
  const byte = (i) => parseInt(full.slice(i, i + 2), 16);
  return { r: byte(0), g: byte(2), b: byte(4), a: full.length === 8 ? byte(6) / 255 : 1 };
}

function finish(r, g, b, alphaText) {
  let a = 1;
  if (alphaText !== undefined) a = alphaText.endsWith("%") ? parseFloat(alphaText) / 100 : parseFloat(alphaText);
  if (![r, g, b, a].every(Number.isFinite)) return null;
  const clamp = (v, max) => Math.min(max, Math.max(0, v));
  return { r: clamp(r, 255), g: clamp(g, 255), b: clamp(b, 255), a: clamp(a, 1) };
}

/** "#rrggbb", with "aa" added when the colour is not opaque. */
export function formatColor(c) {
  const byte = (v) => Math.round(v).toString(16).padStart(2, "0");
  const alpha = c.a < 1 ? byte(c.a * 255) : "";
  return `#${byte(c.r)}${byte(c.g)}${byte(c.b)}${alpha}`;
}

/** `top` painted over `bottom` (source-over, as the page paints one box over another). */
export function over(top, bottom) {
  const a = top.a + bottom.a * (1 - top.a);
  if (a === 0) return { r: 0, g: 0, b: 0, a: 0 };
  const channel = (t, b) => (t * top.a + b * bottom.a * (1 - top.a)) / a;
  return { r: channel(top.r, bottom.r), g: channel(top.g, bottom.g), b: channel(top.b, bottom.b), a };
}

/** `from` with `to` painted over it at `amount` (0 gives `from`, 1 gives `to`). */
export function mix(from, to, amount) {
  return over({ ...to, a: to.a * amount }, from);
}

/** What is under everything: the window's canvas, opaque white unless the root paints. */
export const CANVAS = { r: 255, g: 255, b: 255, a: 1 };

/**
 * The opaque colour seen at one point of an element, painted as the page paints it.
 * `layers` runs from the element out to the root: each is { background, opacity } with the
 * background a parsed colour. Each box paints its background over what its ancestors painted,
 * then its children; its opacity then fades all of that over what was there before it. With
 * `text` (a parsed colour) the element's text is painted last, inside the element's own layer.
 * Without it, the result is the background the text sits on.
 */
export function paint(layers, text = null, canvas = CANVAS) {
  const inside = (i, below) => {
    const { background, opacity } = layers[i];
    let drawn = over(background, below);
    drawn = i === 0 ? (text ? over(text, drawn) : drawn) : inside(i - 1, drawn);
    return mix(below, drawn, opacity);
  };
  return layers.length === 0 ? (text ? over(text, canvas) : canvas) : inside(layers.length - 1, canvas);
}

/** WCAG 2.x relative luminance of an opaque colour. */
export function luminance(c) {
  const linear = (v) => {
    const s = v / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(c.r) + 0.7152 * linear(c.g) + 0.0722 * linear(c.b);
}

/** The WCAG contrast ratio of two opaque colours, from 1 to 21. */
export function contrastRatio(a, b) {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light + 0.05) / (dark + 0.05);
}

/** A ratio cut (not rounded) to two decimals, so a shown 4.50 never stands for 4.497. */
export function floorRatio(ratio) {
  return Math.floor(ratio * 100 + 1e-9) / 100;
}

/**
 * The ratio WCAG AA asks of a thing: 3 for a control's edge or fill and for large text
 * (24 px, or 18.66 px from bold on), 4.5 for other text.
 */
export function neededRatio(kind, fontSizePx = 0, fontWeight = 400) {
  if (kind === "control") return AA_CONTROL;
  const large = fontSizePx >= 24 || (fontSizePx >= 18.66 && fontWeight >= 700);
  return large ? AA_LARGE_TEXT : AA_TEXT;
}

/**
 * One measured pair from what the page reported. `sample.layers` is as `paint` takes them, with
 * CSS strings, from the element out to the root. With `sample.fg` (a CSS colour: text, a
 * placeholder, a checkbox's accent) that colour is painted inside the element, or, with
 * `sample.outside`, just outside it (a focus ring drawn around the box), and measured against
 * what is under it there. With `sample.fill` instead, the element's own background is measured
 * against what is around it (a filled button on its bar). Returns { fg, bg, ratio } as opaque hex colours and
 * the floored ratio, or null when a colour cannot be read.
 */
export function measure(sample) {
  const layers = sample.layers.map((l) => ({ background: parseColor(l.background), opacity: Number(l.opacity) }));
  if (layers.length === 0 || layers.some((l) => !l.background || !Number.isFinite(l.opacity))) return null;
  let front;
  let back;
  if (sample.fill) {
    front = paint(layers);
    back = paint(layers.slice(1));
  } else {
    const fg = parseColor(sample.fg);
    if (!fg) return null;
    const at = sample.outside ? layers.slice(1) : layers;
    front = paint(at, fg);
    back = paint(at);
  }
  return { fg: formatColor(front), bg: formatColor(back), ratio: floorRatio(contrastRatio(front, back)) };
}
