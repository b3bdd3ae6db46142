import { render, screen } from "@testing-library/react";
import { SandboxLine } from "./SandboxLine";

test("a confined command says what it may write and that it has no network", () => {
  render(<SandboxLine note={{ level: "workspace-write", network: false, refused: [], hidden: [], signalled_outside: false }} />);
  expect(screen.getByTestId("sandbox-line")).toHaveTextContent("Sandboxed: writes the workspace only · no network");
  expect(screen.queryByTestId("sandbox-refused")).toBeNull();
});

test("what the sandbox refused is shown as the command printed it", () => {
  const refused = ["bash: /home/u/x: Permission denied"];
  render(<SandboxLine note={{ level: "workspace-write", network: false, refused, hidden: [], signalled_outside: false }} />);
  expect(screen.getByTestId("sandbox-refused")).toHaveTextContent("The sandbox refused something this command tried:");
  expect(screen.getByTestId("sandbox-refused")).toHaveTextContent("bash: /home/u/x: Permission denied");
});

test("a machine that cannot confine says so, and a command let out says it runs with full rights", () => {
  const { rerender } = render(
    <SandboxLine note={{ level: null, network: true, unconfined: "the kernel has no Landlock", refused: [], hidden: [], signalled_outside: false }} />,
  );
  expect(screen.getByTestId("sandbox-line")).toHaveTextContent("Not sandboxed: the kernel has no Landlock");
  rerender(<SandboxLine note={{ level: null, network: true, refused: [], hidden: [], signalled_outside: false }} />);
  expect(screen.getByTestId("sandbox-line")).toHaveTextContent("Runs outside the sandbox, with your full rights");
});
