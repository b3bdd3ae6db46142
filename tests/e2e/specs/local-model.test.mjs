// A real small model in the real window: Gemma 3 270M behind a real llama.cpp server
// (tests/local-model), set up as a local provider the way a user would, lists its model, and a
// plain answer streams into the conversation and ends. It judges what the app does with what the
// model really writes (a base model that echoes its prompt), never what the model says.
import { strict as assert } from "node:assert";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { startLocalModel } from "../../local-model/start.mjs";
import { launch, makeHome, screenshot } from "../lib/app.mjs";
import { waitFor } from "../lib/wait.mjs";

const home = makeHome("local-model");
const project = mkdtempSync(join(tmpdir(), "foreman-local-model-ws-"));
writeFileSync(join(project, "README.md"), "# a project for the local model\n");
let model;
let app;

before(async () => {
  // The server's own cap keeps the answer to a few seconds; the system prompt is left out so the
  // base model answers the message, not 3,000 tokens of instructions (see server.mjs).
  model = await startLocalModel({ maxTokens: 64, system: "drop" });
});

after(async () => {
  await app?.close();
  await model?.close();
});

const $ = (selector) => app.browser.$(selector);


test("a real local model: its answer streams into the conversation and ends", async (t) => {
  if (!model) {
    t.skip("FOREMAN_SKIP_LOCAL_MODEL is set");
    return;
  }
  app = await launch({ args: [project], home });
  await (await $('[data-testid="workspace-name"]')).waitForDisplayed({ timeout: 30000 });
  await (await $('[data-testid="open-settings"]')).click();
  await (await $('[data-testid="settings"]')).waitForDisplayed({ timeout: 10000 });
  await (await $('[data-testid="preset"]')).selectByAttribute("value", "lmstudio");
  await (await $('[data-testid="base-url"]')).setValue(model.url);
  // The server's model list (GET /v1/models) offers the model.
  const list = await $('[data-testid="model-list"]');
  await list.waitForDisplayed({ timeout: 20000 });
  await list.selectByAttribute("value", "gemma-3-270m-q4_k_m");
  assert.equal(await (await $('[data-testid="model"]')).getValue(), "gemma-3-270m-q4_k_m");
  await (await $('[data-testid="save-settings"]')).click();
  await (await $('[data-testid="preset"]')).scrollIntoView();
  await screenshot(app.browser, "90-local-model-settings");
  await (await $('[data-testid="close-settings"]')).click();

  const composer = await $('[data-testid="composer"]');
  await composer.waitForEnabled({ timeout: 20000 });
  await composer.click();
  await composer.addValue("What is the capital of France?");
  await (await $('[data-testid="send"]')).click();

  // While the task runs, the answer grows on screen: seen at two lengths before it ends.
  // Stop takes Send's place while the task runs, and goes when it ends.
  const running = async () => (await $('[data-testid="stop"]')).isExisting();
  const seen = new Set();
  await waitFor("the answer to grow while the model writes", async () => {
    const busy = await running();
    const messages = await app.browser.$$('[data-testid="assistant-message"]');
    const text = messages.length ? await messages[messages.length - 1].getText() : "";
    if (busy && text.trim()) seen.add(text.length);
    return seen.size >= 2;
  }, 30000);
  await screenshot(app.browser, "91-local-model-streaming");
  await waitFor("the task to end", async () => !(await running()), 60000);
  const messages = await app.browser.$$('[data-testid="assistant-message"]');
  const answer = await messages[messages.length - 1].getText();
  assert.ok(answer.trim().length > 0, "the answer stays in the conversation");
  const served = model.log.filter((line) => line.startsWith("request "));
  assert.ok(served.length >= 1, "the real server answered");
  console.error(`the model wrote: ${JSON.stringify(answer.slice(0, 200))}`);
  await screenshot(app.browser, "92-local-model-answered");
});
