// The window in the dark theme: the first run, Settings, a diff waiting for approval and the
// workspace after it, pictured, with their contrast measured against WCAG AA (lib/contrast.mjs). WebKitGTK takes the page's
// `prefers-color-scheme` from the GTK theme, so GTK_THEME=Adwaita:dark makes the page dark with
// nothing in the app set for the test.
import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { launch, makeHome, screenshot } from "../lib/app.mjs";
import { assertContrast, FIRST_RUN_TARGETS, SETTINGS_TARGETS, WORKSPACE_TARGETS } from "../lib/contrast.mjs";
import { waitFor } from "../lib/wait.mjs";
import { startModel } from "../lib/model.mjs";

const home = makeHome("dark");
const project = mkdtempSync(join(tmpdir(), "foreman-dark-ws-"));
const GREETING = Array.from({ length: 12 }, (_, i) => `line ${i + 1} of the greeting`).join("\n") + "\n";
writeFileSync(join(project, "hello.txt"), GREETING);
const KEY = "sk-ant-e2e-dark-key";
let model;
let app;

before(async () => {
  model = await startModel();
  app = await launch({ args: [project], home, env: { GTK_THEME: "Adwaita:dark" } });
});

after(async () => {
  await app?.close();
  await model?.close();
  // The specs of one run share the Secret Service: the next one starts without a key, as a
  // first run does.
  execFileSync("secret-tool", ["clear", "service", "foreman", "username", "anthropic"]);
});

const $ = (selector) => app.browser.$(selector);


test("the page is dark, and the first run asks for the key in the empty conversation", async () => {
  await (await $('[data-testid="workspace-name"]')).waitForDisplayed({ timeout: 30000 });
  const dark = await app.browser.execute(() => matchMedia("(prefers-color-scheme: dark)").matches);
  assert.equal(dark, true, "GTK_THEME=Adwaita:dark makes the page prefer the dark scheme");
  const background = await app.browser.execute(() => getComputedStyle(document.documentElement).backgroundColor);
  assert.equal(background, "rgb(17, 18, 24)", "the dark palette's background");
  await (await $('[data-testid="first-run-key"]')).waitForDisplayed({ timeout: 10000 });
  assert.match(await (await $('[data-testid="send-blocked"]')).getText(), /add the API key first/);
  await screenshot(app.browser, "90-dark-first-run");
  await assertContrast(app.browser, "90-dark-first-run", FIRST_RUN_TARGETS);
});

test("Settings in the dark: the provider, the approval modes, then the sandbox", async () => {
  await (await $('[data-testid="open-settings"]')).click();
  await (await $('[data-testid="settings"]')).waitForDisplayed({ timeout: 10000 });
  await (await $('[data-testid="base-url"]')).setValue(model.url);
  await (await $('[data-testid="model"]')).setValue("claude-e2e");
  await (await $('[data-testid="save-settings"]')).click();
  await (await $('[data-testid="api-key"]')).setValue(KEY);
  await (await $('[data-testid="save-key"]')).click();
  await (await $('[data-testid="key-stored"]')).waitForDisplayed({ timeout: 10000 });
  await screenshot(app.browser, "91-dark-settings-provider");
  // Save is off (all saved): its disabled look is measured too.
  await assertContrast(app.browser, "91-dark-settings-provider", SETTINGS_TARGETS);
  await (await $('[data-testid="settings-nav-approvals"]')).click();
  await (await $('[data-testid="default-mode"]')).waitForDisplayed({ timeout: 10000 });
  await screenshot(app.browser, "92-dark-settings-approvals");
  await (await $('[data-testid="settings-nav-sandbox"]')).click();
  await (await $('[data-testid="hidden-paths"]')).waitForDisplayed({ timeout: 10000 });
  await screenshot(app.browser, "92b-dark-settings-sandbox");
  await (await $('[data-testid="close-settings"]')).click();
});

test("a diff waiting for approval, and the workspace after it, in the dark", async () => {
  const changed = GREETING.replace("line 3 of the greeting", "line 3, warmer").replace("line 9 of the greeting\n", "");
  model.script(
    { text: "Let me read it first. ", tool: { name: "read", input: { path: "hello.txt" } } },
    { text: "I'll warm up the greeting. ", tool: { name: "write", input: { path: "hello.txt", content: changed } } },
    { text: "The greeting is warmer now." },
  );
  const composer = await $('[data-testid="composer"]');
  await composer.waitForEnabled({ timeout: 20000 });
  await composer.click();
  await composer.addValue("Make the greeting warmer");
  await (await $('[data-testid="send"]')).click();
  const approve = await $('[data-testid="approve"]');
  await approve.waitForDisplayed({ timeout: 30000 });
  await screenshot(app.browser, "93-dark-diff-approval");
  // The task runs while the change waits: Stop is on screen with the diff.
  await assertContrast(app.browser, "93-dark-diff-approval", WORKSPACE_TARGETS);
  await approve.click();
  await waitFor("the answer", async () => /The greeting is warmer now\./.test(await (await $("main")).getText()), 30000);
  await waitFor("the task to end", async () => !(await (await $('[data-testid="stop"]')).isExisting()));
  assert.match(await (await $('[data-testid="status-tokens"]')).getText(), /in · .* out tokens/);
  await screenshot(app.browser, "94-dark-workspace");
});
