// The contrast arithmetic, checked against values known from WCAG and by hand.
// Run with: cd tests/e2e && node --test lib/
import { strict as assert } from "node:assert";
import { test } from "node:test";
import {
  contrastRatio,
  floorRatio,
  formatColor,
  luminance,
  measure,
  mix,
  neededRatio,
  over,
  paint,
  parseColor,
} from "./contrastMath.mjs";

const WHITE = { r: 255, g: 255, b: 255, a: 1 };
const BLACK = { r: 0, g: 0, b: 0, a: 1 };
const near = (actual, expected, digits = 2) =>
  assert.ok(Math.abs(actual - expected) < 10 ** -digits, `${actual} is not ${expected} to ${digits} digits`);

test("colours are read in the forms getComputedStyle gives", () => {
  assert.deepEqual(parseColor("rgb(17, 18, 24)"), { r: 17, g: 18, b: 24, a: 1 });
  assert.deepEqual(parseColor("rgba(16, 24, 40, 0.35)"), { r: 16, g: 24, b: 40, a: 0.35 });
  assert.deepEqual(parseColor("rgb(1 2 3 / 50%)"), { r: 1, g: 2, b: 3, a: 0.5 });
  assert.deepEqual(parseColor("rgba(0, 0, 0, 0)"), { r: 0, g: 0, b: 0, a: 0 });
  assert.deepEqual(parseColor("transparent"), { r: 0, g: 0, b: 0, a: 0 });
  assert.deepEqual(parseColor("#4f46e5"), { r: 79, g: 70, b: 229, a: 1 });
  assert.deepEqual(parseColor("#fff"), WHITE);
  assert.deepEqual(parseColor("#00000080"), { r: 0, g: 0, b: 0, a: 128 / 255 });
  const srgb = parseColor("color(srgb 1 0.5 0 / 0.25)");
  assert.deepEqual(srgb, { r: 255, g: 127.5, b: 0, a: 0.25 });
});

test("what is not a plain colour is not read as one", () => {
  for (const value of ["auto", "currentcolor", "", "linear-gradient(red, blue)", "rgb(1, 2)", "#12345", undefined, null]) {
    assert.equal(parseColor(value), null, String(value));
  }
});

test("colours print as hex, with alpha only when not opaque", () => {
  assert.equal(formatColor({ r: 17, g: 18, b: 24, a: 1 }), "#111218");
  assert.equal(formatColor({ r: 255, g: 0, b: 0, a: 0.5 }), "#ff000080");
  assert.equal(formatColor({ r: 127.5, g: 0, b: 0, a: 1 }), "#800000");
});

test("luminance and ratio match WCAG's reference values", () => {
  near(luminance(WHITE), 1, 6);
  near(luminance(BLACK), 0, 6);
  near(contrastRatio(WHITE, BLACK), 21, 6);
  near(contrastRatio(BLACK, WHITE), 21, 6);
  near(contrastRatio(WHITE, WHITE), 1, 6);
  // #767676 on white is the classic lightest grey that passes AA: 4.54.
  near(contrastRatio(parseColor("#767676"), WHITE), 4.54);
  // #777777 is the classic one that just fails: 4.48.
  near(contrastRatio(parseColor("#777777"), WHITE), 4.48);
  // WebAIM's checker: #4f46e5 on white is 6.29.
  near(contrastRatio(parseColor("#4f46e5"), WHITE), 6.29);
});

test("a ratio is cut, never rounded up, to two decimals", () => {
  assert.equal(floorRatio(4.4999), 4.49);
  assert.equal(floorRatio(4.5), 4.5);
  assert.equal(floorRatio(21), 21);
});

test("a translucent colour over an opaque one blends channel by channel", () => {
  const half = over({ ...BLACK, a: 0.5 }, WHITE);
  near(half.r, 127.5, 6);
  near(half.a, 1, 6);
  assert.deepEqual(over(WHITE, BLACK), WHITE);
  assert.deepEqual(over({ r: 9, g: 9, b: 9, a: 0 }, BLACK), BLACK);
  // Two translucent layers: 0.5 over 0.5 covers 0.75.
  const two = over({ ...WHITE, a: 0.5 }, { ...BLACK, a: 0.5 });
  near(two.a, 0.75, 6);
  near(two.r, 170, 6);
  near(mix(BLACK, WHITE, 0.25).r, 63.75, 6);
});

test("painting: a transparent box shows the first painted ancestor", () => {
  const layers = [
    { background: { r: 0, g: 0, b: 0, a: 0 }, opacity: 1 },
    { background: { r: 0, g: 0, b: 0, a: 0 }, opacity: 1 },
    { background: parseColor("#1a1c25"), opacity: 1 },
    { background: parseColor("#111218"), opacity: 1 },
  ];
  assert.equal(formatColor(paint(layers)), "#1a1c25");
  assert.equal(formatColor(paint(layers, parseColor("#e7e8ee"))), "#e7e8ee");
  assert.equal(formatColor(paint([])), "#ffffff", "nothing painted: the canvas");
});

test("painting: an element's opacity fades its background and its text over what is behind", () => {
  // A disabled primary button: indigo with dark text at opacity 0.5 on black.
  const layers = [
    { background: parseColor("#8080ff"), opacity: 0.5 },
    { background: BLACK, opacity: 1 },
  ];
  assert.equal(formatColor(paint(layers)), "#404080");
  assert.equal(formatColor(paint(layers, WHITE)), "#808080");
  // An ancestor's opacity fades everything inside it the same way.
  const nested = [
    { background: { r: 0, g: 0, b: 0, a: 0 }, opacity: 1 },
    { background: parseColor("#8080ff"), opacity: 0.5 },
    { background: BLACK, opacity: 1 },
  ];
  assert.equal(formatColor(paint(nested, WHITE)), "#808080");
});

test("painting: a translucent background lies over the ancestors' colour", () => {
  const layers = [
    { background: parseColor("rgba(255, 255, 255, 0.1)"), opacity: 1 },
    { background: BLACK, opacity: 1 },
  ];
  assert.equal(formatColor(paint(layers)), "#1a1a1a");
});

test("text, a fill and a ring outside the box are each measured against what is under them", () => {
  const layers = [
    { background: "rgba(0, 0, 0, 0)", opacity: "1" },
    { background: "rgb(26, 28, 37)", opacity: "1" },
    { background: "rgb(17, 18, 24)", opacity: "1" },
  ];
  const text = measure({ fg: "rgb(231, 232, 238)", layers });
  assert.deepEqual(text, { fg: "#e7e8ee", bg: "#1a1c25", ratio: floorRatio(contrastRatio(parseColor("#e7e8ee"), parseColor("#1a1c25"))) });
  // A filled button against its parent: the fill is the button's own background.
  const button = [{ background: "rgb(220, 38, 38)", opacity: "1" }, ...layers.slice(1)];
  const fill = measure({ fill: true, layers: button });
  assert.equal(fill.fg, "#dc2626");
  assert.equal(fill.bg, "#1a1c25");
  // A ring drawn just outside the button lies on the parent, whatever the button's fill.
  const ring = measure({ fg: "rgb(129, 140, 248)", outside: true, layers: button });
  assert.equal(ring.bg, "#1a1c25");
  assert.equal(ring.fg, "#818cf8");
});

test("a colour that cannot be read gives no measurement instead of a wrong one", () => {
  assert.equal(measure({ fg: "auto", layers: [{ background: "rgb(0, 0, 0)", opacity: "1" }] }), null);
  assert.equal(measure({ fg: "rgb(0, 0, 0)", layers: [{ background: "linear-gradient(red, blue)", opacity: "1" }] }), null);
  assert.equal(measure({ fg: "rgb(0, 0, 0)", layers: [] }), null);
  assert.equal(measure({ fg: null, layers: [{ background: "rgb(0, 0, 0)", opacity: "1" }] }), null, "no colour is not a fill");
});

test("the ratio needed: 4.5 for text, 3 for large text and for controls", () => {
  assert.equal(neededRatio("text", 14, 400), 4.5);
  assert.equal(neededRatio("text", 18.66, 600), 4.5);
  assert.equal(neededRatio("text", 18.66, 700), 3);
  assert.equal(neededRatio("text", 24, 400), 3);
  assert.equal(neededRatio("control", 12, 400), 3);
});
