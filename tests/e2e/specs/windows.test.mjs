// Several workspaces at once: a second `foreman DIR` opens DIR in a new window of the running
// app (or brings the window already showing it to the front), each window's title names its
// workspace, two sessions in two windows run at once and each window approves its own calls,
// and closing a window ends only its work.
import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { launch, launchAgain, makeHome, screenshot } from "../lib/app.mjs";
import { waitFor } from "../lib/wait.mjs";
import { startModel } from "../lib/model.mjs";

const home = makeHome("windows");
const root = mkdtempSync(join(tmpdir(), "foreman-windows-"));
const alpha = join(root, "alpha");
const beta = join(root, "beta");
for (const dir of [alpha, beta]) {
  mkdirSync(dir);
  writeFileSync(join(dir, "README.md"), `# ${dir}\n`);
}
const KEY = "sk-ant-e2e-windows-key";
const LOG = join(home, "data", "dev.foreman.app", "logs", "foreman.log");
let model;
let app;
/** WebDriver's handles of the two windows. */
const handles = { alpha: null, beta: null };

before(async () => {
  model = await startModel();
  app = await launch({ args: [alpha], home });
});

after(async () => {
  await app?.close();
  await model?.close();
  // The specs of one run share the Secret Service: the next one starts without a key.
  execFileSync("secret-tool", ["clear", "service", "foreman", "username", "anthropic"]);
});

const $ = (selector) => app.browser.$(selector);

/** The app's top-level windows as the X server has them (xwininfo, from x11-utils): [{ id, title }]. */
function xWindows() {
  const tree = execFileSync("xwininfo", ["-root", "-tree"], { encoding: "utf8" });
  return [...tree.matchAll(/^\s*(0x[0-9a-f]+) "([^"]*Foreman[^"]*)"/gm)].map((m) => ({ id: m[1], title: m[2] }));
}

/** The titles of the app's top-level windows. */
function windowTitles() {
  return xWindows().map((w) => w.title);
}

/** Closes the window whose title matches `title`, as its close button would. */
function closeWindowTitled(title) {
  const window = xWindows().find((w) => title.test(w.title));
  assert.ok(window, `a window titled ${title}: ${windowTitles()}`);
  execFileSync("python3", [join(import.meta.dirname, "..", "lib", "close-window.py"), window.id]);
}

/** Switches WebDriver to the window `which` ("alpha" or "beta"). */
async function use(which) {
  await app.browser.switchToWindow(handles[which]);
}

async function send(text) {
  const composer = await $('[data-testid="composer"]');
  await composer.waitForEnabled({ timeout: 20000 });
  await composer.click();
  await composer.addValue(text);
  await (await $('[data-testid="send"]')).click();
}

test("1. the first window shows its workspace and says so in its title", async () => {
  await (await $('[data-testid="workspace-name"]')).waitForDisplayed({ timeout: 30000 });
  assert.equal(await (await $('[data-testid="workspace-name"]')).getText(), "alpha");
  handles.alpha = await app.browser.getWindowHandle();
  await waitFor("the title to name the workspace", () => windowTitles().some((t) => /^alpha\b.*Foreman$/.test(t)));

  // The provider, once for the app (both windows use it).
  await (await $('[data-testid="open-settings"]')).click();
  await (await $('[data-testid="settings"]')).waitForDisplayed({ timeout: 10000 });
  await (await $('[data-testid="base-url"]')).setValue(model.url);
  await (await $('[data-testid="model"]')).setValue("claude-e2e");
  await (await $('[data-testid="save-settings"]')).click();
  await (await $('[data-testid="api-key"]')).setValue(KEY);
  await (await $('[data-testid="save-key"]')).click();
  await (await $('[data-testid="key-stored"]')).waitForDisplayed({ timeout: 10000 });
  await (await $('[data-testid="close-settings"]')).click();
  await (await $('[data-testid="composer"]')).waitForDisplayed({ timeout: 10000 });
});

test("2. a second launch with another folder opens it in a new window of the running app", async () => {
  const second = await launchAgain({ args: [beta], home });
  assert.equal(second.code, 0, "the second process hands over and ends");
  console.log(`the second launch handed over and ended in ${second.ms} ms`);
  const all = await waitFor("a second window", async () => {
    const now = await app.browser.getWindowHandles();
    return now.length === 2 ? now : null;
  });
  handles.beta = all.find((h) => h !== handles.alpha);
  await use("beta");
  await (await $('[data-testid="workspace-name"]')).waitForDisplayed({ timeout: 30000 });
  assert.equal(await (await $('[data-testid="workspace-name"]')).getText(), "beta");
  await waitFor("both titles", () => {
    const titles = windowTitles();
    return titles.some((t) => /^alpha\b.*Foreman$/.test(t)) && titles.some((t) => /^beta\b.*Foreman$/.test(t));
  });
  // The first window still shows its own workspace.
  await use("alpha");
  assert.equal(await (await $('[data-testid="workspace-name"]')).getText(), "alpha");
});

test("3. a second launch with a folder already open brings its window forward, adding none", async () => {
  // Relative to the second process's own directory, as a person types it.
  const second = await launchAgain({ args: ["alpha"], home, cwd: root });
  assert.equal(second.code, 0);
  await waitFor("the app to answer", () => readFileSync(LOG, "utf8").includes(`${alpha} is open in window main: bringing it to the front`));
  await new Promise((r) => setTimeout(r, 1000)); // a window it wrongly opened would show by now
  assert.equal((await app.browser.getWindowHandles()).length, 2, "no third window");

  // The UI's "Open folder in new window…" asks the same of the app (its folder picker cannot be
  // driven here, so the command it calls is called as it would be).
  await use("alpha");
  await app.browser.execute((path) => window.__TAURI_INTERNALS__.invoke("open_new_window", { path }), beta);
  await waitFor("the app to answer", () => readFileSync(LOG, "utf8").includes(`${beta} is open in window window-2: bringing it to the front`));
  assert.equal((await app.browser.getWindowHandles()).length, 2, "no third window");

  // With no folder, a window comes forward too, and none is added.
  assert.equal((await launchAgain({ args: [], home })).code, 0);
  await new Promise((r) => setTimeout(r, 1000));
  assert.equal((await app.browser.getWindowHandles()).length, 2, "no third window");
});

test("4. two sessions in two windows run at once, each window approving its own call", async () => {
  model.script({ text: "Writing alpha's notes. ", tool: { name: "write", input: { path: "notes.txt", content: "alpha's notes\n" } } });
  await use("alpha");
  await send("Write alpha's notes");
  await (await $('[data-testid="approve"]')).waitForDisplayed({ timeout: 30000 });

  model.script({ text: "Writing beta's notes. ", tool: { name: "write", input: { path: "notes.txt", content: "beta's notes\n" } } });
  await use("beta");
  await send("Write beta's notes");
  const approveBeta = await $('[data-testid="approve"]');
  await approveBeta.waitForDisplayed({ timeout: 30000 });
  assert.match(await (await $("main")).getText(), /Writing beta's notes\./);
  assert.doesNotMatch(await (await $("main")).getText(), /alpha's notes/, "beta's window shows only its own session");
  await screenshot(app.browser, "96-windows-beta-waiting");
  // Side by side on the screen (there is no window manager to place them).
  await app.browser.setWindowRect(640, 20, 760, 860);
  await use("alpha");
  await app.browser.setWindowRect(0, 0, 760, 860);
  assert.match(await (await $("main")).getText(), /Writing alpha's notes\./);
  // At 760 px the sidebar folds to its rail by itself, and the approval modes stay on one line.
  await waitFor("the sidebar folded", async () => (await (await $('[data-testid="sidebar-toggle"]')).getAttribute("aria-expanded")) === "false");
  const modes = await app.browser.execute(() =>
    [...document.querySelectorAll('[data-testid="mode-picker"] [role="radio"]')].map((b) => {
      const box = b.getBoundingClientRect();
      return { top: Math.round(box.top), height: Math.round(box.height), text: b.innerText.trim() };
    }),
  );
  assert.equal(modes.length, 5, `five modes: ${JSON.stringify(modes)}`);
  assert.ok(
    modes.every((m) => m.top === modes[0].top && m.height === modes[0].height && !m.text.includes("\n")),
    `the modes sit on one line, each on one line: ${JSON.stringify(modes)}`,
  );
  assert.doesNotMatch(await (await $("main")).getText(), /beta's notes/, "alpha's window shows only its own session");
  await screenshot(app.browser, "95-windows-alpha-waiting");
  // A picture of both windows on the screen, where imagemagick's `import` is installed.
  try {
    execFileSync("import", ["-window", "root", join(process.env.FOREMAN_SCREENSHOTS ?? ".", "97-windows-screen.png")]);
  } catch {
    // Not installed: the two pictures above show the windows.
  }
  assert.ok(!existsSync(join(alpha, "notes.txt")) && !existsSync(join(beta, "notes.txt")), "nothing written before approval");

  // Beta's call first: only beta's file is written, and alpha's call still waits.
  model.script({ text: "Beta's notes are written." });
  await use("beta");
  await (await $('[data-testid="approve"]')).click();
  await waitFor("beta's answer", async () => /Beta's notes are written\./.test(await (await $("main")).getText()), 30000);
  assert.equal(readFileSync(join(beta, "notes.txt"), "utf8"), "beta's notes\n");
  assert.ok(!existsSync(join(alpha, "notes.txt")), "alpha's file waits for alpha's approval");
  await use("alpha");
  assert.ok(await (await $('[data-testid="approve"]')).isDisplayed(), "alpha's call still waits");

  model.script({ text: "Alpha's notes are written." });
  await (await $('[data-testid="approve"]')).click();
  await waitFor("alpha's answer", async () => /Alpha's notes are written\./.test(await (await $("main")).getText()), 30000);
  assert.equal(readFileSync(join(alpha, "notes.txt"), "utf8"), "alpha's notes\n");
  assert.equal(readFileSync(join(beta, "notes.txt"), "utf8"), "beta's notes\n", "each file in its own workspace");
  await screenshot(app.browser, "98-windows-alpha-done");
});

test("5. closing a window ends its session and leaves the other window's work alone", async () => {
  // Beta starts a task whose answer the model holds, then its window closes.
  model.script({ text: "This answer never arrives.", holdFirst: true });
  await use("beta");
  await send("Take your time");
  await waitFor("beta's task to run", async () => (await $('[data-testid="stop"]')).isExisting());
  closeWindowTitled(/^beta\b.*Foreman$/);
  await waitFor("the window to close", async () => (await app.browser.getWindowHandles()).length === 1);
  assert.ok(!windowTitles().some((t) => t.startsWith("beta")), "beta's window is gone");
  await waitFor("beta's session to end", () => /window window-\d+ closed; 1 of its sessions asked to end/.test(readFileSync(LOG, "utf8")));
  // Its tool servers stop with it; alpha's stay.
  await waitFor("beta's servers to stop", () => readFileSync(LOG, "utf8").includes(`stopping the MCP servers of ${beta}`));
  assert.ok(!readFileSync(LOG, "utf8").includes(`stopping the MCP servers of ${alpha}`), "alpha's servers run on");
  model.release();

  // Alpha goes on: a new message in its session gets its answer.
  await use("alpha");
  model.script({ text: "Alpha is still here." });
  await send("Still there?");
  await waitFor("alpha's answer", async () => /Alpha is still here\./.test(await (await $("main")).getText()), 30000);

  // Back on the welcome screen the window shows no workspace, and its title says so.
  await (await $("button.back")).click();
  await (await $('[data-testid="welcome"]')).waitForDisplayed({ timeout: 10000 });
  await waitFor("the plain title", () => windowTitles().join() === "Foreman");
  await screenshot(app.browser, "99-windows-welcome");
});
