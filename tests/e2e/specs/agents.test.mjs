// An external agent in the real window (issue 51): a task of a scripted ACP agent
// (tests/acp/scripted_agent.py, configured in agents.json) in a worktree of its own, beside a task
// of Foreman's own agent. The agent's edit shows as a card that fills in while it is reported, asks
// with its diff in the approval bar and the inbox, lands in its worktree only once approved, and
// the merge queue takes it onto main. The sidebar names the agent.
import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { after, before, test } from "node:test";
import { launch, makeHome, screenshot, sendMessage, setUpProvider } from "../lib/app.mjs";
import { waitFor } from "../lib/wait.mjs";
import { startModel } from "../lib/model.mjs";

const AGENT = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "acp", "scripted_agent.py");
const home = makeHome("agents");
const repo = realpathSync(mkdtempSync(join(tmpdir(), "foreman-agents-repo-")));
const KEY = "sk-ant-e2e-agents-key";
const git = (...args) => execFileSync("git", args, { cwd: repo, encoding: "utf8" });
const IDENTITY = ["-c", "user.name=Foreman E2E", "-c", "user.email=e2e@example.invalid"];

writeFileSync(join(repo, "notes.txt"), "old notes\n");
writeFileSync(join(repo, "other.txt"), "other\n");
git("init", "-q", "-b", "main");
git("add", "-A");
git(...IDENTITY, "commit", "-q", "-m", "Start the project");
mkdirSync(join(home, "config", "dev.foreman.app"), { recursive: true });
writeFileSync(
  join(home, "config", "dev.foreman.app", "agents.json"),
  JSON.stringify({ agents: [{ name: "scripted", command: "python3", args: [AGENT] }] }),
);

let model;
let app;
const $ = (selector) => app.browser.$(selector);
const textOf = (element) => app.browser.execute((e) => e.textContent, element);
const conversation = () => app.browser.execute(() => document.querySelector('[data-testid="conversation"]')?.textContent ?? "");

before(async () => {
  model = await startModel();
});

after(async () => {
  await app?.close();
  await model?.close();
  try {
    execFileSync("secret-tool", ["clear", "service", "foreman", "username", "anthropic"], { stdio: "ignore" });
  } catch {}
});

function step(name, body) {
  test(name, async () => {
    try {
      await body();
    } catch (error) {
      const shot = join(process.env.FOREMAN_SCREENSHOTS ?? ".", `failed-51-${name.slice(0, 2).trim()}.png`);
      await Promise.race([app?.browser.saveScreenshot(shot).catch(() => {}), new Promise((r) => setTimeout(r, 30000))]);
      throw error;
    }
  });
}

const send = (text) => sendMessage(app.browser, text);

/** The worktree of branch `foreman/<name>`. */
function worktreeOf(name) {
  for (const block of git("worktree", "list", "--porcelain").split("\n\n")) {
    if (block.includes(`branch refs/heads/foreman/${name}`)) return block.match(/^worktree (.*)$/m)?.[1];
  }
  return null;
}

/** Starts task `name` from "New task", in a new worktree, by `agent` ("" for Foreman's own). */
async function startTask(name, agent) {
  await (await $('[data-testid="new-session"]')).click();
  const worktree = await $('[data-testid="place-worktree"]');
  await worktree.waitForEnabled({ timeout: 20000 });
  await (await $('[data-testid="task-name"]')).setValue(name);
  const select = await $('[data-testid="task-agent"]');
  await waitFor("the agents listed", async () => (await app.browser.$$('[data-testid="task-agent"] option')).length >= 2);
  await select.selectByAttribute("value", agent);
}

/** The task panel of `name`, once it is the one shown (its composer is its own then). */
function shownPanel(name) {
  return waitFor(`the panel of ${name}`, async () => {
    const panel = await $('[data-testid="task-panel"]');
    return (await panel.isExisting()) && (await panel.getAttribute("aria-label")) === `Task ${name}` ? panel : null;
  });
}

/** The sidebar row of task `name`, as text. */
function rowText(name) {
  return app.browser.execute((branch) => {
    for (const item of document.querySelectorAll('[data-testid="session-item"]')) {
      if (item.querySelector(".task-row-place")?.textContent.startsWith(`${branch} `)) return item.textContent;
    }
    return null;
  }, `foreman/${name}`);
}

step("1. the provider for Foreman's own agent, in ask mode", async () => {
  app = await launch({ args: [repo], home });
  await (await $('[data-testid="workspace-name"]')).waitForDisplayed({ timeout: 30000 });
  await setUpProvider(app.browser, { key: KEY, url: model.url, model: "claude-e2e" });
});

step("2. an external agent's task: its edit is a card, asks with its diff, and lands in its worktree", async () => {
  await startTask("agent-edit", "scripted");
  const note = await $('[data-testid="task-agent-note"]');
  assert.match(await textOf(note), /scripted runs in Foreman's sandbox/);
  await screenshot(app.browser, "51-01-new-task-with-an-agent");
  await (await $('[data-testid="start-task"]')).click();
  await shownPanel("agent-edit");
  await send("edit notes.txt new notes");
  const approve = await $('[data-testid="approve"]');
  await approve.waitForDisplayed({ timeout: 30000 });
  await waitFor("the agent's card", async () => (await conversation()).includes("Edit notes.txt"));
  const bar = await $('[data-testid="approval-bar"]');
  const shown = await textOf(bar);
  assert.ok(shown.includes("new notes") || (await conversation()).includes("new notes"), `the diff is shown: ${shown}`);
  const count = await $('[data-testid="inbox-count"]');
  await waitFor("the inbox to count the agent's approval", async () => (await count.getText()) === "1");
  // The agent's own settings beside the composer, as it listed them.
  const model = await $('[data-testid="agent-settings"] select[data-setting="model"]');
  await model.waitForDisplayed({ timeout: 30000 });
  assert.equal(await model.getValue(), "small");
  const place = worktreeOf("agent-edit");
  assert.ok(place, "the task has a worktree");
  assert.equal(readFileSync(join(place, "notes.txt"), "utf8"), "old notes\n", "nothing written before the approval");
  await screenshot(app.browser, "51-02-agent-asks-with-its-diff");
  await approve.click();
  await waitFor("the agent's write in its worktree", () => readFileSync(join(place, "notes.txt"), "utf8") === "new notes\n");
  await waitFor("the agent to report", async () => (await conversation()).includes("RESULT write"));
  // Its card ended as the agent said, the approval gone.
  await waitFor("the agent's card done", async () => !(await (await $('[data-testid="approve"]')).isExisting()));
  assert.ok(!(await conversation()).includes("cannot go from"), "no state error");
  assert.equal(readFileSync(join(repo, "notes.txt"), "utf8"), "old notes\n", "the checkout stays as it was");
  const row = await waitFor("the row naming the agent", async () => {
    const text = await rowText("agent-edit");
    return text?.includes("scripted") ? text : null;
  });
  assert.ok(row.includes("agent-edit") || row.includes("edit notes"), row);
  await screenshot(app.browser, "51-03-agent-edit-landed-in-its-worktree");
});

step("3. a task of Foreman's own beside it", async () => {
  model.route(
    "Write tidy.txt",
    { text: "I'll write it. ", tool: { name: "write", input: { path: "tidy.txt", content: "tidied\n" } } },
    { text: "Written." },
  );
  await startTask("foreman-tidy", "");
  await (await $('[data-testid="start-task"]')).click();
  await shownPanel("foreman-tidy");
  await send("Write tidy.txt");
  const approve = await $('[data-testid="approve"]');
  await approve.waitForDisplayed({ timeout: 30000 });
  await approve.click();
  const place = worktreeOf("foreman-tidy");
  await waitFor("Foreman's write in its worktree", () => existsSync(join(place, "tidy.txt")));
  const agentRow = await rowText("agent-edit");
  const ownRow = await rowText("foreman-tidy");
  assert.ok(agentRow.includes("scripted") && !ownRow.includes("scripted"), `${agentRow} | ${ownRow}`);
  await screenshot(app.browser, "51-04-two-agents-side-by-side");
});

step("4. the merge queue lands the external agent's work on main", async () => {
  const row = await $(
    `//button[@data-testid="session-item"][.//span[contains(@class, "task-row-place") and starts-with(normalize-space(.), "foreman/agent-edit ")]]`,
  );
  await row.click();
  await shownPanel("agent-edit");
  await (await $('[data-testid="merge-task"]')).click();
  const dialog = await $('[data-testid="merge-dialog"]');
  await dialog.waitForDisplayed({ timeout: 10000 });
  await screenshot(app.browser, "51-05-merge-dialog");
  await (await $('[data-testid="confirm-merge"]')).click();
  const progress = await $('[data-testid="merge-progress"]');
  await waitFor("the merge to land", async () => (await progress.isExisting()) && (await progress.getAttribute("data-step")) === "merged", 60000);
  assert.equal(readFileSync(join(repo, "notes.txt"), "utf8"), "new notes\n");
  await screenshot(app.browser, "51-06-merged");
});
