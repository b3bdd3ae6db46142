import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { Backend } from "../../backend";
import { DiagnosticsPanel } from "./DiagnosticsPanel";

test("Copy diagnostics copies through the backend and shows what was copied", async () => {
  const copyDiagnostics = vi.fn(async () => "Foreman 0.1.0\nProvider: Anthropic\n");
  render(<DiagnosticsPanel backend={{ copyDiagnostics } as unknown as Backend} />);
  expect(screen.queryByTestId("diagnostics-text")).toBeNull();
  await userEvent.click(screen.getByTestId("copy-diagnostics"));
  expect(copyDiagnostics).toHaveBeenCalledTimes(1);
  expect(await screen.findByTestId("diagnostics-copied")).toHaveTextContent("Copied to the clipboard.");
  expect(screen.getByTestId("diagnostics-text")).toHaveTextContent("Provider: Anthropic");
});

test("a clipboard that cannot be reached is said so, and nothing claims to be copied", async () => {
  const copyDiagnostics = async () => {
    throw { message: "Cannot reach the clipboard: gone" };
  };
  render(<DiagnosticsPanel backend={{ copyDiagnostics } as unknown as Backend} />);
  await userEvent.click(screen.getByTestId("copy-diagnostics"));
  expect(await screen.findByTestId("diagnostics-error")).toHaveTextContent("Cannot reach the clipboard: gone");
  expect(screen.queryByTestId("diagnostics-copied")).toBeNull();
});
