// Hooks, skills and commands in the real window, with a workspace set up for Claude Code: its
// .claude/settings.json has a PreToolUse hook (a Python script that blocks `rm -rf` with exit 2),
// a PostToolUse hook after writes and a UserPromptSubmit hook that adds context; .claude/skills
// holds two skills (one with a script) and .claude/commands one command. The consent prompt is
// shown before any of the workspace's hooks runs; once allowed, a blocked `rm -rf` card says the
// hook refused it, a write's card shows its PostToolUse hook, the `/` menu lists the command and
// the skills and running the command reaches the model expanded, and Settings lists the hooks
// with the file each comes from.
import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { launch, makeHome, screenshot } from "../lib/app.mjs";
import { waitFor } from "../lib/wait.mjs";
import { startModel } from "../lib/model.mjs";

const home = makeHome("hooks");
const project = realpathSync(mkdtempSync(join(tmpdir(), "foreman-hooks-ws-")));
const KEY = "sk-ant-e2e-hooks-key";
/** Where every hook script notes that it ran: none may run before the consent. */
const RAN = join(project, ".claude", "hooks", "ran.log");

const note = (event) => `open(${JSON.stringify(RAN)}, "a").write(${JSON.stringify(event)} + "\\n")`;
const FILES = {
  "README.md": "# a project set up for Claude Code\n",
  "build/out.txt": "built\n",
  ".claude/settings.json": JSON.stringify(
    {
      hooks: {
        PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: 'python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/block_rm.py' }] }],
        PostToolUse: [{ matcher: "Write|Edit", hooks: [{ type: "command", command: 'python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/after_write.py' }] }],
        UserPromptSubmit: [{ hooks: [{ type: "command", command: 'python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/team_context.py' }] }],
      },
    },
    null,
    2,
  ),
  // As public examples do: Claude Code's tool name and field names.
  ".claude/hooks/block_rm.py": [
    "import json, sys",
    note("PreToolUse"),
    "call = json.load(sys.stdin)",
    'if call.get("tool_name") == "Bash" and "rm -rf" in call.get("tool_input", {}).get("command", ""):',
    '    print("rm -rf is not allowed in this repository", file=sys.stderr)',
    "    sys.exit(2)",
    "",
  ].join("\n"),
  ".claude/hooks/after_write.py": [
    "import json, sys",
    note("PostToolUse"),
    "call = json.load(sys.stdin)",
    'path = call.get("tool_input", {}).get("file_path", "")',
    'print(json.dumps({"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "checked " + path.split("/")[-1]}}))',
    "",
  ].join("\n"),
  ".claude/hooks/team_context.py": [
    "import json, sys",
    note("UserPromptSubmit"),
    'print(json.dumps({"hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "additionalContext": "Team rule: keep answers short."}}))',
    "",
  ].join("\n"),
  ".claude/skills/changelog/SKILL.md": "---\nname: changelog\ndescription: Draft the changelog entry for the current change\n---\n\nRead the diff, then write one line per change.\n",
  ".claude/skills/word-count/SKILL.md":
    "---\nname: word-count\ndescription: Count the words of a text file with the bundled script\n---\n\nRun `python3 count.py FILE` from this folder and report the number.\n",
  ".claude/skills/word-count/count.py": "import sys\nprint(len(open(sys.argv[1]).read().split()))\n",
  ".claude/commands/greet.md":
    "---\ndescription: Greet someone in greeting.txt\nargument-hint: [name]\n---\n\nWrite a one-line greeting for $ARGUMENTS into greeting.txt.\n",
};
for (const [path, text] of Object.entries(FILES)) {
  mkdirSync(join(project, path, ".."), { recursive: true });
  writeFileSync(join(project, path), text);
}

let model;
let app;

before(async () => {
  try {
    execFileSync("secret-tool", ["clear", "service", "foreman", "username", "anthropic"], { stdio: "ignore" });
  } catch {}
  model = await startModel();
});

after(async () => {
  await app?.close();
  await model?.close();
  try {
    execFileSync("secret-tool", ["clear", "service", "foreman", "username", "anthropic"], { stdio: "ignore" });
  } catch {}
});

const $ = (selector) => app.browser.$(selector);
const $$ = (selector) => app.browser.$$(selector);

/** `promise`, or nothing after `ms` (for what is done only to help after a failure). */
const bounded = (promise, ms) => Promise.race([promise.catch(() => {}), new Promise((r) => setTimeout(r, ms))]);

/** Like node:test's `test`, with a screenshot of the window when the step fails. */
function step(name, body) {
  test(name, async () => {
    try {
      await body();
    } catch (error) {
      const shot = join(process.env.FOREMAN_SCREENSHOTS ?? ".", `failed-hooks-${name.slice(0, 2).trim()}.png`);
      await bounded(app?.browser.saveScreenshot(shot) ?? Promise.resolve(), 30000);
      throw error;
    }
  });
}

async function send(text) {
  const composer = await $('[data-testid="composer"]');
  await composer.waitForEnabled({ timeout: 20000 });
  await composer.click();
  await composer.addValue(text);
  await (await $('[data-testid="send"]')).click();
}

async function waitIdle() {
  await waitFor("the task to end", async () => !(await (await $('[data-testid="stop"]')).isExisting()), 30000);
}

/**
 * The text of `element` as the DOM holds it: WebKitWebDriver's visible text leaves out what
 * sits in a box that cuts its overflow with an ellipsis, though it is on screen.
 */
const textOf = async (element) => (await element.getProperty("textContent")) ?? "";

/** The text of each element `selector` finds in `root` (the window by default). */
async function textsOf(selector, root = app.browser) {
  const out = [];
  for (const element of await root.$$(selector)) out.push(await textOf(element));
  return out;
}

/** The newest card of `tool`. */
async function lastCard(tool) {
  const cards = await $$(`[data-testid="tool-card"][data-tool="${tool}"]`);
  return cards.length ? cards[cards.length - 1] : null;
}

async function openCard(card) {
  const toggle = await card.$(".tool-toggle");
  if ((await toggle.getAttribute("aria-expanded")) !== "true") await toggle.click();
  await waitFor("the card open", async () => (await toggle.getAttribute("aria-expanded")) === "true");
}

/** What the hook scripts noted, in order. */
const ran = () => (existsSync(RAN) ? readFileSync(RAN, "utf8").trim().split("\n") : []);

/** The text of the user's messages in a request to the model. */
function userText(request) {
  return (request.messages ?? [])
    .filter((m) => m.role === "user")
    .flatMap((m) => (typeof m.content === "string" ? [m.content] : m.content.filter((b) => b.type === "text").map((b) => b.text)))
    .join("\n");
}

step("1. the consent prompt lists the workspace's hooks before any of them runs", async () => {
  // HOME is the test's own: no ~/.claude/ of the machine's user comes in.
  app = await launch({ args: [project], home, env: { HOME: home } });
  await (await $('[data-testid="workspace-name"]')).waitForDisplayed({ timeout: 30000 });
  await (await $('[data-testid="open-settings"]')).click();
  await (await $('[data-testid="base-url"]')).setValue(model.url);
  await (await $('[data-testid="model"]')).setValue("claude-e2e");
  await (await $('[data-testid="save-settings"]')).click();
  await (await $('[data-testid="api-key"]')).setValue(KEY);
  await (await $('[data-testid="save-key"]')).click();
  await (await $('[data-testid="key-stored"]')).waitForDisplayed({ timeout: 10000 });
  await (await $('[data-testid="close-settings"]')).click();

  model.script({ text: "Hello! What shall we work on?" });
  await send("Hello");
  const prompt = await $('[data-testid="hooks-consent"]');
  await prompt.waitForDisplayed({ timeout: 20000 });
  assert.match(await textOf(prompt), /This workspace has 3 hooks that run commands on your computer/);
  const rows = await textsOf('[data-testid="hooks-consent-hook"]');
  assert.equal(rows.length, 3, rows.join("\n"));
  assert.ok(rows.some((r) => /PreToolUse\s*Bash\s*python3 .*block_rm\.py"?\s*\.claude\/settings\.json/.test(r)), rows.join("\n"));
  await waitIdle();
  // The message went through without the workspace's hooks: none ran.
  assert.deepEqual(ran(), [], "no hook of the workspace ran before the consent");
  assert.equal((await $$('[data-testid="hook-line"]')).length, 0, "no hook line before the consent");
  // The conversation stays in view above it.
  assert.ok(await (await $('[data-testid="assistant-message"]')).isDisplayed({ withinViewport: true }), "the answer is in view");
  await screenshot(app.browser, "hooks-01-consent-prompt");
  await (await $('[data-testid="allow-hooks"]')).click();
  await waitFor("the prompt to go", async () => !(await prompt.isExisting()));
});

step("2. a PreToolUse hook blocks rm -rf, and the card says so", async () => {
  model.script({ tool: { name: "bash", input: { command: "rm -rf build" } } }, { text: "The repository's hook refused that." });
  await send("Clean out the build folder");
  const card = await waitFor("the bash card", () => lastCard("bash"));
  await waitFor("the card to be refused", async () => (await card.getAttribute("data-state")) === "rejected", 30000);
  await waitIdle();
  assert.ok(existsSync(join(project, "build", "out.txt")), "nothing was removed");
  assert.equal(await (await card.$('[data-testid="tool-state"]')).getText(), "blocked by a hook");
  assert.match(await textOf(card), /Blocked by a hook: rm -rf is not allowed in this repository/);
  await openCard(card);
  const line = await card.$('[data-testid="hook-line"]');
  assert.match(await textOf(line), /PreToolUse\s*python3 …\/block_rm\.py\s*blocked\s*·\s*\d+ ms/);
  // The model was told why.
  assert.match(JSON.stringify(model.requests.at(-1).messages), /rm -rf is not allowed in this repository/);
  // The message's own hook is a line in the conversation.
  const lines = await textsOf('[data-testid="hook-line"][data-event="UserPromptSubmit"]');
  assert.ok(lines.some((l) => /^Hook\s*UserPromptSubmit\s*python3 …\/team_context\.py\s*added context/.test(l)), lines.join("\n"));
  assert.ok(ran().includes("PreToolUse") && ran().includes("UserPromptSubmit"), ran().join(","));
  await screenshot(app.browser, "hooks-02-blocked-rm");
});

step("3. a write's card shows its PostToolUse hook", async () => {
  model.script({ tool: { name: "write", input: { path: "notes.txt", content: "Short notes.\n" } } }, { text: "Written." });
  await send("Write notes.txt");
  await (await $('[data-testid="approve"]')).waitForDisplayed({ timeout: 20000 });
  await (await $('[data-testid="approve"]')).click();
  await waitIdle();
  const card = await lastCard("write");
  await openCard(card);
  const line = await waitFor("the PostToolUse line", async () => {
    const found = await card.$('[data-testid="hook-line"][data-event="PostToolUse"]');
    return (await found.isExisting()) ? found : null;
  });
  assert.match(await textOf(line), /PostToolUse\s*python3 …\/after_write\.py\s*added context\s*·\s*\d+ ms/);
  assert.match(JSON.stringify(model.requests.at(-1).messages), /checked notes\.txt/);
  await screenshot(app.browser, "hooks-03-write-post-hook");
});

step("4. the / menu lists the command and the skills; the command reaches the model expanded", async () => {
  const composer = await $('[data-testid="composer"]');
  await composer.click();
  await composer.addValue("/");
  const menu = await $('[aria-label="Commands and skills"]');
  await menu.waitForDisplayed({ timeout: 10000 });
  const names = () => textsOf(".slash-name", menu);
  await waitFor("the command and skills in the menu", async () => {
    const shown = await names();
    return ["/greet", "/changelog", "/word-count", "/compact"].every((n) => shown.includes(n));
  });
  const shown = await names();
  assert.ok(shown.indexOf("/compact") < shown.indexOf("/greet") && shown.indexOf("/greet") < shown.indexOf("/changelog"), shown.join(" "));
  await screenshot(app.browser, "hooks-04-slash-menu");
  await composer.addValue("gre");
  await waitFor("the menu filtered", async () => (await names()).join(" ") === "/greet");
  await app.browser.keys(["Enter"]);
  await waitFor("the command inserted", async () => (await composer.getValue()) === "/greet ");
  model.script({ text: "I will greet Ada." });
  await composer.addValue("Ada");
  await (await $('[data-testid="send"]')).click();
  await waitIdle();
  assert.match(userText(model.requests.at(-1)), /Write a one-line greeting for Ada into greeting\.txt/);
});

step("5. Settings lists the hooks with their source, and the skills and command found", async () => {
  await (await $('[data-testid="open-settings"]')).click();
  await (await $('[data-testid="settings-nav-hooks"]')).click();
  const rows = await waitFor("the hooks listed", async () => {
    const found = await $$('[data-testid="hook-row"]');
    return found.length === 3 ? found : null;
  });
  const texts = [];
  for (const row of rows) texts.push(await textOf(row));
  for (const text of texts) {
    assert.match(text, /\.claude\/settings\.json/, text);
    assert.match(text, /runs \(you allowed it\)/, text);
  }
  assert.ok(texts.some((t) => /PreToolUse\s*Bash/.test(t)), texts.join("\n"));
  const found = await textsOf('[data-testid="slash-row"]');
  assert.ok(found.some((t) => /\/greet.*command.*\.claude\/commands\/greet\.md/s.test(t)), found.join("\n"));
  assert.ok(found.some((t) => /\/word-count.*skill.*\.claude\/skills\/word-count\/SKILL\.md/s.test(t)), found.join("\n"));
  assert.equal((await $$('[data-testid="settings-allow-hooks"]')).length, 0, "nothing waits for consent");
  await screenshot(app.browser, "hooks-05-settings");
  await (await $('[data-testid="close-settings"]')).click();
});
