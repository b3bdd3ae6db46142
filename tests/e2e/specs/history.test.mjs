// A long stored conversation in the real window: a selection from its first messages to its
// last, made across a scroll, copies every message between (the list renders only the entries
// near the view), and pasting it into the composer gives them all.
import { strict as assert } from "node:assert";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { launch, makeHome, screenshot } from "../lib/app.mjs";
import { seedSession } from "../lib/history.mjs";

async function waitFor(what, check, timeout = 20000) {
  const deadline = Date.now() + timeout;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const GROUPS = 60;

test("a selection over a long conversation, made across a scroll, copies every message between its ends", async () => {
  const home = makeHome("history");
  const project = mkdtempSync(join(tmpdir(), "foreman-history-"));
  // The first launch creates the database; then the session is written into it.
  let app = await launch({ args: [project], home });
  await (await app.browser.$('[data-testid="workspace"]')).waitForDisplayed({ timeout: 30000 });
  await app.close();
  seedSession(join(home, "data", "dev.foreman.app", "foreman.db"), { id: "s-long", project, title: "A long session", groups: GROUPS });
  app = await launch({ args: [project], home });
  try {
    const b = app.browser;
    const item = await b.$('[data-testid="session-item"]');
    await item.waitForDisplayed({ timeout: 30000 });
    await item.click();
    await waitFor("the last message", async () => (await b.$('[data-testid="conversation"]').getText()).includes(`Done with step ${GROUPS - 1}.`));
    // To the top (earlier entries load there), where the person starts a selection in the
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
  } finally {
    await app.close();
  }
});
