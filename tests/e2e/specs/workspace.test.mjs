// Foundation: the window opens a workspace from the command line, refuses a bad path clearly,
// and remembers workspaces across restarts (the SQLite store).
import { strict as assert } from "node:assert";
import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { test } from "node:test";
import { launch, makeHome, screenshot } from "../lib/app.mjs";

const home = makeHome("foundation");
const workspace = mkdtempSync(join(tmpdir(), "foreman-ws-"));
const project = join(workspace, "demo-project");
mkdirSync(project);
writeFileSync(join(project, "README.md"), "# demo\n");

test("a folder on the command line opens the workspace view with its name", async () => {
  const app = await launch({ args: [project], home });
  try {
    const name = await app.browser.$('[data-testid="workspace-name"]');
    await name.waitForDisplayed({ timeout: 20000 });
    assert.equal(await name.getText(), basename(project));
    await screenshot(app.browser, "01-workspace-light");
    const path = await app.browser.$('[data-testid="workspace-path"]').getProperty("textContent");
    assert.ok(String(path).endsWith("demo-project"), `header shows the path, got ${path}`);
  } finally {
    await app.close();
  }
});

test("a path that does not exist gets a clear message on the welcome screen", async () => {
  const missing = join(workspace, "no-such-folder");
  const app = await launch({ args: [missing], home });
  try {
    const banner = await app.browser.$('[data-testid="welcome-error"]');
    await banner.waitForDisplayed({ timeout: 20000 });
    const text = await banner.getText();
    assert.match(text, /does not exist/);
    assert.ok(text.includes(missing), `message names the path: ${text}`);
    await screenshot(app.browser, "02-bad-path");
  } finally {
    await app.close();
  }
});

test("a file instead of a folder is refused with a clear message", async () => {
  const app = await launch({ args: [join(project, "README.md")], home });
  try {
    const banner = await app.browser.$('[data-testid="welcome-error"]');
    await banner.waitForDisplayed({ timeout: 20000 });
    assert.match(await banner.getText(), /is a file, not a folder/);
  } finally {
    await app.close();
  }
});

test("with no path, the welcome screen lists the workspace opened before", async () => {
  const app = await launch({ args: [], home });
  try {
    const list = await app.browser.$('[data-testid="recent-list"]');
    await list.waitForDisplayed({ timeout: 20000 });
    const text = await list.getText();
    assert.match(text, /demo-project/);
    await screenshot(app.browser, "03-welcome-light");

    // Opening it from the list goes to the workspace view, and back returns to the list.
    await app.browser.$("button.recent-open").click();
    await app.browser.$('[data-testid="workspace-name"]').waitForDisplayed({ timeout: 10000 });
    await app.browser.$("button.back").click();
    await app.browser.$('[data-testid="recent-list"]').waitForDisplayed({ timeout: 10000 });
  } finally {
    await app.close();
  }
});

test("the dark theme follows the system", async () => {
  const app = await launch({ args: [], home, env: { GTK_THEME: "Adwaita:dark" } });
  try {
    await app.browser.$('[data-testid="recent-list"]').waitForDisplayed({ timeout: 20000 });
    const dark = await app.browser.execute(() => window.matchMedia("(prefers-color-scheme: dark)").matches);
    await screenshot(app.browser, "04-welcome-dark");
    if (dark) {
      const bg = await app.browser.execute(() => getComputedStyle(document.body).backgroundColor);
      assert.notEqual(bg, "rgb(247, 247, 251)", "dark theme applies a dark background");
    }
  } finally {
    await app.close();
  }
});
