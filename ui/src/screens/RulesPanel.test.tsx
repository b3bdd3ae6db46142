import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { Backend } from "../backend";
import type { StoredRule } from "../protocol/StoredRule";
import { RulesPanel } from "./RulesPanel";

function backend(initial: StoredRule[]) {
  let rules = initial.slice();
  let next = 100;
  const calls: string[] = [];
  const api = {
    rulesList: async () => rules,
    rulesAdd: async (_ws: string, _s: string | null, action: StoredRule["action"], pattern: string, scope: StoredRule["scope"]) => {
      calls.push(`add ${action} ${pattern} ${scope}`);
      if (!pattern.includes("(") && !pattern.startsWith("mcp__")) throw { message: `\`${pattern}\`: not a rule` };
      rules = [...rules, { id: next++, action, pattern, scope }];
      return rules;
    },
    rulesRemove: async (_ws: string, _s: string | null, id: number) => {
      calls.push(`remove ${id}`);
      rules = rules.filter((r) => r.id !== id);
      return rules;
    },
  } as unknown as Backend;
  return { api, calls };
}

test("rules are listed by scope and added, edited and deleted", async () => {
  const { api, calls } = backend([
    { id: 1, action: "allow", pattern: "bash(cargo test *)", scope: "workspace" },
    { id: 2, action: "deny", pattern: "bash(rm *)", scope: "user" },
  ]);
  render(<RulesPanel backend={api} workspace="/ws" sessionId="s1" />);
  const rows = await screen.findAllByTestId("rule-row");
  expect(rows.map((r) => r.textContent)).toEqual([
    expect.stringContaining("allow bash(cargo test *)"),
    expect.stringContaining("deny bash(rm *)"),
  ]);
  expect(screen.getByRole("heading", { name: "This session" })).toBeInTheDocument();

  await userEvent.selectOptions(screen.getByLabelText("What the rule does"), "ask");
  await userEvent.type(screen.getByTestId("rule-pattern"), "bash(git push*)");
  await userEvent.selectOptions(screen.getByLabelText("Where it applies"), "session");
  await userEvent.click(screen.getByTestId("save-rule"));
  expect(calls).toContain("add ask bash(git push*) session");
  expect(await screen.findByText("bash(git push*)")).toBeInTheDocument();

  // Editing: the new rule is added, then the old removed.
  const first = screen.getAllByTestId("rule-row").find((r) => r.textContent?.includes("cargo test"))!;
  await userEvent.click(within(first).getByRole("button", { name: "Edit" }));
  const input = screen.getByTestId("rule-pattern");
  await userEvent.clear(input);
  await userEvent.type(input, "bash(cargo nextest *)");
  await userEvent.click(screen.getByTestId("save-rule"));
  expect(calls.slice(-2)).toEqual(["add allow bash(cargo nextest *) workspace", "remove 1"]);
  expect(await screen.findByText("bash(cargo nextest *)")).toBeInTheDocument();
  expect(screen.getAllByTestId("rule-row").some((r) => r.textContent?.includes("cargo test *)"))).toBe(false);

  await userEvent.click(screen.getByRole("button", { name: "Delete bash(rm *)" }));
  expect(calls.at(-1)).toBe("remove 2");
});

test("a rule with bad syntax is refused with the reason and nothing changes", async () => {
  const { api } = backend([]);
  render(<RulesPanel backend={api} workspace="/ws" sessionId={null} />);
  await userEvent.type(await screen.findByTestId("rule-pattern"), "rm -rf");
  await userEvent.click(screen.getByTestId("save-rule"));
  expect(await screen.findByTestId("rule-error")).toHaveTextContent("not a rule");
  expect(screen.queryByRole("heading", { name: "This session" })).toBeNull();
});

test("the panel says plainly that only the sandbox makes a deny rule on a path hold for commands", async () => {
  const { api } = backend([{ id: 1, action: "deny", pattern: "read(secret.txt)", scope: "workspace" }]);
  render(<RulesPanel backend={api} workspace="/ws" sessionId={null} />);
  await screen.findAllByTestId("rule-row");
  const note = screen.getByTestId("deny-paths-note");
  expect(note).toHaveTextContent("in the sandbox the files it names are hidden from them (read) or read-only");
  expect(note).toHaveTextContent("Only the sandbox makes this complete: outside it, a command that names such a file asks");
});
