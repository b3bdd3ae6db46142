// A long stored conversation in the real window: a selection from its first messages to its
// last, made across a scroll, copies every message between (the list renders only the entries
// near the view), and pasting it into the composer gives them all; Ctrl+F finds text in entries
// that are not drawn and brings each into view.
import { strict as assert } from "node:assert";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { launch, makeHome, screenshot } from "../lib/app.mjs";
import { waitFor } from "../lib/wait.mjs";
import { seedSession } from "../lib/history.mjs";


const GROUPS = 60;

let app;

before(async () => {
  const home = makeHome("history");
  const project = mkdtempSync(join(tmpdir(), "foreman-history-"));
  // The first launch creates the database; then the session is written into it.
  app = await launch({ args: [project], home });
  await (await app.browser.$('[data-testid="workspace"]')).waitForDisplayed({ timeout: 30000 });
  await app.close();
  seedSession(join(home, "data", "dev.foreman.app", "foreman.db"), { id: "s-long", project, title: "A long session", groups: GROUPS });
  app = await launch({ args: [project], home });
});

after(async () => {
  await app?.close();
});

test("a selection over a long conversation, made across a scroll, copies every message between its ends", async () => {
  const b = app.browser;
  const item = await b.$('[data-testid="session-item"]');
  await item.waitForDisplayed({ timeout: 30000 });
  await item.click();
  await waitFor("the last message", async () => (await b.$('[data-testid="conversation"]').getText()).includes(`Done with step ${GROUPS - 1}.`));
  // To the top (earlier entries load there), where the user starts a selection in the
  // second request; then to the bottom, where they extend it into the last answer.
  const made = await b.execute(async (groups) => {
    const el = document.querySelector('[data-testid="conversation"]');
    const frames = async (n = 3) => {
      for (let i = 0; i < n; i += 1) await new Promise((r) => requestAnimationFrame(r));
    };
    const textOf = (needle) => {
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) if (node.data.includes(needle)) return node;
      return null;
    };
    for (let i = 0; i < 50 && !textOf("Request number 0:"); i += 1) {
      el.scrollTop = 0;
      await frames();
    }
    const start = textOf("Request number 1:");
    if (!start) return { error: "no first request after scrolling to the top" };
    getSelection().setBaseAndExtent(start, 0, start, 7);
    await frames();
    el.scrollTop = el.scrollHeight;
    await frames(6);
    const end = textOf(`Done with step ${groups - 1}.`);
    if (!end) return { error: "no last answer after scrolling to the bottom" };
    getSelection().extend(end, end.data.length);
    await frames();
    const entries = el.querySelectorAll("[data-entry]").length;
    const all = el.querySelectorAll("[data-entry-index]");
    window.__lastAnswer = end.parentElement;
    return { entries, first: all[0]?.textContent, kept: el.contains(getSelection().anchorNode), top: end.parentElement.getBoundingClientRect().top };
  }, GROUPS);
  assert.ok(!made.error, made.error);
  assert.ok(made.kept, "the selection's start stays in the list after scrolling away from it");
  assert.match(made.first, /Request number 1:/, "the entry holding the selection's start is rendered");
  await screenshot(b, "75-long-conversation-selection");
  // Copy (Ctrl+C), then paste into the composer.
  const started = Date.now();
  await b.keys(["Control", "c"]);
  const copyMs = Date.now() - started;
  // The view stays where it was: the last answer is where it was on the screen.
  const after = await b.execute(() => window.__lastAnswer.getBoundingClientRect().top);
  assert.ok(Math.abs(after - made.top) < 2, `the last answer stays in place (${made.top} → ${after})`);
  const composer = await b.$('[data-testid="composer"]');
  await composer.click();
  await b.keys(["Control", "v"]);
  await waitFor("the pasted text", async () => (await composer.getValue()).includes(`Done with step ${GROUPS - 1}.`));
  const pasted = await composer.getValue();
  let at = 0;
  for (let i = 1; i < GROUPS; i += 1) {
    for (const text of [`Request number ${i}: please look at file_${i}.rs`, `Done with step ${i}.`]) {
      const found = pasted.indexOf(text, at);
      assert.ok(found >= 0, `the copy has "${text}" after what came before it`);
      at = found;
    }
  }
  assert.ok(!pasted.includes("Request number 0:"), "the copy starts at the selection's start");
  console.log(`copying ${GROUPS - 1} rounds of the conversation took ${copyMs} ms (Ctrl+C sent and answered over WebDriver)`);
  await screenshot(b, "76-long-conversation-pasted");
});

test("Ctrl+F finds text in entries that are not drawn, brings each into view and marks it", async () => {
  const b = app.browser;
  const composer = await b.$('[data-testid="composer"]');
  await composer.click();
  await b.keys(["Control", "f"]);
  const input = await b.$('[data-testid="find-input"]');
  await input.waitForDisplayed({ timeout: 5000 });
  await waitFor("the find field focused", async () => (await b.execute(() => document.activeElement?.getAttribute("data-testid"))) === "find-input");
  // "step 5" is in the closing answers of rounds 5 and 50-59: 11 entries, the newest shown first.
  await input.addValue("step 5");
  const count = await b.$('[data-testid="find-count"]');
  await waitFor("the matches counted", async () => (await count.getText()) === "11 of 11");
  const shown = async (text) =>
    b.execute((needle) => {
      const el = document.querySelector(".entry-found");
      const view = document.querySelector('[data-testid="conversation"]').getBoundingClientRect();
      if (!el || !el.textContent.includes(needle)) return false;
      const box = el.getBoundingClientRect();
      const current = CSS.highlights.get("find-current");
      return box.top >= view.top && box.top < view.bottom && current?.size === 1;
    }, text);
  await waitFor("the newest match in view and marked", () => shown("Done with step 59."));
  // Round 58's answer, drawn near it, holds the text too: it is marked as a match.
  assert.ok((await b.execute(() => CSS.highlights.get("find-match")?.size ?? 0)) >= 1, "the other matches drawn are marked");
  // Shift+Enter steps back to older entries, all the way to round 5, far above the view.
  for (let n = 10; n >= 1; n -= 1) await b.keys(["Shift", "Enter"]);
  await waitFor("the first match", async () => (await count.getText()) === "1 of 11");
  await waitFor("round 5's answer in view and marked", () => shown("Done with step 5."));
  await screenshot(b, "77-find-in-conversation");
  // Enter goes on round to the next, and Esc closes the bar and its marks.
  await b.keys(["Enter"]);
  await waitFor("the second match", async () => (await count.getText()) === "2 of 11");
  await waitFor("round 50's answer in view", () => shown("Done with step 50."));
  await b.keys(["Escape"]);
  await waitFor("the bar closed", async () => !(await b.$('[data-testid="find-bar"]').isExisting()));
  assert.equal(await b.execute(() => CSS.highlights.get("find-current")?.size ?? 0), 0, "no marks once closed");
});
