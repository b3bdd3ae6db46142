import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { MergeProgress } from "../../protocol/MergeProgress";
import { MergeProgressView } from "./MergeProgressView";

const base: MergeProgress = { step: "merged", target: "main", ahead: 0, conflicts: [], commit: "4f6d7701234" };

describe("MergeProgressView", () => {
  it("says once where a landed merge went and what became of the checkout", () => {
    const merge = { ...base, message: "Landed on main as 4f6d770; your checkout was brought up to date." };
    render(<MergeProgressView merge={merge} onCancel={() => {}} />);
    const text = screen.getByTestId("merge-progress").textContent ?? "";
    expect(text).toBe("Landed on main as 4f6d770; your checkout was brought up to date.");
  });

  it("names the commit in its headline when the engine said nothing more", () => {
    render(<MergeProgressView merge={base} onCancel={() => {}} />);
    expect(screen.getByTestId("merge-progress").textContent).toBe("Merged into main as 4f6d770.");
  });
});
