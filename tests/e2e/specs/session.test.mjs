// The whole job in the real window, against a scripted model server and the real keychain:
// set up the provider, watch a write stream into its card, read the diff, approve, reject with a
// note, run a command and watch its output, edit before approving, approve a change in part,
// come back after a restart.
import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { deflateSync } from "node:zlib";
import { after, before, test } from "node:test";
import { descendantNamed, launch, makeHome, SCREENSHOTS, screenshot } from "../lib/app.mjs";
import { assertContrast, SETTINGS_TARGETS, WORKSPACE_TARGETS } from "../lib/contrast.mjs";
import { waitFor } from "../lib/wait.mjs";
import { startModel } from "../lib/model.mjs";

const home = makeHome("session");
const project = mkdtempSync(join(tmpdir(), "foreman-session-ws-"));
writeFileSync(join(project, "README.md"), "# demo project\n");
const PARTS = Array.from({ length: 40 }, (_, i) => `part ${i + 1}`).join("\n") + "\n";
writeFileSync(join(project, "parts.txt"), PARTS);
const KEY = "sk-ant-e2e-test-key";
const ROOT = join(import.meta.dirname, "..", "..", "..");
let model;
let app;

before(async () => {
  // Step 1 is a first run: no key in the Secret Service, which the run's specs share. (`clear`
  // fails when there is nothing to clear, which is fine: step 1 checks the first-run banner.)
  try {
    execFileSync("secret-tool", ["clear", "service", "foreman", "username", "anthropic"], { stdio: "ignore" });
  } catch {}
  model = await startModel();
});

/** Whether the WebDriver session still stands (a crashed page ends it; see step 7). */
let driven = true;

after(async () => {
  await app?.close({ endSession: driven });
  await model?.close();
});

const $ = (selector) => app.browser.$(selector);

/** `promise`, or nothing after `ms` (for what is done only to help after a failure). */
const bounded = (promise, ms) => Promise.race([promise.catch(() => {}), new Promise((r) => setTimeout(r, ms))]);

/**
 * Like node:test's `test`, with a screenshot of the window when the step fails. A failed step
 * then presses Esc, which closes a dialog or question it left open, so that the next steps are
 * not failed by it too (their clicks would land on the dialog).
 */
function step(name, body) {
  test(name, async () => {
    try {
      await body();
    } catch (error) {
      const shot = join(process.env.FOREMAN_SCREENSHOTS ?? ".", `failed-${name.slice(0, 2)}.png`);
      await bounded(app?.browser.saveScreenshot(shot) ?? Promise.resolve(), 30000);
      await bounded(app?.browser.keys(["Escape"]) ?? Promise.resolve(), 10000);
      // A task the step left running (a held answer, a question) would fail the next steps too.
      model?.release();
      await bounded(stopTask(), 20000);
      throw error;
    }
  });
}


/** Presses Stop if a task runs, and waits for it to end. */
async function stopTask() {
  const stop = await $('[data-testid="stop"]');
  if (!(await stop.isExisting())) return;
  await stop.click();
  await waitIdle();
}

async function send(text) {
  const composer = await $('[data-testid="composer"]');
  await composer.waitForEnabled({ timeout: 20000 });
  await composer.click();
  await composer.addValue(text);
  await (await $('[data-testid="send"]')).click();
}

/** The newest card of `tool`. */
async function lastCard(tool) {
  const cards = await app.browser.$$(`[data-testid="tool-card"][data-tool="${tool}"]`);
  return cards.length ? cards[cards.length - 1] : null;
}

/**
 * Opens `card` when it is folded to its header line, as a person clicks it to look inside. A
 * finished card folds once something comes after it: call this when the task has ended.
 */
async function openCard(card) {
  const toggle = await card.$(".tool-toggle");
  if ((await toggle.getAttribute("aria-expanded")) !== "true") await toggle.click();
  await waitFor("the card open", async () => (await toggle.getAttribute("aria-expanded")) === "true");
}

async function waitIdle() {
  // Stop is in the composer only while a task runs.
  await waitFor("the task to end", async () => !(await (await $('[data-testid="stop"]')).isExisting()));
}

step("1. set the provider and key, watch a write stream, read the diff, approve", async () => {
  app = await launch({ args: [project], home });
  await (await $('[data-testid="workspace-name"]')).waitForDisplayed({ timeout: 30000 });
  await (await $('[data-testid="setup-banner"]')).waitForDisplayed({ timeout: 10000 });
  await screenshot(app.browser, "10-first-run-call-to-action");

  await (await $('[data-testid="open-settings"]')).click();
  await (await $('[data-testid="settings"]')).waitForDisplayed({ timeout: 10000 });
  await (await $('[data-testid="base-url"]')).setValue(model.url);
  await (await $('[data-testid="model"]')).setValue("claude-e2e");
  await (await $('[data-testid="save-settings"]')).click();
  await (await $('[data-testid="api-key"]')).setValue(KEY);
  await (await $('[data-testid="save-key"]')).click();
  await (await $('[data-testid="key-stored"]')).waitForDisplayed({ timeout: 10000 });
  const stored = execFileSync("secret-tool", ["lookup", "service", "foreman", "username", "anthropic"]).toString();
  assert.equal(stored.trim(), KEY, "the key is in the Secret Service");
  const page = await app.browser.getPageSource();
  assert.ok(!page.includes(KEY), "the key is never shown in the window");
  await screenshot(app.browser, "11-settings-key-stored");
  await assertContrast(app.browser, "11-settings-key-stored", SETTINGS_TARGETS);

  // Test connection: this scripted model answers in text instead of calling the tool, so the form
  // offers the text protocol (not taken: the rest of the job uses native tools).
  assert.match(await (await $('[data-testid="max-tokens"]')).getAttribute("placeholder"), /^8192 /);
  model.script({ text: "Sure! The status is ok." });
  // The button is disabled until the key's save has finished (its message may show first).
  const testConnection = await $('[data-testid="test-connection"]');
  await testConnection.waitForEnabled({ timeout: 10000 });
  await testConnection.click();
  const shown = await waitFor("the connection test's result", async () => {
    for (const id of ["connection-result", "settings-message"]) {
      const element = await $(`[data-testid="${id}"]`);
      if (await element.isExisting()) return `${id}: ${await element.getText()}`;
    }
    return null;
  });
  assert.match(shown, /^connection-result: .*did not call the tool/s, shown);
  assert.match(await (await $('[data-testid="connection-tools"]')).getText(), /not used/);
  await (await $('[data-testid="use-text-protocol"]')).waitForDisplayed({ timeout: 5000 });
  await (await $('[data-testid="connection-result"]')).scrollIntoView();
  await screenshot(app.browser, "11b-settings-connection-test");
  const probe = model.requests[model.requests.length - 1];
  assert.equal(probe.tools[0].name, "report_status", "the test request carries a tool");
  await (await $('[data-testid="close-settings"]')).click();

  const lines = Array.from({ length: 60 }, (_, i) => `line ${i + 1} of the greeting file`).join("\n") + "\n";
  model.script(
    { text: "I'll create the file. ", tool: { name: "write", input: { path: "hello.txt", content: lines } }, holdAt: 0.5, chunk: 32, delayMs: 10 },
    { text: "The file is written." },
  );
  await send("Create hello.txt with sixty lines");
  // While the model is still streaming, part of the content is on screen.
  await waitFor("the stream to pause half-way", () => model.holding);
  const card = await waitFor("a write card", () => lastCard("write"));
  await waitFor("partial content in the card", async () => (await card.getText()).includes("line 20 of the greeting"));
  assert.ok(model.holding, "the stream has not ended yet");
  assert.ok(!(await card.getText()).includes("line 60 of the greeting"), "only part of the content so far");
  // The session is named from its first message as it is sent (the engine's session_titled), not
  // "Untitled" until its task ends.
  await waitFor("the running session named", async () =>
    String(await app.browser.execute(() => document.querySelector('[data-testid="session-item"][aria-current="true"] .session-title')?.textContent ?? "")).startsWith("Create hello.txt"),
  );
  await screenshot(app.browser, "12-write-streaming");
  model.release();

  const approve = await $('[data-testid="approve"]');
  await approve.waitForDisplayed({ timeout: 20000 });
  // The bar says what it approves; the diff shows its first lines, then offers the rest.
  assert.match(await (await card.$('[data-testid="approval-what"]')).getText(), /Write hello\.txt\s*\+60\?/);
  await waitFor("the diff's first lines", async () => /line 15 of the greeting file/.test(await card.getText()));
  assert.doesNotMatch(await card.getText(), /line 16 of the greeting file/);
  await screenshot(app.browser, "13-write-diff-approval");
  await assertContrast(app.browser, "13-write-diff-approval", WORKSPACE_TARGETS);
  await (await card.$("button=Show all 60 lines")).click();
  await waitFor("the diff's last line", async () => /line 60 of the greeting file/.test(await card.getText()));
  // With the card's top at the top of the view, its bar stays in view at the bottom.
  const bar = await app.browser.execute((el) => {
    el.scrollIntoView({ block: "start" });
    const view = document.querySelector('[data-testid="conversation"]').getBoundingClientRect();
    const box = el.querySelector('[data-testid="approval-bar"]').getBoundingClientRect();
    const body = el.getBoundingClientRect();
    return { inView: box.bottom <= view.bottom + 1 && box.top >= view.top, cardTaller: body.bottom > view.bottom };
  }, card);
  assert.ok(bar.cardTaller, "the card is taller than the view");
  assert.ok(bar.inView, "the approval bar is in view while the card's top is");
  await screenshot(app.browser, "13b-long-diff-sticky-approval");
  // Back at the bottom, the view follows the conversation again.
  await app.browser.execute(() => {
    const c = document.querySelector('[data-testid="conversation"]');
    c.scrollTop = c.scrollHeight;
  });
  await approve.click();
  await waitFor("the file on disk", () => existsSync(join(project, "hello.txt")));
  assert.equal(readFileSync(join(project, "hello.txt"), "utf8"), lines);
  await waitIdle();
  await waitFor("the final answer", async () => (await app.browser.getPageSource()).includes("The file is written."));
  await screenshot(app.browser, "14-write-approved");
});

step("2. reject with a note: the file is unchanged and the model is told the note", async () => {
  const before = readFileSync(join(project, "hello.txt"), "utf8");
  model.script(
    { tool: { name: "write", input: { path: "hello.txt", content: "replaced\n" } } },
    { text: "Understood, I left it alone." },
  );
  const requestsBefore = model.requests.length;
  await send("Replace hello.txt");
  await (await $('[data-testid="reject"]')).waitForDisplayed({ timeout: 20000 });
  await (await $('[data-testid="reject"]')).click();
  await (await $('[data-testid="reject-note"]')).setValue("Keep the original greeting");
  await screenshot(app.browser, "20-reject-with-note");
  await (await $('[data-testid="confirm-reject"]')).click();
  await waitIdle();
  // The person's decision is grey and neutral, on one line: no red error.
  const rejected = await lastCard("write");
  assert.equal(await rejected.getAttribute("data-look"), "by-you");
  // (Its header line ellipsises, which WebDriver's visible text leaves out: read the DOM.)
  const shown = await app.browser.execute((el) => el.innerText, rejected);
  assert.match(shown, /Rejected by you: Keep the original greeting/);
  assert.doesNotMatch(shown, /ERROR|The user rejected/i);
  await screenshot(app.browser, "21-rejected-grey");
  assert.equal(readFileSync(join(project, "hello.txt"), "utf8"), before);
  const next = model.requests[requestsBefore + 1];
  assert.ok(next, "the model was asked again after the rejection");
  assert.ok(JSON.stringify(next).includes("Keep the original greeting"), "the note reached the model");
  const card = await lastCard("write");
  assert.equal(await card.getAttribute("data-state"), "rejected");
});

step("2b. between steps the conversation says the agent is working", async () => {
  model.script({ tool: { name: "read", input: { path: "hello.txt" } } }, { text: "It greets.", holdFirst: true });
  await send("What does hello.txt say?");
  try {
    // The model holds its second answer: the read has run, and nothing else shows the agent works.
    // (The row also shows in the moment after Send, before the read's card: wait for the hold.)
    await waitFor("the model to hold its answer", () => model.holding);
    const read = await waitFor("the read's card", () => lastCard("read"));
    // The read is done and folded to one line.
    await waitFor("the read to fold", async () => (await read.getAttribute("data-look")) === "done");
    const working = await $('[data-testid="working"]');
    await working.waitForDisplayed({ timeout: 20000 });
    assert.match(await working.getText(), /Working… \d+ s/);
    // Stop has Send's place.
    assert.ok(await (await $('[data-testid="stop"]')).isDisplayed(), "Stop is in the composer");
    await screenshot(app.browser, "22-working-between-steps");
  } finally {
    model.release();
  }
  await waitIdle();
  await waitFor("the answer", async () => (await app.browser.getPageSource()).includes("It greets."));
  assert.ok(!(await (await $('[data-testid="working"]')).isExisting()), "no Working row once idle");
});

step("3. a command: approve, watch its output stream, see the exit code", async () => {
  model.script(
    { tool: { name: "bash", input: { command: "for i in 1 2 3 4 5; do echo tick $i; sleep 0.5; done" } } },
    { text: "The command ran." },
  );
  await send("Run the ticker");
  await (await $('[data-testid="approve"]')).waitForDisplayed({ timeout: 20000 });
  // The command shows once: in the card's header; the bar asks about it without repeating it.
  const waiting = await lastCard("bash");
  const once = (text) => text.split("for i in 1 2 3 4 5").length - 1;
  assert.equal(once(await app.browser.execute((el) => el.innerText, waiting)), 1, "the command shows once while it waits");
  assert.match(await (await waiting.$('[data-testid="approval-what"]')).getText(), /Run this command\?/);
  await screenshot(app.browser, "30-bash-approval");
  await (await $('[data-testid="approve"]')).click();
  const card = await waitFor("a bash card", () => lastCard("bash"));
  await waitFor("live output", async () => (await card.getText()).includes("tick 2"));
  assert.equal(await card.getAttribute("data-state"), "executing", "output shows while it runs");
  assert.equal(once(await app.browser.execute((el) => el.innerText, card)), 1, "the command shows once while it runs");
  assert.doesNotMatch(await card.getText(), /Running `/);
  await screenshot(app.browser, "31-bash-running");
  // It may fold as soon as the model's answer comes after it: wait for its state, not its text.
  await waitFor("the command to finish", async () => (await card.getAttribute("data-state")) === "succeeded");
  await waitIdle();
  // Finished, with the model's answer after it: one line that says the command and its exit.
  await waitFor("the card folded", async () => (await card.getAttribute("class")).includes("collapsed"));
  // How it went is said once, in the header's pill: never cut, never again in the body.
  const pill = await card.$('[data-testid="tool-state"]');
  assert.match(await pill.getText(), /^exit 0 · \d+\.\d s$/);
  assert.equal((await app.browser.execute((el) => el.innerText, card)).match(/exit 0/g)?.length, 1);
  await screenshot(app.browser, "32-bash-done");
  await openCard(card);
  assert.match(await card.getText(), /tick 5/);
  assert.equal((await card.getText()).match(/exit 0/g)?.length, 1, "the exit code shows once");
  assert.doesNotMatch(await card.getText(), /Exit code|Duration|\(no output\)/);
  await screenshot(app.browser, "32b-bash-done-opened");
});

step("3a. a command's card lists the files it changed; a rewind to before the message puts them back", async () => {
  model.script(
    { tool: { name: "bash", input: { command: "echo 'more text' >> README.md && mkdir -p gen && echo generated > gen/out.txt" } } },
    { text: "Changed two files." },
  );
  await send("Change files with a command");
  await (await $('[data-testid="approve"]')).waitForDisplayed({ timeout: 20000 });
  await (await $('[data-testid="approve"]')).click();
  await waitIdle();
  assert.equal(readFileSync(join(project, "README.md"), "utf8"), "# demo project\nmore text\n");
  const card = await lastCard("bash");
  await openCard(card);
  const sandbox = await card.$('[data-testid="sandbox-line"]');
  assert.match(await sandbox.getText(), /Sandboxed: writes the workspace only · no network · reads files that are not hidden/);
  const changes = await card.$('[data-testid="call-changes"]');
  await changes.waitForDisplayed({ timeout: 20000 });
  assert.match(await changes.getText(), /Changed 2 files in the workspace/);
  await (await changes.$("summary*=README.md")).click();
  await waitFor("the README diff", async () => /more text/.test(await changes.getText()));
  await screenshot(app.browser, "33-command-changes");
  const message = await app.browser.$('//div[@data-testid="user-message"][.//div[text()="Change files with a command"]]');
  await message.moveTo();
  await (await message.$('[data-testid="rewind-button"]')).click();
  const dialog = await $('[data-testid="rewind-dialog"]');
  await dialog.waitForDisplayed({ timeout: 20000 });
  const listed = await (await $('[data-testid="rewind-files"]')).getText();
  assert.match(listed, /README\.md restored/);
  assert.match(listed, /gen\/out\.txt removed/);
  await screenshot(app.browser, "34-rewind-dialog");
  await (await $('[data-testid="confirm-rewind"]')).click();
  await waitFor("the files as before", () => !existsSync(join(project, "gen", "out.txt")));
  assert.equal(readFileSync(join(project, "README.md"), "utf8"), "# demo project\n");
  await waitFor("the rewind notice", async () =>
    (await app.browser.execute(() => document.body.innerText)).includes("Rewound 2 files to how they were before your message"),
  );
  // The command's card says what is on disk: rewound, not a green "done"; its entry is faded.
  await waitFor("the command's card rewound", async () => (await card.getAttribute("data-disk")) === "rewound");
  assert.equal(await (await card.$('[data-testid="tool-state"]')).getText(), "rewound");
  assert.equal(await card.getAttribute("data-look"), "by-you");
  assert.ok(
    await app.browser.execute((el) => Boolean(el.closest(".entry-rewound")), card),
    "the entries the rewind took back are faded",
  );
  await screenshot(app.browser, "35-rewound");
  // The rewind is undone, then done again: the workspace follows both ways, and so does the card.
  await (await $('[data-testid="undo-rewind"]')).click();
  await waitFor("the command's files back", () => existsSync(join(project, "gen", "out.txt")));
  assert.equal(readFileSync(join(project, "README.md"), "utf8"), "# demo project\nmore text\n");
  await waitFor("the command's card applied again", async () => (await card.getAttribute("data-disk")) === "applied");
  assert.match(await (await card.$('[data-testid="tool-state"]')).getText(), /^exit 0 · /);
  await screenshot(app.browser, "36-rewind-undone");
  await message.moveTo();
  await (await message.$('[data-testid="rewind-button"]')).click();
  await (await $('[data-testid="confirm-rewind"]')).waitForDisplayed({ timeout: 20000 });
  await (await $('[data-testid="confirm-rewind"]')).click();
  await waitFor("the files as before again", () => !existsSync(join(project, "gen", "out.txt")));
  assert.equal(readFileSync(join(project, "README.md"), "utf8"), "# demo project\n");
});

/** A small PNG of a colour gradient, `width` × `height`, as base64. */
function gradientPng(width, height) {
  const table = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes) => {
    let c = 0xffffffff;
    for (const b of bytes) c = table[(c ^ b) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type, data) => {
    const head = Buffer.alloc(4);
    head.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const tail = Buffer.alloc(4);
    tail.writeUInt32BE(crc(body));
    return Buffer.concat([head, body, tail]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const rows = [];
  for (let y = 0; y < height; y++) {
    rows.push(0);
    for (let x = 0; x < width; x++) rows.push(Math.round((255 * x) / width), Math.round((255 * y) / height), 180);
  }
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(Buffer.from(rows))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
  return png.toString("base64");
}

step("3b. a mentioned file and a pasted image go with the message, as chips", async () => {
  model.script({ text: "The README is one heading, and the picture is a gradient." });
  const composer = await $('[data-testid="composer"]');
  await composer.waitForEnabled({ timeout: 20000 });
  await composer.click();
  await composer.addValue("What do @README.md and this picture show? ");
  const shot = gradientPng(96, 64);
  // What a paste of a screenshot gives the page: a clipboard holding an image file.
  await app.browser.execute((data) => {
    const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
    const clipboard = new DataTransfer();
    clipboard.items.add(new File([bytes], "screenshot.png", { type: "image/png" }));
    const box = document.querySelector('[data-testid="composer"]');
    box.dispatchEvent(new ClipboardEvent("paste", { clipboardData: clipboard, bubbles: true, cancelable: true }));
  }, shot);
  const chips = await $('[data-testid="composer-attachments"]');
  await chips.waitForDisplayed({ timeout: 10000 });
  const text = (el) => app.browser.execute((e) => e.textContent, el);
  assert.match(await text(chips), /@README\.md/);
  await (await chips.$('img[alt="screenshot.png"]')).waitForDisplayed({ timeout: 10000 });
  await screenshot(app.browser, "37-composer-attachments");
  const before = model.requests.length;
  await (await $('[data-testid="send"]')).click();
  await waitIdle();
  const request = model.requests[before];
  const user = request.messages[request.messages.length - 1];
  const texts = user.content.filter((b) => b.type === "text").map((b) => b.text);
  assert.ok(texts.includes('<attached_file path="README.md">\n# demo project\n</attached_file>'), JSON.stringify(texts));
  const image = user.content.find((b) => b.type === "image");
  assert.equal(image?.source.media_type, "image/png");
  assert.equal(image?.source.data, shot);
  const message = await app.browser.$('//div[@data-testid="user-message"][.//div[starts-with(text(), "What do @README.md")]]');
  const shown = await message.$('[data-testid="message-attachments"]');
  await shown.waitForDisplayed({ timeout: 10000 });
  assert.match(await text(shown), /README\.md/);
  await (await shown.$('img[alt="screenshot.png"]')).waitForDisplayed({ timeout: 10000 });
  await screenshot(app.browser, "38-message-attachments");
});

step("3c. a command that reads the app's own data: the card says it is hidden, and running it outside is asked", async () => {
  // The app's data folder (every workspace's conversations) is always hidden from commands.
  model.script(
    { tool: { name: "bash", input: { command: 'ls "$XDG_DATA_HOME/dev.foreman.app"' } } },
    { text: "That folder is hidden from commands." },
  );
  await send("List the app's data folder");
  await (await $('[data-testid="approve"]')).waitForDisplayed({ timeout: 20000 });
  await (await $('[data-testid="approve"]')).click();
  // It fails in the sandbox: the second question is whether to run it outside.
  const bar = await $('[data-testid="approval-bar"]');
  await waitFor("the question to run it outside", async () =>
    (await bar.isExisting()) && /which the sandbox hides|sandbox refused/.test(await bar.getText()),
  );
  const card = await lastCard("bash");
  const hidden = await card.$('[data-testid="sandbox-hidden"]');
  await hidden.waitForDisplayed({ timeout: 20000 });
  assert.match(await hidden.getText(), /Hidden from commands: .*dev\.foreman\.app/);
  await screenshot(app.browser, "37b-hidden-credential");
  await (await $('[data-testid="reject"]')).click();
  await (await $('[data-testid="confirm-reject"]')).click();
  await waitIdle();
});

step("4. edit before approving writes the user's version, and undo takes it back", async () => {
  model.script(
    { tool: { name: "write", input: { path: "notes.txt", content: "the model's version\n" } } },
    { text: "Noted." },
  );
  await send("Write notes.txt");
  await (await $('[data-testid="edit"]')).waitForDisplayed({ timeout: 20000 });
  await (await $('[data-testid="edit"]')).click();
  const editor = await $('[data-testid="edit-content"]');
  await editor.click();
  await app.browser.execute((el) => el.select(), editor);
  await editor.addValue("my own version, edited");
  await screenshot(app.browser, "40-edit-before-approve");
  await (await $('[data-testid="confirm-edit"]')).click();
  await waitFor("the edited file", () => existsSync(join(project, "notes.txt")));
  await waitIdle();
  assert.equal(readFileSync(join(project, "notes.txt"), "utf8"), "my own version, edited");
  // The user changes their mind: the write is undone, and notes.txt, which it created, is gone.
  // The card, folded once the answer came after it, says what the user did; it opens to undo.
  const card = await lastCard("write");
  await waitFor("the card folded", async () => (await card.getAttribute("class")).includes("collapsed"));
  assert.match(await app.browser.execute((el) => el.innerText, card), /You edited this before approving · 1 line differs/);
  await screenshot(app.browser, "40b-edited-write-folded");
  await openCard(card);
  await (await card.$('[data-testid="undo-change"]')).click();
  await (await card.$('[data-testid="confirm-undo"]')).click();
  await waitFor("the file removed", () => !existsSync(join(project, "notes.txt")));
  // Undone by the person: the card turns grey and folds to one line.
  await waitFor("the card undone", async () => (await card.getAttribute("data-undo")) === "done");
  assert.equal(await card.getAttribute("data-look"), "by-you");
  await screenshot(app.browser, "41-write-undone");
});

step("4a. a change approved in part writes only the ticked hunks (Ctrl+Enter right after ticking); one hunk of it undoes alone", async () => {
  const proposed = PARTS.replace("part 2\n", "part two\n").replace("part 20\n", "part twenty\n").replace("part 38\n", "part thirty-eight\n");
  model.script(
    { tool: { name: "read", input: { path: "parts.txt" } } },
    { tool: { name: "write", input: { path: "parts.txt", content: proposed } } },
    { text: "Changed what you chose." },
  );
  const requestsBefore = model.requests.length;
  await send("Rename three parts");
  const card = await waitFor("the write waiting", async () => {
    const c = await lastCard("write");
    return c && (await c.getAttribute("data-state")) === "awaiting_approval" ? c : null;
  });
  const boxes = await card.$$('[data-testid="hunk-choice"]');
  assert.equal(boxes.length, 3, "one box per hunk");
  await boxes[1].click();
  await waitFor("the button to count the ticked changes", async () =>
    (await (await card.$('[data-testid="approve"]')).getText()) === "Approve 2 of 3 parts",
  );
  assert.match(await card.getText(), /left out/);
  await screenshot(app.browser, "44-hunk-left-out");
  // Ctrl+Enter right after ticking (the focus on the box, outside the bar) approves what the
  // card shows ticked.
  assert.equal(await app.browser.execute(() => document.activeElement?.className), "hunk-choice");
  await app.browser.keys(["Control", "Enter"]);
  await waitFor("the partial write", () => readFileSync(join(project, "parts.txt"), "utf8") !== PARTS);
  await waitIdle();
  const written = PARTS.replace("part 2\n", "part two\n").replace("part 38\n", "part thirty-eight\n");
  assert.equal(readFileSync(join(project, "parts.txt"), "utf8"), written, "hunks 1 and 3 only");
  const told = JSON.stringify(model.requests[requestsBefore + 2]);
  assert.ok(told.includes("hunks 1, 3 of 3 were written"), `the model is told what was left out: ${told.slice(-600)}`);
  // The card now shows what was written: two hunks, no boxes.
  assert.match(await app.browser.execute((el) => el.innerText, card), /You approved 2 of 3 parts/);
  await openCard(card);
  await waitFor("the card's diff to be what was written", async () =>
    (await card.$$(".diff-hunk-header")).length === 2 && (await card.$$('[data-testid="hunk-choice"]')).length === 0,
  );
  assert.doesNotMatch(await (await card.$(".diff-view")).getText(), /part twenty/);
  await screenshot(app.browser, "45-hunks-written");
  // One hunk of what went through is undone on its own (after a confirmation); the rest stays.
  const undoHunks = await card.$$('[data-testid="undo-hunk"]');
  assert.equal(undoHunks.length, 2, "each hunk of the change offers its undo");
  await undoHunks[1].click();
  await (await card.$('[data-testid="confirm-undo-hunk"]')).click();
  await waitFor("the second hunk put back", () => readFileSync(join(project, "parts.txt"), "utf8") === PARTS.replace("part 2\n", "part two\n"));
  await waitFor("the card's diff down to one hunk", async () => (await card.$$(".diff-hunk-header")).length === 1);
  await waitFor("the card to say part of it was undone", async () =>
    /Part of this change was undone/.test(await (await card.$('[data-testid="undo-bar"]')).getText()),
  );
  await screenshot(app.browser, "46-hunk-undone");
  // Undo puts back what the file had before the partial write.
  await (await card.$('[data-testid="undo-change"]')).click();
  await (await card.$('[data-testid="confirm-undo"]')).click();
  await waitFor("parts.txt as it was", () => readFileSync(join(project, "parts.txt"), "utf8") === PARTS);
});

step("4b. a long diff: Show all puts every line in a scroll box that reaches the last line", async () => {
  // More lines than an event carries (1,200): the rest comes from the engine on "Show all".
  const long = Array.from({ length: 3000 }, (_, i) => `row ${i + 1} of the long file`).join("\n") + "\n";
  model.script({ tool: { name: "write", input: { path: "long.txt", content: long } }, chunk: 4096, delayMs: 0 }, { text: "Left it." });
  await send("Write long.txt");
  await (await $('[data-testid="approve"]')).waitForDisplayed({ timeout: 20000 });
  const card = await lastCard("write");
  await waitFor("the counts of the whole diff", async () => (await card.getText()).includes("+3000"));
  const showAll = await card.$("button=Show all 2985 remaining lines");
  await showAll.click();
  const box = await card.$(".diff-body-virtual");
  await waitFor("every line in the box", async () => (await box.getAttribute("data-rows")) === "3001");
  // Only the rows near the box's view are drawn; scrolling to its end draws the last line.
  const end = await app.browser.execute(async (el) => {
    el.scrollTop = el.scrollHeight;
    for (let i = 0; i < 4; i += 1) await new Promise((r) => requestAnimationFrame(r));
    const rows = el.querySelectorAll("tr.diff-line");
    return { drawn: rows.length, last: rows[rows.length - 1]?.textContent ?? "" };
  }, box);
  assert.ok(end.drawn < 300, `only rows near the view are drawn (${end.drawn})`);
  assert.match(end.last, /row 3000 of the long file/);
  await screenshot(app.browser, "45-long-diff-show-all");
  // A selection from row 10 to row 2990, made at the top and extended after scrolling to the
  // end: the rows between were never drawn, and a copy (Ctrl+C) has every one of them.
  const kept = await app.browser.execute(async (el) => {
    const frames = async () => {
      for (let i = 0; i < 3; i += 1) await new Promise((r) => requestAnimationFrame(r));
    };
    const row = (n) => [...el.querySelectorAll("tr.diff-line")].find((r) => r.textContent.endsWith(`row ${n} of the long file`));
    const text = (n) => row(n).querySelector("td.diff-code span").firstChild;
    el.scrollTop = 0;
    await frames();
    getSelection().setBaseAndExtent(text(10), 0, text(11), 3);
    await frames();
    el.scrollTop = el.scrollHeight;
    await frames();
    getSelection().extend(text(2990), 8);
    await frames();
    el.focus();
    window.__copied = null;
    window.addEventListener("copy", (e) => (window.__copied = e.clipboardData.getData("text/plain")), { once: true });
    return { anchorKept: el.contains(getSelection().anchorNode), drawn: el.querySelectorAll("tr.diff-line").length };
  }, box);
  assert.ok(kept.anchorKept, "the selection's start stays in the box after scrolling away from it");
  assert.ok(kept.drawn < 400, `only rows near the view and the selection's ends are drawn (${kept.drawn})`);
  await screenshot(app.browser, "46-long-diff-selection");
  await app.browser.keys(["Control", "c"]);
  await waitFor("the copy", async () => (await app.browser.execute(() => window.__copied)) !== null);
  const copied = (await app.browser.execute(() => window.__copied)).split("\n");
  assert.equal(copied.length, 2981, "one line per row from row 10 to row 2990");
  assert.equal(copied[0], "row 10 of the long file");
  assert.equal(copied[1], "row 11 of the long file");
  assert.equal(copied[2980], "row 2990");
  // A selection from the message before the card into row 2990 reaches beyond the box: the page
  // copies it, and the rows of the box it covers, never drawn, are in the copy too.
  const across = await app.browser.execute(async (el) => {
    const frames = async () => {
      for (let i = 0; i < 3; i += 1) await new Promise((r) => requestAnimationFrame(r));
    };
    const message = [...document.querySelectorAll('[data-testid="user-message"] .msg-body')].find((m) => m.textContent === "Write long.txt");
    const row = [...el.querySelectorAll("tr.diff-line")].find((r) => r.textContent.endsWith("row 2990 of the long file"));
    if (!message || !row) return { error: `message drawn: ${Boolean(message)}, row drawn: ${Boolean(row)}` };
    getSelection().setBaseAndExtent(message.firstChild, 0, row.querySelector("td.diff-code span").firstChild, 8);
    await frames();
    return { drawn: el.querySelectorAll("tr.diff-line").length };
  }, box);
  assert.ok(!across.error, across.error);
  assert.ok(across.drawn < 400, `the rows between are not drawn before the copy (${across.drawn})`);
  const started = Date.now();
  await app.browser.keys(["Control", "c"]);
  const copyMs = Date.now() - started;
  const composer = await $('[data-testid="composer"]');
  await composer.click();
  await app.browser.keys(["Control", "v"]);
  await waitFor("the pasted copy", async () => (await composer.getValue()).includes("row 2990"));
  const pasted = await composer.getValue();
  assert.ok(pasted.startsWith("Write long.txt"), `the copy starts at the message: ${pasted.slice(0, 80)}`);
  const rows = pasted.match(/row \d+ of the long file/g) ?? [];
  assert.equal(rows.length, 2989, "every row from 1 to 2989 whole, then the start of row 2990");
  assert.equal(rows[1499], "row 1500 of the long file");
  assert.ok(pasted.trimEnd().endsWith("row 2990"), "the copy ends where the selection does");
  console.log(`copying a selection over 2,990 rows of a diff box and what is before it took ${copyMs} ms (Ctrl+C over WebDriver)`);
  await app.browser.keys(["Control", "a"]);
  await app.browser.keys(["Delete"]);
  await waitFor("the composer emptied", async () => (await composer.getValue()) === "");
  await app.browser.execute(() => getSelection().removeAllRanges());
  await (await $('[data-testid="reject"]')).click();
  await (await $('[data-testid="confirm-reject"]')).click();
  await waitIdle();
  assert.ok(!existsSync(join(project, "long.txt")), "a rejected write leaves no file");
});

step("4c. the file changes made after a message are undone from the message, newest first", async () => {
  model.script(
    { tool: { name: "write", input: { path: "one.txt", content: "first\n" } } },
    { tool: { name: "write", input: { path: "one.txt", content: "second\n" } } },
    { tool: { name: "write", input: { path: "two.txt", content: "other\n" } } },
    { text: "Three changes." },
  );
  await send("Make three changes");
  for (let n = 1; n <= 3; n += 1) {
    await waitFor(`approval ${n}`, async () => (await app.browser.$$('[data-testid="approve"]')).length === 1);
    await (await $('[data-testid="approve"]')).click();
    await waitFor(`write ${n} done`, async () => {
      const done = await app.browser.execute(
        () =>
          [...document.querySelectorAll('[data-testid="tool-card"][data-tool="write"][data-state="succeeded"]')].filter((c) =>
            /^write (one|two)\.txt$/.test(c.getAttribute("aria-label")),
          ).length,
      );
      return done === n;
    });
  }
  await waitIdle();
  assert.equal(readFileSync(join(project, "one.txt"), "utf8"), "second\n");
  const message = await app.browser.$('//div[@data-testid="user-message"][.//div[text()="Make three changes"]]');
  await message.moveTo();
  await (await message.$('[data-testid="undo-after-button"]')).click();
  assert.match(await message.getText(), /Undo the 3 file changes after this message\?/);
  await screenshot(app.browser, "42-undo-after-message");
  await (await message.$('[data-testid="confirm-undo-after"]')).click();
  await waitFor("both files gone", () => !existsSync(join(project, "one.txt")) && !existsSync(join(project, "two.txt")));
  await waitFor("the three cards undone", async () =>
    (await app.browser.execute(() => document.querySelectorAll('[data-testid="tool-card"][data-undo="done"]').length)) >= 3,
  );
  await screenshot(app.browser, "43-undone-after-message");
});

step("5. after a restart the session is in the sidebar with its history and continues", async () => {
  // The next message is written before the restart and sent after it: the draft is kept.
  const next = "Anything else?";
  await (await $('[data-testid="composer"]')).addValue(next);
  await new Promise((r) => setTimeout(r, 500)); // a user does not quit within a keystroke
  await app.close();
  // The user adds an MCP server (used by test 6); the restarted app reads it.
  const everything = join(ROOT, "target/mcp-servers/node_modules/@modelcontextprotocol/server-everything/dist/index.js");
  assert.ok(existsSync(everything), `missing ${everything}: run make mcp-servers`);
  mkdirSync(join(home, "config", "dev.foreman.app"), { recursive: true });
  writeFileSync(
    join(home, "config", "dev.foreman.app", "mcp.json"),
    JSON.stringify({ mcpServers: { everything: { command: "node", args: [everything, "stdio"] } } }),
  );
  app = await launch({ args: [project], home });
  const item = await $('[data-testid="session-item"]');
  await item.waitForDisplayed({ timeout: 30000 });
  await waitFor("the sessions listed", async () => (await app.browser.$$('[data-testid="session-item"]')).length >= 1);
  const titles = [];
  for (const it of await app.browser.$$('[data-testid="session-item"]')) titles.push(await it.getProperty("textContent"));
  assert.ok(titles.some((t) => /Create hello\.txt/.test(t)), `the session is listed: ${titles}`);
  const items = await app.browser.$$('[data-testid="session-item"]');
  for (const it of items) {
    if (/Create hello\.txt/.test(await it.getProperty("textContent"))) {
      await it.click();
      break;
    }
  }
  // The conversation is virtualised: it opens at the latest entries, so scroll to its start.
  await waitFor("the old conversation", async () =>
    String(
      await app.browser.execute(() => {
        const c = document.querySelector('[data-testid="conversation"]');
        if (c) c.scrollTop = 0;
        return c ? c.textContent : "";
      }),
    ).includes("Create hello.txt with sixty lines"),
  );
  // Count the cards met while scrolling from the start to the end (only those near the view are rendered).
  const { cards, undone, messages } = await app.browser.execute(async () => {
    const c = document.querySelector('[data-testid="conversation"]');
    const seen = new Set();
    const undone = new Set();
    const messages = new Set();
    for (let top = 0; ; top += c.clientHeight / 2) {
      c.scrollTop = top;
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      for (const card of c.querySelectorAll('[data-testid="tool-card"]')) {
        seen.add(card.closest("[data-entry]")?.getAttribute("data-entry"));
        if (card.getAttribute("data-undo") === "done") undone.add(card.getAttribute("aria-label"));
      }
      for (const m of c.querySelectorAll('[data-testid="user-message"] .msg-body')) messages.add(m.textContent);
      if (top >= c.scrollHeight - c.clientHeight) break;
    }
    return { cards: seen.size, undone: [...undone], messages: [...messages] };
  });
  assert.ok(cards >= 4, `the earlier calls are shown (${cards})`);
  // The write undone in step 4 still says so after the restart; the model's note is no message.
  assert.deepEqual(undone.sort(), ["write notes.txt", "write one.txt", "write one.txt", "write parts.txt", "write two.txt"].filter((v, i, a) => a.indexOf(v) === i));
  assert.ok(!messages.some((m) => m.startsWith("I undid")), `no note among the messages: ${messages}`);
  await screenshot(app.browser, "50-session-restored");
  model.script({ text: "Continuing where we left off." });
  const composer = await $('[data-testid="composer"]');
  await waitFor("the draft written before the restart", async () => (await composer.getValue()) === next);
  await (await $('[data-testid="send"]')).click();
  await waitFor("the answer", async () => (await app.browser.getPageSource()).includes("Continuing where we left off."));
  const last = model.requests[model.requests.length - 1];
  assert.ok(JSON.stringify(last).includes("Create hello.txt with sixty lines"), "the history went to the model");
  assert.ok(JSON.stringify(last).includes("I undid the change call"), "the model was told of the undo");
  await waitIdle();
  await screenshot(app.browser, "51-session-continued");
});

step("5a. the status bar lists the files changed; one click goes to a file's newest card", async () => {
  const button = await $('[data-testid="changes-button"]');
  await waitFor("the files changed counted", async () => (await button.getText()) === "1 file changed");
  await button.click();
  await (await $('[data-testid="changes-panel"]')).waitForDisplayed();
  const rows = await app.browser.execute(() => [...document.querySelectorAll('[data-testid="changes-row"]')].map((r) => r.textContent));
  const row = (path) => rows.find((r) => r.startsWith(path)) ?? "";
  assert.match(row("hello.txt"), /^hello\.txtnew\+60 −0$/, `hello.txt was created with 60 lines: ${rows}`);
  // The count is what differs on disk from the session's start: the files whose changes were all
  // undone (notes.txt, one.txt, two.txt, parts.txt) are as they were, so they are not counted.
  assert.equal(rows.length, 1, `only hello.txt differs: ${rows}`);
  await screenshot(app.browser, "55-changes-panel");
  // What hello.txt's changes amount to now, read from the store and the disk: the file it
  // created, whole. A file whose changes were all undone offers no such diff.
  const diffs = await app.browser.execute(() =>
    [...document.querySelectorAll(".changes-item")].map((li) => [li.querySelector("code")?.textContent, !!li.querySelector('[data-testid="changes-net"]')]),
  );
  assert.deepEqual(
    diffs.filter(([, offered]) => offered).map(([path]) => path),
    ["hello.txt"],
    `only hello.txt has changes kept: ${JSON.stringify(diffs)}`,
  );
  await (await $('//li[@class="changes-item"][.//code[text()="hello.txt"]]//button[@data-testid="changes-net"]')).click();
  const dialog = await $('[data-testid="net-change"]');
  // The diff draws its rows over a few frames: wait for the last one, not only the counts.
  await waitFor("hello.txt's net change, to its last line", async () => {
    const text = await dialog.getText();
    return /new file/.test(text) && /\+60/.test(text) && /line 60 of the greeting file/.test(text);
  });
  assert.match(await dialog.getText(), /From before the change → the file on disk/, "it says where the diff starts");
  await screenshot(app.browser, "57-net-change");
  await app.browser.keys(["Escape"]);
  await waitFor("the dialog closed", async () => !(await dialog.isExisting()));
  await button.click();
  await (await $('[data-testid="changes-panel"]')).waitForDisplayed();
  await (await $('//button[@data-testid="changes-row"][starts-with(., "hello.txt")]')).click();
  // The card of the write that created hello.txt, far up the conversation, is brought into view.
  await waitFor("hello.txt's card in view and outlined", async () =>
    app.browser.execute(() => {
      const found = document.querySelector(".entry-found [data-testid='tool-card']");
      const view = document.querySelector('[data-testid="conversation"]').getBoundingClientRect();
      if (!found) return false;
      const box = found.getBoundingClientRect();
      const label = found.getAttribute("aria-label");
      if (label === "write hello.txt" && box.top >= view.top && box.top < view.bottom) return true;
      return `"${label}" at ${box.top} in ${view.top}..${view.bottom}`;
    }).then((r) => r === true || Promise.reject(new Error(String(r)))),
  );
  await screenshot(app.browser, "56-changes-go-to-card");
});

step("5b. a branch from an earlier message is a new session that has the conversation before it", async () => {
  // The conversation draws only the entries near its view: to its end, where the message is.
  // Once the outline of step 5a is gone; the message is brought to the middle of the view.
  await waitFor("the outline gone", () => app.browser.execute(() => !document.querySelector(".entry-found")));
  // Drawn and hovered until its actions show: under load the conversation may still redraw as
  // it settles. The pointer moves onto the message without WebDriver's own scrolling (which
  // centres it in the window too and can move the conversation past it).
  const message = await waitFor("the message's actions on hover", async () => {
    const drawn = await app.browser.execute(async () => {
      const c = document.querySelector('[data-testid="conversation"]');
      const body = [...c.querySelectorAll('[data-testid="user-message"] .msg-body')].find((m) => m.textContent === "Make three changes");
      if (!body) {
        c.scrollTop = c.scrollHeight;
        return false;
      }
      body.scrollIntoView({ block: "center" });
      for (let i = 0; i < 3; i += 1) await new Promise((r) => requestAnimationFrame(r));
      return true;
    });
    if (!drawn) return false;
    const found = await app.browser.$('//div[@data-testid="user-message"][.//div[text()="Make three changes"]]');
    await app.browser.action("pointer").move({ origin: found }).perform();
    await (await found.$('[data-testid="branch-button"]')).waitForDisplayed({ timeout: 3000 });
    return found;
  }, 40000);
  await screenshot(app.browser, "52-message-actions");
  await (await message.$('[data-testid="branch-button"]')).click();
  assert.match(await message.getText(), /Branch from this message\?/);
  await screenshot(app.browser, "53-branch-confirm");
  await (await message.$('[data-testid="confirm-branch"]')).click();
  // The branch opens with the message in its composer; the original stays in the sidebar.
  const composer = await $('[data-testid="composer"]');
  await waitFor("the message in the branch's composer", async () => (await composer.getValue()) === "Make three changes");
  // The sidebar's list is read again as the branch opens: the branch is a row of its own, titled
  // like its source, marked as a branch and drawn under it; its tooltip names its source.
  const rows = () =>
    app.browser.execute(() =>
      [...document.querySelectorAll('[data-testid="session-item"]')].map((i) => ({
        branch: i.getAttribute("data-branch") === "true",
        title: i.querySelector(".session-title")?.textContent ?? "",
        tip: i.title,
      })),
    );
  await waitFor("the branch listed", async () => (await rows()).some((r) => r.branch));
  const listed = await rows();
  const branchAt = listed.findIndex((r) => r.branch);
  const branchRow = listed[branchAt];
  assert.match(branchRow.title, /^Create hello\.txt/, `the branch is titled like its source: ${JSON.stringify(listed)}`);
  assert.match(branchRow.tip, /^Branch of “Create hello\.txt/, `the branch names its source: ${JSON.stringify(listed)}`);
  assert.ok(branchAt > 0 && !listed[branchAt - 1].branch && /^Create hello\.txt/.test(listed[branchAt - 1].title), `the branch is under its source: ${JSON.stringify(listed)}`);
  await waitFor("the branch's conversation", () => app.browser.execute(() => Boolean(document.querySelector('[data-testid="conversation"]'))));
  const messages = await app.browser.execute(async () => {
    const c = document.querySelector('[data-testid="conversation"]');
    const seen = new Set();
    for (let top = 0; ; top += c.clientHeight / 2) {
      c.scrollTop = top;
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      for (const m of c.querySelectorAll('[data-testid="user-message"] .msg-body')) seen.add(m.textContent);
      if (top >= c.scrollHeight - c.clientHeight) break;
    }
    return [...seen];
  });
  assert.ok(messages.some((m) => m.startsWith("Create hello.txt with sixty lines")), `the earlier messages are there: ${messages}`);
  assert.ok(!messages.includes("Make three changes") && !messages.includes("Anything else?"), `nothing from the message on: ${messages}`);
  // The user rewrites it and sends: the model gets the history before it and the new text.
  await composer.click();
  await app.browser.keys(["Control", "a"]);
  await composer.addValue("Make one change only");
  model.script({ text: "Only one, then." });
  const sent = model.requests.length;
  await (await $('[data-testid="send"]')).click();
  await waitFor("the answer in the branch", async () => (await app.browser.getPageSource()).includes("Only one, then."));
  await waitIdle();
  assert.equal(model.requests.length, sent + 1);
  const request = JSON.stringify(model.requests[sent]);
  assert.ok(request.includes("Create hello.txt with sixty lines"), "the history before the message went to the model");
  assert.ok(request.includes("Make one change only"), "the rewritten message went to the model");
  for (const later of ["Make three changes", "Three changes.", "Anything else?"]) {
    assert.ok(!request.includes(later), `nothing said from the message on went to the model (${later})`);
  }
  await screenshot(app.browser, "54-branch-sent");
});

step("6. an MCP tool runs through the same loop and card; the settings list its server", async () => {
  // A new conversation has no session until it sends; the shell forgets the one shown before,
  // so a page loaded again would not reopen it.
  const log = join(home, "data", "dev.foreman.app", "logs", "foreman.log");
  const newConversations = () => readFileSync(log, "utf8").split("the window shows a new conversation").length;
  const before = newConversations();
  await (await $('[data-testid="new-session"]')).click();
  await waitFor("the shell to forget the shown session", () => newConversations() > before);
  model.script(
    { tool: { name: "everything__echo", input: { message: "hello from MCP" } } },
    { text: "The echo came back." },
  );
  await send("Echo something through MCP");
  const card = await waitFor("the MCP card", () => lastCard("everything__echo"), 40000);
  await waitFor("the call to finish", async () => (await card.getAttribute("data-state")) === "succeeded", 40000);
  assert.ok(!(await app.browser.$('[data-testid="approve"]').isExisting()), "read-only MCP tools run without asking");
  await waitIdle();
  await openCard(card);
  assert.match(await card.getText(), /Echo: hello from MCP/, "the server's answer is shown");
  // Named by the tool and its server, not the name the model calls it by; no raw arguments.
  assert.equal(await (await card.$(".tool-name")).getText(), "echo · everything");
  assert.doesNotMatch(await card.getText(), /everything__echo|"message"/);
  await screenshot(app.browser, "60-mcp-tool");
  // A message written and not sent yet is kept through Settings (and, step 7, a crash).
  const draft = "a draft that must not be lost";
  await (await $('[data-testid="composer"]')).addValue(draft);
  await (await $('[data-testid="open-settings"]')).click();
  await (await $('[data-testid="settings-nav-mcp"]')).click();
  const server = await $('[data-testid="mcp-server"]');
  await server.waitForDisplayed({ timeout: 20000 });
  await waitFor("the server connected", async () => /connected/.test(await server.getText()));
  await screenshot(app.browser, "61-settings-mcp");
  // The user's server opens in the form; the JSON stays behind "Advanced (JSON)".
  await (await server.$('[data-testid="mcp-edit"]')).click();
  const form = await $('[data-testid="mcp-form"]');
  await form.waitForDisplayed({ timeout: 10000 });
  assert.equal(await (await $('[data-testid="mcp-form-name"]')).getValue(), "everything");
  assert.equal(await (await $('[data-testid="mcp-form-command"]')).getValue(), "node");
  await screenshot(app.browser, "61b-settings-mcp-form");
  await (await form.$("button=Cancel")).click();
  await (await $('[data-testid="settings-nav-approvals"]')).click();
  await (await $('[data-testid="default-mode"]')).waitForDisplayed({ timeout: 10000 });
  await screenshot(app.browser, "61c-settings-approvals");
  // The sandbox has its own section: the level, and the paths hidden from commands.
  await (await $('[data-testid="settings-nav-sandbox"]')).click();
  await (await $('[data-testid="sandbox-level"]')).waitForDisplayed({ timeout: 10000 });
  assert.match(await (await $('[data-testid="hidden-paths"]')).getText(), /~\/\.ssh/);
  assert.ok((await app.browser.$$('[data-testid="hidden-own-dir"]')).length > 0, "the app's own folders are listed");
  await screenshot(app.browser, "61d-settings-sandbox");
  await (await $('[data-testid="close-settings"]')).click();
  // Back from Settings, the conversation that was open is shown again, with the unsent draft.
  await waitFor("the conversation again", async () => /The echo came back\./.test(await (await $("main")).getText()));
  await waitFor("the draft again", async () => (await (await $('[data-testid="composer"]')).getValue()) === draft);
  await screenshot(app.browser, "62-back-from-settings");
});

step("6a. a message sent while the agent works waits above the composer and joins where the model reads it; Stop gives a waiting one back", async () => {
  const composer = await $('[data-testid="composer"]');
  const draft = await composer.getValue();
  /** Empties the composer the way a user does (React sees the input). */
  const clear = async () => {
    await composer.click();
    await app.browser.keys(["Control", "a"]);
    await app.browser.keys(["Backspace"]);
    await waitFor("an empty composer", async () => (await composer.getValue()) === "");
  };
  const waiting = () => app.browser.execute(() => [...document.querySelectorAll('[data-testid="queued-message"]')].map((m) => m.textContent));
  await clear();
  model.script(
    { tool: { name: "bash", input: { command: "echo first step" } } },
    { text: "Hello, as you asked." },
  );
  await send("Run the first step");
  const approve = await $('[data-testid="approve"]');
  await approve.waitForDisplayed({ timeout: 20000 });
  await composer.addValue("Then say hello");
  const queue = await $('[data-testid="send"]');
  await waitFor("the Queue button", async () => (await queue.getText()) === "Queue" && (await queue.isEnabled()));
  await queue.click();
  await waitFor("the message waiting above the composer", async () => (await waiting()).join() === "Then say hello");
  await screenshot(app.browser, "63-message-waiting");
  const asked = model.requests.length;
  await approve.click();
  await waitIdle();
  await waitFor("the answer", async () => (await app.browser.getPageSource()).includes("Hello, as you asked."));
  assert.deepEqual(await waiting(), [], "nothing waits any more");
  assert.ok(JSON.stringify(model.requests[asked]).includes("Then say hello"), "the model read it in its next request");
  // It joined the conversation after the command the model ran before reading it.
  const joinedAfter = await app.browser.execute(() => {
    const said = [...document.querySelectorAll('[data-testid="user-message"]')].find((m) => m.textContent?.includes("Then say hello"));
    const cards = document.querySelectorAll('[data-testid="tool-card"][data-tool="bash"]');
    const card = cards[cards.length - 1];
    return Boolean(said && card && card.compareDocumentPosition(said) & Node.DOCUMENT_POSITION_FOLLOWING);
  });
  assert.ok(joinedAfter, "the message is shown after the command's card");
  await screenshot(app.browser, "64-message-joined");

  model.script({ tool: { name: "bash", input: { command: "echo never run" } } });
  await send("Run the second step");
  await approve.waitForDisplayed({ timeout: 20000 });
  await composer.addValue("Do this afterwards");
  await queue.click();
  await waitFor("the second message waiting", async () => (await waiting()).join() === "Do this afterwards");
  await composer.addValue("Actually, not this");
  await queue.click();
  await waitFor("two messages waiting", async () => (await waiting()).join("|") === "Do this afterwards|Actually, not this");
  // One of them taken back: it is in the message box to change, the other still waits.
  await (await app.browser.$$('[data-testid="take-back"]'))[1].click();
  await waitFor("the message taken back in the composer", async () => (await composer.getValue()) === "Actually, not this");
  assert.deepEqual(await waiting(), ["Do this afterwards"]);
  await screenshot(app.browser, "65-took-one-back");
  const requestsBefore = model.requests.length;
  await (await $('[data-testid="stop"]')).click();
  await waitIdle();
  // Stop gives back the other one, before the text being written.
  await waitFor("the message back in the composer", async () => (await composer.getValue()) === "Do this afterwards\n\nActually, not this");
  assert.deepEqual(await waiting(), []);
  assert.match(await (await $("main")).getText(), /The message that waited is back in the message box/);
  assert.equal(model.requests.length, requestsBefore, "Stop did not start a task with the waiting messages");
  assert.ok(!JSON.stringify(model.requests).includes("Actually, not this"), "the model never read the message taken back");
  await screenshot(app.browser, "66-stop-gave-it-back");
  await clear();
  await composer.addValue(draft);
});

step("6b. an answer cut off by a dropped connection is kept, and Retry runs the model again from it", async () => {
  const composer = await $('[data-testid="composer"]');
  const draft = await composer.getValue();
  await composer.click();
  await app.browser.keys(["Control", "a"]);
  await app.browser.keys(["Backspace"]);
  await waitFor("an empty composer", async () => (await composer.getValue()) === "");
  model.script({ text: "The first half of the answer, ", dropAfterText: true }, { text: "and the second half." });
  await send("Tell me in two halves");
  await waitIdle();
  const main = await $("main");
  await waitFor("the error that says the connection dropped", async () => /Connection dropped mid-answer/.test(await main.getText()));
  assert.match(await main.getText(), /The first half of the answer,/, "what arrived is kept");
  const retry = await $('[data-testid="retry"]');
  await retry.waitForDisplayed({ timeout: 20000 });
  assert.equal(await retry.getText(), "Retry");
  await screenshot(app.browser, "67-retry-offered");
  const asked = model.requests.length;
  await retry.click();
  await waitFor("the rest of the answer", async () => /and the second half\./.test(await main.getText()));
  await waitIdle();
  assert.equal(model.requests.length, asked + 1, "one request more");
  const again = JSON.stringify(model.requests[asked]);
  assert.ok(again.includes("The first half of the answer"), "the model was sent what had arrived");
  assert.ok(again.includes("cut off by an error"), "the model was told it was cut off");
  assert.equal(again.split("Tell me in two halves").length, 2, "the user's message was not sent twice");
  assert.ok(!(await $('[data-testid="retry"]').isExisting()), "the offer is gone");
  await waitFor("the error notice to turn into a recovered one", async () =>
    app.browser.execute(() => Boolean(document.querySelector('[data-testid="notice"].notice-recovered'))));
  assert.match(await main.getText(), /Reconnected after: Connection dropped mid-answer/);
  const said = await app.browser.execute(() => [...document.querySelectorAll('[data-testid="user-message"]')].map((m) => m.textContent));
  assert.equal(said.filter((t) => t?.includes("Tell me in two halves")).length, 1, "no second message of the user is shown");
  await screenshot(app.browser, "68-retried");
  // Opened again (another conversation, then this one): it still says where the answer was cut
  // off, and the Stop of step 6a, from the store.
  const sessions = async () => app.browser.$$('[data-testid="session-item"]');
  const current = await app.browser.execute(() => document.querySelector('[data-testid="session-item"][aria-current="true"]')?.textContent ?? "");
  const [other, self] = [[], []];
  // By aria-current, not the text: the row's "just now" moves on as the test runs.
  for (const it of await sessions()) ((await it.getAttribute("aria-current")) === "true" ? self : other).push(it);
  assert.ok(other.length > 0 && self.length === 1, `the sessions listed: ${current}`);
  await other[0].click();
  await waitFor("the other conversation", async () => !/Tell me in two halves/.test(await main.getText()));
  await self[0].click();
  await waitFor("this conversation again", async () => /and the second half\./.test(await main.getText()));
  const reopened = await main.getText();
  assert.match(reopened, /Reconnected after: Connection dropped mid-answer/);
  assert.match(reopened, /Stopped\./);
  assert.ok(!(await $('[data-testid="retry"]').isExisting()), "nothing to retry: the retry went well");
  await composer.addValue(draft);
});

step("7. when the page crashes, the reloaded page reopens the open session (with the unsent draft) and says what happened", async () => {
  const crashed = descendantNamed(app.driverPid, "WebKitWebProces");
  assert.ok(crashed, "the page runs in a web process");
  driven = false;
  process.kill(crashed, "SIGKILL");
  // WebKitWebDriver ends its session with the page, so the new page is seen from outside: the
  // app's log says which session it reopened and that the session reattached.
  const log = join(home, "data", "dev.foreman.app", "logs", "foreman.log");
  const reopened = `page loaded again: reopening ${project} and its session `;
  /** The session the new page reopened, once the log says it reattached. */
  const reattached = () => {
    const text = readFileSync(log, "utf8");
    const at = text.indexOf(reopened);
    if (at < 0) return undefined;
    const session = text.slice(at + reopened.length).split(/\s/)[0];
    return text.slice(at).includes(`session ${session} reattached`) ? session : undefined;
  };
  const deadline = Date.now() + 30000;
  while (!reattached() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
  assert.ok(reattached(), `the new page reopened the session it showed:\n${readFileSync(log, "utf8").slice(-2000)}`);
  await new Promise((r) => setTimeout(r, 1500)); // the new page draws
  try {
    execFileSync("import", ["-window", "root", join(SCREENSHOTS, "70-session-reopened-after-crash.png")]);
  } catch {
    // No `import`: the log above is the test.
  }
});
