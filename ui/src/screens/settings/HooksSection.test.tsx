import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { Backend } from "../../backend";
import type { HooksView } from "../../protocol/HooksView";
import { testSettings } from "../../test/settingsView";
import { HooksSection } from "./HooksSection";

function backendWith(view: HooksView, consented: string[]): Backend {
  let current = view;
  return {
    hooksView: async () => current,
    consentHooks: async (_workspace: string, hash: string) => {
      consented.push(hash);
      current = {
        ...current,
        consent_hash: null,
        hooks: current.hooks.map((h) => (h.consent === "waiting" ? { ...h, consent: "given" } : h)),
      };
    },
    slashCatalog: async () => ({
      entries: [
        { name: "compact", kind: "built_in", description: "Summarise", argument_hint: null, source: null },
        { name: "review", kind: "command", description: "Review a pull request", argument_hint: "[pr-number]", source: ".claude/commands/review.md" },
        { name: "pdf-report", kind: "skill", description: "Write a PDF report", argument_hint: null, source: ".claude/skills/pdf-report/SKILL.md" },
      ],
      warnings: [".claude/skills/broken/SKILL.md: no front matter (it must start with --- and give a name and description)"],
    }),
  } as unknown as Backend;
}

const waiting: HooksView = {
  hooks: [
    { event: "PreToolUse", matcher: "Bash", command: "python3 .claude/hooks/block_rm.py", timeout_secs: 60, source: ".claude/settings.json", consent: "waiting" },
    { event: "Stop", matcher: null, command: "notify-send done", timeout_secs: 60, source: "~/.claude/settings.json", consent: "not_needed" },
  ],
  warnings: [".claude/settings.local.json: expected `,` or `}` at line 3 column 5; its hooks do not run"],
  consent_hash: "h1",
};

test("lists the hooks with their source and state, the warnings, and the commands and skills found", async () => {
  render(<HooksSection backend={backendWith(waiting, [])} workspace="/w" draft={testSettings} onDraft={() => {}} />);
  const rows = await screen.findAllByTestId("hook-row");
  expect(rows.map((r) => r.textContent)).toEqual([
    "PreToolUseBashpython3 .claude/hooks/block_rm.py.claude/settings.jsonoff until you allow it",
    "Stop—notify-send done~/.claude/settings.jsonruns (your own settings)",
  ]);
  const warnings = await screen.findByTestId("hooks-warnings");
  await waitFor(() => expect(within(warnings).getAllByRole("listitem")).toHaveLength(2));
  expect(warnings).toHaveTextContent("settings.local.json: expected `,` or `}` at line 3 column 5");
  expect(warnings).toHaveTextContent("broken/SKILL.md: no front matter");
  // Built-ins are Foreman's own, not found in the workspace.
  expect(screen.getAllByTestId("slash-row").map((r) => r.textContent)).toEqual([
    "/review [pr-number]commandReview a pull request.claude/commands/review.md",
    "/pdf-reportskillWrite a PDF report.claude/skills/pdf-report/SKILL.md",
  ]);
  expect(screen.getByTestId("hooks-consent-meaning")).toHaveTextContent("in the sandbox");
});

test("Allow these hooks gives the consent for the set shown, then shows them running", async () => {
  const consented: string[] = [];
  render(<HooksSection backend={backendWith(waiting, consented)} workspace="/w" draft={testSettings} onDraft={() => {}} />);
  await userEvent.click(await screen.findByRole("button", { name: "Allow these hooks" }));
  expect(consented).toEqual(["h1"]);
  await waitFor(() => expect(screen.queryByRole("button", { name: "Allow these hooks" })).toBeNull());
  expect(screen.getAllByTestId("hook-row")[0]).toHaveTextContent("runs (you allowed it)");
});

test("no hooks and nothing found says so", async () => {
  const api = backendWith({ hooks: [], warnings: [], consent_hash: null }, []);
  api.slashCatalog = async () => ({ entries: [], warnings: [] });
  render(<HooksSection backend={api} workspace="/w" draft={testSettings} onDraft={() => {}} />);
  expect(await screen.findByTestId("no-hooks")).toHaveTextContent("No hooks for this workspace.");
  expect(await screen.findByTestId("no-skills")).toBeInTheDocument();
  expect(screen.queryByRole("button", { name: "Allow these hooks" })).toBeNull();
});

test("hooks run in the sandbox unless you turn that off, and the text says which", async () => {
  const drafts: boolean[] = [];
  const { rerender } = render(
    <HooksSection backend={backendWith(waiting, [])} workspace="/w" draft={testSettings} onDraft={(d) => drafts.push(d.hooks_outside_sandbox)} />,
  );
  expect(screen.getByTestId("hooks-consent-meaning")).toHaveTextContent("Hooks run in the sandbox");
  await userEvent.click(screen.getByTestId("hooks-outside-sandbox"));
  expect(drafts).toEqual([true]);
  rerender(<HooksSection backend={backendWith(waiting, [])} workspace="/w" draft={{ ...testSettings, hooks_outside_sandbox: true }} onDraft={() => {}} />);
  expect(screen.getByTestId("hooks-consent-meaning")).toHaveTextContent("Hooks run outside the sandbox, with your full rights");
});
