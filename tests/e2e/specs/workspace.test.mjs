// Foundation: the window opens a workspace from the command line, refuses a bad path clearly,
// and remembers workspaces across restarts (the SQLite store).
import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { test } from "node:test";
import { descendantNamed, launch, makeHome, SCREENSHOTS, screenshot } from "../lib/app.mjs";
import { assertContrast, EMPTY_WORKSPACE_TARGETS } from "../lib/contrast.mjs";

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
    // The light theme's contrast (dark.test.mjs measures the dark one).
    await assertContrast(app.browser, "01-workspace-light", EMPTY_WORKSPACE_TARGETS);
    const path = await app.browser.$('[data-testid="workspace-path"]').getProperty("textContent");
    assert.ok(String(path).endsWith("demo-project"), `header shows the path, got ${path}`);
  } finally {
    await app.close();
  }
});

/** The pid of the app's web process (the page), or undefined. */
function webProcess(app) {
  return descendantNamed(app.driverPid, "WebKitWebProces");
}

test("when the page's web process dies, the window loads the page again on the same workspace", async () => {
  const app = await launch({ args: [project], home });
  let crashed;
  try {
    await app.browser.$('[data-testid="workspace-name"]').waitForDisplayed({ timeout: 20000 });
    crashed = webProcess(app);
    assert.ok(crashed, "the page runs in a web process");
    process.kill(crashed, "SIGKILL");
    // WebKitWebDriver ends its session when the page crashes, so the new page is seen from
    // outside: a new web process, the app's log, and a picture of the screen.
    const log = join(home, "data", "dev.foreman.app", "logs", "foreman.log");
    const reopened = `page loaded again: reopening ${project}`;
    const deadline = Date.now() + 30000;
    let now;
    while (Date.now() < deadline) {
      now = webProcess(app);
      if (now && now !== crashed && readFileSync(log, "utf8").includes(reopened)) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const text = readFileSync(log, "utf8");
    assert.match(text, /the window's web process ended unexpectedly \(Crashed\); reloading the page/);
    assert.ok(text.includes(reopened), "the new page asked for the workspace and got it");
    assert.ok(now && now !== crashed, `a new web process (${crashed} → ${now})`);
    // A picture of the screen, where imagemagick's `import` is installed (it is not required).
    await new Promise((r) => setTimeout(r, 1500)); // the new page draws
    try {
      execFileSync("import", ["-window", "root", join(SCREENSHOTS, "05-page-reloaded-after-crash.png")]);
    } catch {
      // No `import`: the log and the new web process above are the test.
    }
  } finally {
    await app.close({ endSession: false });
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
