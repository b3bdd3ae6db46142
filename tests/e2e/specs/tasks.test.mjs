// Tasks in the real window, against a scripted model that answers each task's session from a
// script of its own: three tasks on one git repository at once, each in its own worktree, while
// the person's checkout stays as it is; one waits for an approval while the other two run, and
// the inbox says so; two change the same lines of a file and both are warned; then the merge
// queue: the first lands after its check passed, the second conflicts, the third's check fails
// and nothing of it lands. The app is restarted in the middle: every task comes back in its own
// worktree, and the one that conflicted is fixed by its agent (a command that runs after the
// restart, in its worktree) and lands.
import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { launch, makeHome, screenshot } from "../lib/app.mjs";
import { waitFor } from "../lib/wait.mjs";
import { startModel } from "../lib/model.mjs";

const home = makeHome("tasks");
const repo = realpathSync(mkdtempSync(join(tmpdir(), "foreman-tasks-repo-")));
const KEY = "sk-ant-e2e-tasks-key";

/** The repository's files as committed on main. */
const SHARED = "# Shared words\nHello.\nThe middle line stays.\nGoodbye.\n";
const FILES = {
  "README.md": "# a project with tasks\n",
  "shared.txt": SHARED,
  // The check the merge queue runs (named in .foreman/worktree.toml): no TODO may be left.
  "ci.sh": [
    'echo "check: looking for TODO in the text files"',
    "if grep -n TODO *.txt; then",
    '  echo "check failed: finish the TODO above first"',
    "  exit 1",
    "fi",
    'echo "check passed"',
    "",
  ].join("\n"),
  ".foreman/worktree.toml": 'check = "sh ci.sh"\n',
};
/** What each task's agent writes. */
const WARM = SHARED.replace("Hello.", "Hello, and a warm welcome!");
const SHORT = SHARED.replace("Hello.", "Hi.").replace("Goodbye.", "Bye.");
const FIXED = SHARED.replace("Hello.", "Hi, and a warm welcome!").replace("Goodbye.", "Bye.");
const NOTES = "# Release notes\n\nTODO: say what changed\n";

/** The three tasks: their names, and the words of their first message the model routes by. */
const A = { name: "warm-greeting", says: "Make the greeting in shared.txt warmer" };
const B = { name: "short-words", says: "Make the greeting and the goodbye in shared.txt shorter" };
const C = { name: "release-notes", says: "Write the release notes in notes.txt" };

const git = (...args) => execFileSync("git", args, { cwd: repo, encoding: "utf8" });
const IDENTITY = ["-c", "user.name=Foreman E2E", "-c", "user.email=e2e@example.invalid"];

for (const [path, text] of Object.entries(FILES)) {
  mkdirSync(join(repo, path, ".."), { recursive: true });
  writeFileSync(join(repo, path), text);
}
git("init", "-q", "-b", "main");
git("add", "-A");
git(...IDENTITY, "commit", "-q", "-m", "Start the project");
const START = git("rev-parse", "main").trim();

let model;
let app;

before(async () => {
  model = await startModel();
});

after(async () => {
  await app?.close();
  await model?.close();
  // The specs of one run share the Secret Service: the next one starts without a key.
  try {
    execFileSync("secret-tool", ["clear", "service", "foreman", "username", "anthropic"], { stdio: "ignore" });
  } catch {}
});

const $ = (selector) => app.browser.$(selector);

/** `promise`, or nothing after `ms` (for what is done only to help after a failure). */
const bounded = (promise, ms) => Promise.race([promise.catch(() => {}), new Promise((r) => setTimeout(r, ms))]);

/** Like node:test's `test`, with a screenshot of the window when the step fails. */
function step(name, body) {
  test(name, async () => {
    try {
      await body();
    } catch (error) {
      const shot = join(process.env.FOREMAN_SCREENSHOTS ?? ".", `failed-39-${name.slice(0, 2).trim()}.png`);
      await bounded(app?.browser.saveScreenshot(shot) ?? Promise.resolve(), 30000);
      await bounded(app?.browser.keys(["Escape"]) ?? Promise.resolve(), 10000);
      throw error;
    }
  });
}

/** A promise and the function that settles it. */
function gate() {
  let open;
  const promise = new Promise((resolve) => (open = resolve));
  return { promise, open };
}

/** The person's checkout: its files as committed, nothing uncommitted, main where it was. */
function assertCheckoutAt(commit, files, why) {
  assert.equal(git("status", "--porcelain"), "", `${why}: nothing uncommitted in the checkout`);
  assert.equal(git("rev-parse", "main").trim(), commit, `${why}: main is where it was`);
  assert.equal(git("rev-parse", "HEAD").trim(), commit, `${why}: the checkout is on main's commit`);
  for (const [path, text] of Object.entries(files)) {
    assert.equal(readFileSync(join(repo, path), "utf8"), text, `${why}: ${path} in the checkout`);
  }
}

/** The repository's worktrees besides the checkout: { branch -> path }. */
function worktrees() {
  const out = {};
  for (const block of git("worktree", "list", "--porcelain").split("\n\n")) {
    const path = block.match(/^worktree (.*)$/m)?.[1];
    const branch = block.match(/^branch refs\/heads\/(.*)$/m)?.[1];
    if (path && branch && path !== repo) out[branch] = path;
  }
  return out;
}

async function send(text) {
  const composer = await $('[data-testid="composer"]');
  await composer.waitForEnabled({ timeout: 20000 });
  await composer.click();
  await composer.addValue(text);
  await (await $('[data-testid="send"]')).click();
}

/** What the sidebar says of task `name`: its state pill, its warnings, its row's text. */
function sidebarRow(name) {
  return app.browser.execute((branch) => {
    for (const item of document.querySelectorAll('[data-testid="session-item"]')) {
      const place = item.querySelector(".task-row-place");
      if (!place?.textContent.startsWith(`${branch} `)) continue;
      return {
        state: item.querySelector('[data-testid="task-state"]')?.getAttribute("data-state"),
        overlaps: [...item.querySelectorAll('[data-testid="task-overlap"]')].map((e) => e.textContent),
        text: item.textContent,
      };
    }
    return null;
  }, `foreman/${name}`);
}

async function waitRowState(name, state, timeout = 30000) {
  return waitFor(`${name} ${state} in the sidebar`, async () => {
    const row = await sidebarRow(name);
    return row?.state === state ? row : null;
  }, timeout);
}

/** Shows task `name` by clicking its row in the sidebar, and waits for its panel. */
async function openTask(name) {
  const row = await $(
    `//button[@data-testid="session-item"][.//span[contains(@class, "task-row-place") and starts-with(normalize-space(.), "foreman/${name} ")]]`,
  );
  await row.click();
  return shownPanel(name);
}

/** The task panel of `name`, once it is the one shown. */
async function shownPanel(name) {
  return waitFor(`the panel of ${name}`, async () => {
    const panel = await $('[data-testid="task-panel"]');
    return (await panel.isExisting()) && (await panel.getAttribute("aria-label")) === `Task ${name}` ? panel : null;
  });
}

/** An element's text as the DOM has it (WebDriver's visible text leaves out ellipsised lines). */
const textOf = (element) => app.browser.execute((e) => e.textContent, element);

/** The text of the conversation shown (rendered rows only). */
const conversation = () => app.browser.execute(() => document.querySelector('[data-testid="conversation"]')?.textContent ?? "");

/** Starts task `name` from "New task": in a new worktree from main. */
async function startTask(name) {
  await (await $('[data-testid="new-session"]')).click();
  const worktree = await $('[data-testid="place-worktree"]');
  await worktree.waitForEnabled({ timeout: 20000 });
  assert.ok(await worktree.isSelected(), "a new worktree is the default in a git repository");
  assert.equal(await (await $('[data-testid="task-base"]')).getValue(), "main");
  await (await $('[data-testid="task-name"]')).setValue(name);
  return worktree;
}

/** The merge of the task shown: its dialog, the message, then where it stops. */
async function merge(name, message, until) {
  await (await $('[data-testid="merge-task"]')).click();
  const dialog = await $('[data-testid="merge-dialog"]');
  await dialog.waitForDisplayed({ timeout: 10000 });
  if (until.committed) {
    // Everything is committed on its branch: no message is asked for.
    await (await $('[data-testid="merge-all-committed"]')).waitForDisplayed({ timeout: 10000 });
    assert.ok(!(await (await $('[data-testid="merge-message"]')).isExisting()), "no commit message field");
    await screenshot(app.browser, `39-${until.shot}-merge-dialog`);
  } else {
    const field = await $('[data-testid="merge-message"]');
    await field.waitForDisplayed({ timeout: 10000 });
    const draft = await field.getValue();
    // Drafted from the task's title (its first message) and the files it changes.
    assert.ok(draft.startsWith(until.title), `the drafted message: ${draft}`);
    await screenshot(app.browser, `39-${until.shot}-merge-dialog`);
    await field.click();
    await app.browser.keys(["Control", "a"]);
    await field.addValue(message);
  }
  await (await $('[data-testid="confirm-merge"]')).click();
  const progress = await $('[data-testid="merge-progress"]');
  await waitFor(`the merge of ${name} to end as ${until.step}`, async () =>
    (await progress.isExisting()) && (await progress.getAttribute("data-step")) === until.step, 60000);
  return progress;
}

step("1. the provider, and sessions that run edits and sandboxed commands by themselves", async () => {
  app = await launch({ args: [repo], home });
  await (await $('[data-testid="workspace-name"]')).waitForDisplayed({ timeout: 30000 });
  await (await $('[data-testid="open-settings"]')).click();
  await (await $('[data-testid="settings"]')).waitForDisplayed({ timeout: 10000 });
  await (await $('[data-testid="api-key"]')).setValue(KEY);
  await (await $('[data-testid="save-key"]')).click();
  await (await $('[data-testid="key-stored"]')).waitForDisplayed({ timeout: 10000 });
  await (await $('[data-testid="base-url"]')).setValue(model.url);
  await (await $('[data-testid="model"]')).setValue("claude-e2e");
  await (await $('[data-testid="settings-nav-approvals"]')).click();
  const mode = await $('[data-testid="default-mode"]');
  await mode.waitForDisplayed({ timeout: 10000 });
  await mode.selectByAttribute("value", "auto");
  const save = await $('[data-testid="save-settings"]');
  await save.waitForEnabled({ timeout: 10000 });
  await save.click();
  const path = join(home, "config", "dev.foreman.app", "settings.json");
  await waitFor("the mode saved", () => existsSync(path) && JSON.parse(readFileSync(path, "utf8")).approval_mode === "auto");
  await (await $('[data-testid="close-settings"]')).click();
  await (await $('[data-testid="composer"]')).waitForDisplayed({ timeout: 10000 });
});

/** Lets the first answers of A and B go when the test is ready. */
const goA = gate();
const goB = gate();

step("2. three tasks start from the window, each in a worktree of its own; one waits for an approval while two run", async () => {
  model.route(
    A.says,
    { text: "Let me read the file first. ", tool: { name: "read", input: { path: "shared.txt" } }, until: goA.promise },
    { text: "I'll make the greeting warmer. ", tool: { name: "write", input: { path: "shared.txt", content: WARM } } },
    { text: "The greeting is warmer now." },
  );
  model.route(
    B.says,
    { text: "Let me read the file first. ", tool: { name: "read", input: { path: "shared.txt" } }, until: goB.promise },
    { text: "I'll shorten both lines. ", tool: { name: "write", input: { path: "shared.txt", content: SHORT } } },
    { text: "The greeting and the goodbye are shorter now." },
  );
  model.route(
    C.says,
    { text: "I'll write the notes. ", tool: { name: "write", input: { path: "notes.txt", content: NOTES } } },
    { text: "The release notes are written." },
  );

  await startTask(A.name);
  await screenshot(app.browser, "39-01-new-task-chooser");
  await (await $('[data-testid="start-task"]')).click();
  await shownPanel(A.name);
  // Before its first message, the empty conversation says where it works and what it may do.
  const empty = await $(".conversation-empty");
  await waitFor("the empty conversation to name the worktree", async () => (await textOf(empty)).includes("foreman/warm-greeting"));
  assert.match(await textOf(await $('[data-testid="first-run-mode"]')), /^Auto, sandboxed: Edits and sandboxed commands run freely/);
  await screenshot(app.browser, "39-01b-task-started");
  await send(A.says);
  await waitFor("A's first request", () => model.requestsFor(A.says).length === 1);

  await startTask(B.name);
  await (await $('[data-testid="start-task"]')).click();
  await shownPanel(B.name);
  await send(B.says);
  await waitFor("B's first request", () => model.requestsFor(B.says).length === 1);

  await startTask(C.name);
  await (await $('[data-testid="start-task"]')).click();
  await shownPanel(C.name);
  // This one asks before it changes anything.
  const ask = await $('[data-testid="mode-picker"] [data-mode="ask"]');
  await waitFor("C's session in ask mode", async () => {
    if ((await ask.getAttribute("aria-checked")) === "true") return true;
    await ask.click(); // dropped until the session has started
    await new Promise((r) => setTimeout(r, 300));
    return false;
  });
  await send(C.says);
  const approve = await $('[data-testid="approve"]');
  await approve.waitForDisplayed({ timeout: 30000 });

  // Three at once: A and B run (their answers are still coming), C waits for the person.
  await waitRowState(A.name, "running");
  await waitRowState(B.name, "running");
  await waitRowState(C.name, "waiting");
  assert.ok(model.requestsFor(A.says).length === 1 && model.requestsFor(B.says).length === 1);
  const places = worktrees();
  for (const t of [A, B, C]) {
    const path = places[`foreman/${t.name}`];
    assert.ok(path, `a worktree on foreman/${t.name}: ${JSON.stringify(places)}`);
    assert.ok(path.startsWith(join(home, "data")), `${t.name}'s worktree is in the app's data, not the repository: ${path}`);
    t.path = path;
  }
  // Each session was told to work in its own worktree.
  assert.ok(JSON.stringify(model.requestsFor(C.says)[0]).includes(C.path), "C's model is told its worktree");
  assertCheckoutAt(START, FILES, "while three tasks work");
  assert.ok(!existsSync(join(C.path, "notes.txt")), "nothing written before the approval");
  await screenshot(app.browser, "39-02-one-waits-two-run");
});

step("3. the inbox shows the approval; the other two finish meanwhile, in their worktrees", async () => {
  await openTask(A.name);
  const count = await $('[data-testid="inbox-count"]');
  // Only the approval needs the person now: the other two are still at work.
  await waitFor("the inbox to count the approval", async () => (await count.getText()) === "1");
  await (await $('[data-testid="inbox-button"]')).click();
  const panel = await $('[data-testid="inbox-panel"]');
  await panel.waitForDisplayed({ timeout: 10000 });
  const approval = await waitFor("C's approval in the inbox", async () => {
    for (const item of await app.browser.$$('[data-testid="inbox-item"]')) {
      if ((await item.getAttribute("data-kind")) === "approval" && (await textOf(item)).includes(C.name)) return item;
    }
    return null;
  });
  assert.match(await textOf(approval), /1 call waits for your approval/);
  await screenshot(app.browser, "39-03-inbox-approval");

  // A and B go on while C waits: they read and write shared.txt, each in its own worktree.
  goA.open();
  goB.open();
  await waitRowState(A.name, "ready");
  await waitRowState(B.name, "ready");
  assert.equal(readFileSync(join(A.path, "shared.txt"), "utf8"), WARM);
  assert.equal(readFileSync(join(B.path, "shared.txt"), "utf8"), SHORT);
  assertCheckoutAt(START, FILES, "after two tasks wrote");
  assert.equal((await sidebarRow(C.name)).state, "waiting", "C still waits");

  // The inbox item opens C, where its call is approved.
  await waitFor("the inbox item again", async () => {
    for (const item of await app.browser.$$('[data-testid="inbox-item"]')) {
      if ((await item.getAttribute("data-kind")) === "approval") {
        await item.click();
        return true;
      }
    }
    return false;
  });
  await shownPanel(C.name);
  await (await $('[data-testid="approve"]')).click();
  await waitRowState(C.name, "ready");
  assert.equal(readFileSync(join(C.path, "notes.txt"), "utf8"), NOTES);
  assert.ok(!existsSync(join(repo, "notes.txt")), "the notes are not in the checkout");
  assertCheckoutAt(START, FILES, "after three tasks wrote");
  await waitFor("the answer", async () => (await conversation()).includes("The release notes are written."));
  await screenshot(app.browser, "39-04-approved-in-its-worktree");
});

step("4. the two tasks that change the same lines of shared.txt are both warned", async () => {
  for (const [me, other] of [
    [A, B],
    [B, A],
  ]) {
    const row = await waitFor(`${me.name}'s row warning`, async () => {
      const r = await sidebarRow(me.name);
      return r?.overlaps.length ? r : null;
    });
    assert.deepEqual(row.overlaps, [`⚠ also changed by ${other.name}: shared.txt (likely conflict)`]);
    const panel = await openTask(me.name);
    const warning = await panel.$('[data-testid="task-overlap"]');
    await warning.waitForDisplayed({ timeout: 10000 });
    assert.equal(await warning.getText(), `⚠ Also changed by ${other.name}: shared.txt (likely conflict)`);
  }
  assert.deepEqual((await sidebarRow(C.name)).overlaps, [], "the notes overlap with nothing");
  await screenshot(app.browser, "39-05-overlap-warning");
});

let afterA;

step("5. the first merges: its check passes and it lands on main, in the checkout", async () => {
  await openTask(A.name);
  const progress = await merge(A.name, "Make the greeting warmer", { step: "merged", shot: "06", title: `${A.says}\n\nChanged by the Foreman task ${A.name}:\n- shared.txt` });
  // Once, where it landed and what became of the checkout; the commit is the one on main.
  const said = await progress.getText();
  const landed = /Landed on main as ([0-9a-f]{7}); your checkout was brought up to date\./.exec(said);
  assert.ok(landed, said);
  assert.equal(said.match(/ as [0-9a-f]{7}/g).length, 1, `the commit is named once: ${said}`);
  assert.match(await (await progress.$('[data-testid="merge-output"]')).getText(), /check passed/);
  afterA = git("rev-parse", "main").trim();
  assert.ok(afterA.startsWith(landed[1]), `${landed[1]} is main's ${afterA}`);
  assert.equal(git("log", "-1", "--format=%s", "main").trim(), "Make the greeting warmer");
  assert.equal(git("rev-parse", `${afterA}~1`).trim(), START, "one commit on top of where main was");
  assertCheckoutAt(afterA, { ...FILES, "shared.txt": WARM }, "after the first merge");
  await waitRowState(A.name, "merged");
  await screenshot(app.browser, "39-07-merged");
});

step("6. the second conflicts with it: nothing lands, and the agent can be asked to fix it", async () => {
  await openTask(B.name);
  const progress = await merge(B.name, "Shorten the greeting and the goodbye", { step: "conflict", shot: "08", title: `${B.says}\n\nChanged by the Foreman task ${B.name}:\n- shared.txt` });
  const conflicts = await progress.$('[data-testid="merge-conflicts"]');
  assert.equal(await conflicts.getText(), "shared.txt");
  assert.match(await progress.getText(), /conflicts with main in 1 file\. Nothing landed\./);
  await (await progress.$('[data-testid="ask-fix"]')).waitForDisplayed({ timeout: 10000 });
  // Fixing comes first: Merge… is no longer the main action.
  assert.doesNotMatch(await (await $('[data-testid="merge-task"]')).getAttribute("class"), /primary/);
  assertCheckoutAt(afterA, { ...FILES, "shared.txt": WARM }, "after the conflict");
  await waitRowState(B.name, "failed");
  await screenshot(app.browser, "39-09-conflict");
});

step("7. the third's check fails: the merge is refused and main is unchanged", async () => {
  await openTask(C.name);
  const progress = await merge(C.name, "Add the release notes", { step: "check_failed", shot: "10", title: `${C.says}\n\nChanged by the Foreman task ${C.name}:\n- notes.txt` });
  const output = await progress.$('[data-testid="merge-output"]');
  const text = await output.getText();
  assert.match(text, /notes\.txt:3:TODO: say what changed/);
  assert.match(text, /check failed: finish the TODO above first/);
  assert.match(await progress.getText(), /the check failed\. Nothing landed\./i);
  assertCheckoutAt(afterA, { ...FILES, "shared.txt": WARM }, "after the failed check");
  assert.ok(!existsSync(join(repo, "notes.txt")));
  // The inbox lists both stopped merges.
  await (await $('[data-testid="inbox-button"]')).click();
  await waitFor("two merges in the inbox", async () => {
    const kinds = [];
    for (const item of await app.browser.$$('[data-testid="inbox-item"]')) kinds.push(await item.getAttribute("data-kind"));
    return kinds.filter((k) => k === "merge").length === 2;
  });
  await screenshot(app.browser, "39-11-check-failed-inbox");
  await app.browser.keys(["Escape"]);
});

step("8. after a restart every task is back, each in its own worktree, with its conversation", async () => {
  await app.close();
  app = await launch({ args: [repo], home });
  await (await $('[data-testid="workspace-name"]')).waitForDisplayed({ timeout: 30000 });
  await waitFor("the three tasks in the sidebar", async () => (await sidebarRow(A.name)) && (await sidebarRow(B.name)) && (await sidebarRow(C.name)));
  // (The task shown before the restart reopens with the window; while its session opens it may
  // read as running for a moment.)
  await waitRowState(A.name, "merged");
  await waitRowState(B.name, "failed");
  await waitRowState(C.name, "failed");
  const expected = {
    [A.name]: { said: A.says, answer: "The greeting is warmer now.", step: "merged" },
    [B.name]: { said: B.says, answer: "The greeting and the goodbye are shorter now.", step: "conflict" },
    [C.name]: { said: C.says, answer: "The release notes are written.", step: "check_failed" },
  };
  for (const t of [C, A, B]) {
    const panel = await openTask(t.name);
    // Its session started again: the task reads as what it is, not as running.
    await waitFor(`${t.name}'s state in its panel`, async () =>
      (await (await panel.$('[data-testid="task-state"]')).getAttribute("data-state")) === (t === A ? "merged" : "failed"));
    await waitFor(`${t.name}'s conversation`, async () => {
      const text = await conversation();
      return text.includes(expected[t.name].said) && text.includes(expected[t.name].answer);
    });
    await (await panel.$("button=Details")).click();
    const details = await panel.$('[data-testid="task-details"]');
    await details.waitForDisplayed({ timeout: 10000 });
    assert.ok((await textOf(details)).includes(t.path), `${t.name} works in its worktree`);
    assert.equal(await (await panel.$('[data-testid="merge-progress"]')).getAttribute("data-step"), expected[t.name].step);
  }
  await screenshot(app.browser, "39-12-after-restart");
});

step("9. after the restart, the agent fixes the conflict in its worktree, and it merges", async () => {
  const who = "-c user.name='Task Agent' -c user.email=agent@example.invalid";
  const fix = [
    `git ${who} rebase main || echo 'conflicts: resolving them'`,
    `printf '${FIXED.replaceAll("\n", "\\n")}' > shared.txt`,
    `git add shared.txt && GIT_EDITOR=true git ${who} rebase --continue && git log --oneline -3`,
  ].join("; ");
  model.route(
    B.says,
    { text: "I'll bring my branch onto main and keep both changes. ", tool: { name: "bash", input: { command: fix } } },
    { text: "Rebased onto main; the greeting is short and warm, the goodbye short." },
  );
  const panel = await shownPanel(B.name);
  const asked = model.requestsFor(B.says).length;
  await (await panel.$('[data-testid="ask-fix"]')).click();
  await waitFor("the agent's answer", async () => (await conversation()).includes("the greeting is short and warm"), 60000);
  await waitRowState(B.name, "ready");
  // The conflict is history now: one line, nothing to fix from it, Merge… the next step.
  await waitFor("the stopped merge said as past", async () => (await (await panel.$('[data-testid="merge-progress"]')).getAttribute("data-past")) === "true");
  assert.ok(!(await panel.$('[data-testid="ask-fix"]').isExisting()));
  assert.match(await (await panel.$('[data-testid="merge-task"]')).getAttribute("class"), /primary/);
  const request = JSON.stringify(model.requestsFor(B.says)[asked]);
  assert.ok(request.includes("stopped on conflicts"), "the agent was told of the conflict");
  assert.ok(request.includes("The greeting and the goodbye are shorter now."), "with its history from before the restart");
  // The command ran in B's worktree: its branch is on main now, the checkout is as it was.
  assert.equal(readFileSync(join(B.path, "shared.txt"), "utf8"), FIXED);
  assert.equal(execFileSync("git", ["merge-base", "HEAD", "main"], { cwd: B.path, encoding: "utf8" }).trim(), afterA);
  assertCheckoutAt(afterA, { ...FILES, "shared.txt": WARM }, "after the fix");
  await screenshot(app.browser, "39-13-fixed-by-agent");

  // Its change was committed by the merge that conflicted, and rebased by its agent since.
  const progress = await merge(B.name, null, { step: "merged", shot: "14", committed: true });
  assert.match(await (await progress.$('[data-testid="merge-output"]')).getText(), /check passed/);
  const landed = git("rev-parse", "main").trim();
  assert.equal(git("rev-parse", `${landed}~1`).trim(), afterA, "on top of the first merge");
  assertCheckoutAt(landed, { ...FILES, "shared.txt": FIXED }, "after the second merge");
  assert.ok(!existsSync(join(repo, "notes.txt")), "the refused task's notes never landed");
  await waitRowState(B.name, "merged");
  await screenshot(app.browser, "39-15-second-merged");
});
