// The native menu bar. WebDriver sees only the page, so the menu is driven as a person would,
// with the keyboard through xdotool (File → Open Recent, Edit, View's zoom shortcuts), and pictured
// with imagemagick's `import`. Help → Copy Diagnostics is checked through the command its item
// runs, behind Settings → About → "Copy diagnostics": the text names the version, the system and
// the provider, is on the X clipboard, and holds no key: not the one in the keychain, not one in
// the environment, not one written in the log.
import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { launch, makeHome, SCREENSHOTS, screenshot } from "../lib/app.mjs";
import { waitFor } from "../lib/wait.mjs";

const VERSION = JSON.parse(readFileSync(new URL("../../../tauri.conf.json", import.meta.url), "utf8")).version;
const KEYCHAIN_KEY = "sk-ant-e2e-KEYCHAIN-7f3a9c1d2e4b";
const ENV_KEY = "e2e-env-secret-41c8b2d07a55";
const BEARER = "eyE2ETOKENxyz.payload.signature";

const home = makeHome("menu");
const project = join(mkdtempSync(join(tmpdir(), "foreman-ws-")), "menu-project");
mkdirSync(project);
writeFileSync(join(project, "README.md"), "# menu\n");
// An earlier run's log that quoted the keys (as a careless line might): the app appends to it.
const logDir = join(home, "data", "dev.foreman.app", "logs");
mkdirSync(logDir, { recursive: true });
writeFileSync(
  join(logDir, "foreman.log"),
  `[2026-01-01][00:00:00][foreman][INFO] an old line with ${KEYCHAIN_KEY}\n` +
    `[2026-01-01][00:00:01][foreman][INFO] Authorization: Bearer ${BEARER}\n` +
    `[2026-01-01][00:00:02][foreman][INFO] the environment said ${ENV_KEY}\n`,
);

let app;
const $ = (selector) => app.browser.$(selector);

before(async () => {
  app = await launch({ args: [project], home, env: { ANTHROPIC_API_KEY: ENV_KEY } });
  await (await $('[data-testid="workspace-name"]')).waitForDisplayed({ timeout: 30000 });
});

after(async () => {
  await app?.close();
  // The specs of one run share the Secret Service: the next one starts without a key, as a
  // first run does.
  execFileSync("secret-tool", ["clear", "service", "foreman", "username", "anthropic"]);
});

/** Runs xdotool (installed by `make deps`) on the test's X display. */
function xdotool(...args) {
  return execFileSync("xdotool", args, { encoding: "utf8", timeout: 10000 });
}

/**
 * Gives the app's window the keyboard: its largest visible X window titled "Foreman" or
 * "<workspace> — Foreman".
 */
function focusWindow() {
  const ids = xdotool("search", "--onlyvisible", "--name", "^(.* — )?Foreman$").trim().split("\n").filter(Boolean);
  const area = (id) => {
    const [, w, h] = xdotool("getwindowgeometry", id).match(/Geometry: (\d+)x(\d+)/) ?? [0, 0, 0];
    return Number(w) * Number(h);
  };
  const window = ids.sort((a, b) => area(b) - area(a))[0];
  assert.ok(window, "the app's window is on the display");
  xdotool("windowfocus", "--sync", window);
}

/** A picture of the whole display, with the native menu the WebDriver picture leaves out. */
function screenPicture(name) {
  execFileSync("import", ["-window", "root", join(SCREENSHOTS, `${name}.png`)]);
}

/** The X clipboard's text, as another program pastes it. */
function clipboard() {
  return execFileSync("xclip", ["-o", "-selection", "clipboard"], { encoding: "utf8", timeout: 5000 });
}

test("File → Open Recent, chosen with the keyboard, opens a remembered folder", async () => {
  await (await $('[aria-label="Back to the welcome screen"]')).click();
  await (await $('[data-testid="welcome"]')).waitForDisplayed({ timeout: 10000 });
  focusWindow();
  xdotool("key", "alt+f");
  await new Promise((r) => setTimeout(r, 500));
  xdotool("key", "Down"); // Open Folder… → Open Recent
  xdotool("key", "Right"); // its first folder: the one the command line opened
  await new Promise((r) => setTimeout(r, 500));
  screenPicture("menu-03-file-open-recent");
  xdotool("key", "Return");
  const name = await $('[data-testid="workspace-name"]');
  await name.waitForDisplayed({ timeout: 10000 });
  assert.equal(await name.getText(), "menu-project");
});

test("Edit → Select All and Copy, from the menu, copy the composer's text", async () => {
  const composer = await $('[data-testid="composer"]');
  await composer.waitForDisplayed({ timeout: 10000 });
  await composer.setValue("text copied through the Edit menu");
  focusWindow();
  for (const item of ["a", "c"]) {
    // Alt+E opens Edit; the item's underlined letter runs it (Select &All, &Copy).
    xdotool("key", "alt+e");
    await new Promise((r) => setTimeout(r, 400));
    xdotool("key", item);
    await new Promise((r) => setTimeout(r, 300));
  }
  await waitFor("the composer's text on the clipboard", () => clipboard() === "text copied through the Edit menu");
  await composer.clearValue();
});

test("View → Zoom In (Ctrl+=) enlarges the page and Reset Zoom (Ctrl+0) restores it", async () => {
  const width = () => app.browser.execute(() => window.innerWidth);
  const before = await width();
  focusWindow();
  xdotool("key", "ctrl+equal");
  const zoomed = await waitFor("a zoomed page", async () => {
    const now = await width();
    return now < before && now;
  });
  assert.ok(Math.abs(zoomed - before / 1.1) < 3, `one step is 110%: ${before} → ${zoomed}`);
  screenPicture("menu-04-zoomed-in");
  xdotool("key", "ctrl+0");
  await waitFor("the page at 100% again", async () => (await width()) === before);
});

test("Copy Diagnostics copies the version, system and provider, and no key", async () => {
  await (await $('[data-testid="open-settings"]')).click();
  await (await $('[data-testid="settings"]')).waitForDisplayed({ timeout: 10000 });
  await (await $('[data-testid="api-key"]')).setValue(KEYCHAIN_KEY);
  const saveKey = await $('[data-testid="save-key"]');
  await saveKey.scrollIntoView({ block: "center" }); // not under the sticky Save row
  await saveKey.click();
  await (await $('[data-testid="key-stored"]')).waitForDisplayed({ timeout: 10000 });
  await (await $('[data-testid="model"]')).setValue("claude-e2e-model");
  await (await $('[data-testid="save-settings"]')).click();
  await waitFor("the settings saved", async () => !(await (await $('[data-testid="save-settings"]')).isEnabled()));

  await (await $('[data-testid="settings-nav-about"]')).click();
  await (await $('[data-testid="copy-diagnostics"]')).click();
  const shown = await $('[data-testid="diagnostics-text"]');
  await shown.waitForDisplayed({ timeout: 15000 });
  const text = await shown.getText();

  assert.ok(text.startsWith(`Foreman ${VERSION}\n`), `starts with the version:\n${text}`);
  assert.match(text, /^OS: .+ \(\w+\)$/m, "the system and its architecture");
  assert.match(text, /^WebKitGTK: \d+\.\d+\.\d+$/m, "the webview's version");
  assert.match(text, /^Provider: Anthropic$/m);
  assert.match(text, /^Model: claude-e2e-model$/m);
  assert.ok(text.includes(`Log: ${join(logDir, "foreman.log")}`), "the log's path");
  assert.match(text, /^Last \d+ log lines:$/m);
  assert.ok(text.includes("an old line with [REDACTED]"), "the log's end, redacted");
  for (const secret of [KEYCHAIN_KEY, ENV_KEY, BEARER, "KEYCHAIN", "TOKENxyz"]) {
    assert.ok(!text.includes(secret), `${secret} leaked into the diagnostics:\n${text}`);
  }
  await screenshot(app.browser, "menu-01-settings-diagnostics");

  // What another program pastes is the same text.
  const pasted = await waitFor("the diagnostics on the clipboard", () => {
    const now = clipboard();
    return now.startsWith(`Foreman ${VERSION}`) && now;
  });
  assert.equal(pasted.trimEnd(), text.trimEnd());
  assert.ok(!pasted.includes(KEYCHAIN_KEY) && !pasted.includes(ENV_KEY));

  screenPicture("menu-02-window-with-menu-bar");
});
