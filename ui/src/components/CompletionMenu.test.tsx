import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { CompletionMenu, menuKey } from "./CompletionMenu";

test("arrows wrap around, Enter and Tab pick, Esc closes, other keys are the message box's", () => {
  expect(menuKey("ArrowDown", 0, 3)).toEqual({ move: 1 });
  expect(menuKey("ArrowDown", 2, 3)).toEqual({ move: 0 });
  expect(menuKey("ArrowUp", 0, 3)).toEqual({ move: 2 });
  expect(menuKey("Enter", 1, 3)).toBe("pick");
  expect(menuKey("Tab", 1, 3)).toBe("pick");
  expect(menuKey("Escape", 1, 3)).toBe("close");
  expect(menuKey("a", 1, 3)).toBeNull();
  expect(menuKey("Enter", 0, 0)).toBeNull();
});

test("a heading starts each group, and a click picks without being an option itself", async () => {
  const picked: number[] = [];
  render(
    <CompletionMenu
      label="Commands and skills"
      options={[
        { key: "a", label: "/compact", group: "Built-in" },
        { key: "b", label: "/review", group: "Commands", title: "From .claude/commands/review.md" },
        { key: "c", label: "/lint", group: "Commands" },
      ]}
      active={1}
      onPick={(i) => picked.push(i)}
    />,
  );
  expect(screen.getAllByRole("presentation").map((h) => h.textContent)).toEqual(["Built-in", "Commands"]);
  expect(screen.getAllByRole("option").map((o) => o.textContent)).toEqual(["/compact", "/review", "/lint"]);
  expect(screen.getByRole("option", { selected: true })).toHaveAttribute("title", "From .claude/commands/review.md");
  await userEvent.click(screen.getByText("/lint"));
  expect(picked).toEqual([2]);
});
