import { fireEvent, render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { testSettings } from "../../test/settingsView";
import { TasksSection } from "./TasksSection";

describe("TasksSection", () => {
  it("changes the limit within 1 to 64 and the merge strategy", () => {
    const onDraft = vi.fn();
    render(<TasksSection draft={testSettings} hidden={false} onDraft={onDraft} />);
    fireEvent.change(screen.getByLabelText("Tasks at once"), { target: { value: "500" } });
    expect(onDraft).toHaveBeenLastCalledWith({ ...testSettings, max_tasks: 64 });
    fireEvent.change(screen.getByLabelText("Tasks at once"), { target: { value: "0" } });
    expect(onDraft).toHaveBeenLastCalledWith({ ...testSettings, max_tasks: 1 });
    fireEvent.click(screen.getByLabelText("Merge the branch into it (a merge commit)"));
    expect(onDraft).toHaveBeenLastCalledWith({ ...testSettings, merge_commit: true });
  });
});
