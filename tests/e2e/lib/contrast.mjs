// Contrast measured in the real window: a script run in the page reads, for each thing named,
// the computed colours of every element of it on screen and the backgrounds and opacities of
// its ancestors; contrastMath.mjs paints them as the page does and takes the WCAG ratio, and the
// worst element of each thing makes its row. `checkContrast` prints the table to the log and
// writes it beside the screenshots as <name>.contrast.json; `assertContrast` also fails on any
// row short of what it needs.
import { strict as assert } from "node:assert";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { SCREENSHOTS } from "./app.mjs";
import { failures, formatTable, rowOf } from "./contrastRows.mjs";

const FIELDS = 'input:not([type="checkbox"], [type="radio"], [type="hidden"]), select, textarea';

/**
 * What can be measured, by name. `kind` says what of each element is measured against what is
 * under it: "text" its text colour (elements with text of their own, or with `anyText` any
 * field), "placeholder" the colour of the page's ::placeholder rule for it, "fill" its own
 * background against its parent's, "border" its edge (its outline while it has one, as a
 * focused field does) against its parent's background, "focus" the focus ring (--focus)
 * against its parent's background. Text needs 4.5:1 (3:1 when large), the rest 3:1, unless
 * `needed` says otherwise.
 */
export const TARGETS = {
  "body text": {
    what: "Body text",
    selector: ".markdown :is(p, li), .msg-user .msg-body, .field > span:first-child, .settings-nav-item, .session-title, h1",
    kind: "text",
  },
  "muted text": { what: "Muted text", selector: ".muted, .muted *, h2", kind: "text" },
  placeholder: { what: "Placeholders", selector: ":is(input, textarea)[placeholder]", kind: "placeholder" },
  "field text": { what: "Typed text in fields", selector: FIELDS, kind: "text", anyText: true },
  "field edge": { what: "Field edges", selector: FIELDS, kind: "border" },
  checkbox: { what: "Checkbox edges", selector: 'input:is([type="checkbox"], [type="radio"])', kind: "border" },
  "focus ring": { what: "Focus ring", selector: `button, ${FIELDS}`, kind: "focus" },
  "primary button": { what: "Primary button label", selector: "button.primary:not(:disabled)", kind: "text" },
  "primary fill": { what: "Primary button fill", selector: "button.primary:not(:disabled)", kind: "fill" },
  "disabled primary": {
    what: "Disabled primary label",
    selector: 'button.primary:is(:disabled, [aria-disabled="true"])',
    kind: "text",
    needed: 3,
    note: "disabled controls are exempt from WCAG; 3:1 is this app's bar for a label that still reads",
  },
  button: { what: "Button labels", selector: "button:not(.primary, .stop, :disabled)", kind: "text" },
  "stop button": { what: "Stop label", selector: "button.stop", kind: "text" },
  "stop fill": { what: "Stop fill", selector: "button.stop", kind: "fill" },
  "diff header": {
    what: "Diff header",
    selector: ".diff-header :is(.diff-path, .diff-kind, .diff-count-added, .diff-count-removed, .diff-note), .diff-hunk-header th",
    kind: "text",
  },
  "diff line numbers": { what: "Diff line numbers", selector: ".diff-num, td.diff-sign", kind: "text" },
  links: { what: "Links", selector: ".link-button, .md-link, button.result-path", kind: "text" },
  "status bar": { what: "Status bar", selector: ".status-bar :is(span, button)", kind: "text" },
  "sidebar rows": { what: "Sidebar rows", selector: ".session-list :is(.session-title, .session-time, .empty)", kind: "text" },
};

/** The targets measured on a workspace with no session yet: its composer is empty, so Send is off. */
export const EMPTY_WORKSPACE_TARGETS = [
  "body text", "muted text", "placeholder", "field edge", "button", "primary button", "primary fill",
  "disabled primary", "status bar", "sidebar rows", "focus ring",
];

/** The targets measured on the first run's empty workspace, which asks for the key with a link to Settings. */
export const FIRST_RUN_TARGETS = [...EMPTY_WORKSPACE_TARGETS, "links"];

/** The targets measured on a workspace screen with a waiting diff and the task running. */
export const WORKSPACE_TARGETS = [
  "body text", "muted text", "placeholder", "field edge", "button", "stop button", "stop fill",
  "diff header", "diff line numbers", "status bar", "sidebar rows", "focus ring",
];

/** The targets measured on Settings › Provider, whose Save is disabled until something changes. */
export const SETTINGS_TARGETS = [
  "body text", "muted text", "placeholder", "field text", "field edge", "checkbox", "button",
  "disabled primary", "focus ring",
];

/**
 * Runs in the page (WebDriver sends its source, so it uses nothing from this module). For each
 * of `specs` ({ selector, kind, anyText }), up to `limit` elements on screen, each as a sample
 * for contrastMath's `measure` plus { fontSize, fontWeight, where }.
 */
function collect(specs, limit) {
  const shown = (el) => {
    if (el.getClientRects().length === 0 || getComputedStyle(el).visibility !== "visible") return false;
    for (let n = el; n; n = n.parentElement) if (Number(getComputedStyle(n).opacity) === 0) return false;
    return true;
  };
  const ownText = (el) => [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent.trim() !== "");
  const layersOf = (el) => {
    const out = [];
    for (let n = el; n; n = n.parentElement) {
      const style = getComputedStyle(n);
      out.push({ background: style.backgroundColor, opacity: style.opacity });
    }
    return out;
  };
  const where = (el) => {
    const classes = [...el.classList].map((c) => `.${c}`).join("");
    // Never a field's value: it may be a key being typed.
    const text = (el.getAttribute("placeholder") || el.textContent || "").trim().replace(/\s+/g, " ").slice(0, 28);
    return `${el.tagName.toLowerCase()}${classes}${text ? ` "${text}"` : ""}`;
  };
  // A CSS colour value (a var() too) as the page computes it next to `near`, or null.
  const resolve = (value, near) => {
    const probe = document.createElement("span");
    probe.style.setProperty("color", value);
    if (!probe.style.getPropertyValue("color")) return null;
    (near.parentElement ?? document.body).append(probe);
    const color = getComputedStyle(probe).color;
    probe.remove();
    return color;
  };
  // WebKit's getComputedStyle(el, "::placeholder") gives the field's own style, so the colour
  // comes from the page's rules: the last ::placeholder rule (in a media block that applies)
  // whose selector, less the pseudo-element, matches the field.
  const placeholderRule = (el) => {
    let color = null;
    const visit = (rules) => {
      for (const rule of rules) {
        if (rule.media && rule.cssRules) {
          if (matchMedia(rule.media.mediaText).matches) visit(rule.cssRules);
          continue;
        }
        const value = rule.style?.getPropertyValue("color");
        if (!rule.selectorText || !value) continue;
        for (const part of rule.selectorText.split(",")) {
          const m = /^(.*?)::?(?:placeholder|-webkit-input-placeholder)$/.exec(part.trim());
          if (!m) continue;
          try {
            if (el.matches(m[1].trim() || "*")) color = value;
          } catch {
            // A selector this engine does not know matches nothing.
          }
        }
      }
    };
    for (const sheet of document.styleSheets) {
      try {
        visit(sheet.cssRules);
      } catch {
        // A sheet from another origin cannot be read.
      }
    }
    return color;
  };
  return specs.map((spec) => {
    const found = { samples: [], note: "" };
    for (const el of document.querySelectorAll(spec.selector)) {
      if (found.samples.length >= limit) break;
      if (!shown(el)) continue;
      if (spec.kind === "text" && !spec.anyText && !ownText(el)) continue;
      const style = getComputedStyle(el);
      const sample = { layers: layersOf(el), fontSize: parseFloat(style.fontSize), fontWeight: Number(style.fontWeight) || 400, where: where(el) };
      if (spec.kind === "text") sample.fg = style.getPropertyValue("-webkit-text-fill-color") || style.color;
      else if (spec.kind === "fill") sample.fill = true;
      else if (spec.kind === "border") {
        // A focused field's visible edge is its outline (the composer's border goes transparent).
        const outlined = style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0;
        if (!outlined && parseFloat(style.borderTopWidth) === 0) continue;
        sample.fg = outlined ? style.outlineColor : style.borderTopColor;
        sample.outside = true;
      } else if (spec.kind === "focus") {
        sample.fg = resolve("var(--focus)", el);
        sample.outside = true;
      } else if (spec.kind === "placeholder") {
        const rule = placeholderRule(el);
        sample.fg = rule && resolve(rule, el);
        if (!rule) found.note = "no ::placeholder rule of the page's applies: the engine's own colour, not measurable";
      }
      found.samples.push(sample);
    }
    return found;
  });
}

/** Measures the targets `names` (keys of TARGETS) in the window of `browser`: one row each. */
export async function measureContrast(browser, names, limit = 200) {
  const targets = names.map((name) => {
    const target = TARGETS[name];
    if (!target) throw new Error(`no contrast target "${name}"; known: ${Object.keys(TARGETS).join(", ")}`);
    return target;
  });
  const found = await browser.execute(collect, targets.map(({ selector, kind, anyText }) => ({ selector, kind, anyText })), limit);
  return targets.map((target, i) => rowOf(target, found[i]));
}

/**
 * Measures `names` on the screen shown, prints the table to the log, writes it as
 * <SCREENSHOTS>/<name>.contrast.json (beside the screenshot of the same name) and returns the
 * rows; contrastRows.mjs's `failures(rows)` lists those that fall short.
 */
export async function checkContrast(browser, name, names) {
  const rows = await measureContrast(browser, names);
  console.log(formatTable(name, rows));
  writeFileSync(join(SCREENSHOTS, `${name}.contrast.json`), `${JSON.stringify(rows, null, 2)}\n`);
  return rows;
}

/**
 * `checkContrast`, then fails naming every row short of what it needs (WCAG AA), so one run
 * shows all of them.
 */
export async function assertContrast(browser, name, names) {
  const rows = await checkContrast(browser, name, names);
  const short = failures(rows);
  assert.deepEqual(short, [], `contrast on ${name} falls short:\n${short.join("\n")}`);
  return rows;
}
