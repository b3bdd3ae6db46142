import { render, screen } from "@testing-library/react";
import type { SandboxNote } from "../protocol/SandboxNote";
import { SandboxLine } from "./SandboxLine";

const confined = (over: Partial<SandboxNote> = {}): SandboxNote => ({
  level: "workspace-write",
  network: false,
  refused: [],
  hidden: [],
  denied: [],
  signalled_outside: false,
  ...over,
});

test("a confined command says what it may write, that it has no network, and what the sandbox does not stop", () => {
  render(<SandboxLine note={confined()} />);
  const line = screen.getByTestId("sandbox-line");
  expect(line).toHaveTextContent("Sandboxed: writes the workspace only · no network · reads files that are not hidden");
  expect(line).toHaveAttribute("title", expect.stringContaining("Not covered: reading files that are not hidden"));
  expect(screen.queryByTestId("sandbox-refused")).toBeNull();
  expect(screen.queryByTestId("sandbox-hidden")).toBeNull();
  expect(screen.queryByTestId("sandbox-signal")).toBeNull();
  expect(screen.queryByTestId("sandbox-denied")).toBeNull();
});

test("the paths a deny rule kept from a command are listed with what the sandbox did with them", () => {
  render(<SandboxLine note={confined({ denied: ["secret.txt", "keys/server.pem"] })} />);
  const denied = screen.getByTestId("sandbox-denied");
  expect(denied).toHaveTextContent("Denied by your rules: secret.txt, keys/server.pem");
  expect(denied).toHaveTextContent("an empty stand-in this command cannot open");
  expect(denied).toHaveTextContent("read-only");
  expect(denied).not.toHaveClass("sandbox-refused");
  expect(screen.queryByTestId("sandbox-hidden")).toBeNull();
});

test("what the sandbox refused is shown as the command printed it", () => {
  render(<SandboxLine note={confined({ refused: ["bash: /home/u/x: Permission denied"] })} />);
  expect(screen.getByTestId("sandbox-refused")).toHaveTextContent("The sandbox refused something this command tried:");
  expect(screen.getByTestId("sandbox-refused")).toHaveTextContent("bash: /home/u/x: Permission denied");
});

test("the hidden paths a command named or needs are listed as hidden by the sandbox, calmly", () => {
  render(<SandboxLine note={confined({ hidden: ["~/.ssh", "~/.config/gh"] })} />);
  const hidden = screen.getByTestId("sandbox-hidden");
  expect(hidden).toHaveTextContent("Hidden from commands: ~/.ssh, ~/.config/gh");
  expect(hidden).toHaveTextContent("In the sandbox each is an empty stand-in this command cannot open.");
  expect(hidden).toHaveClass("sandbox-hidden");
  expect(hidden).not.toHaveClass("sandbox-refused");
  expect(screen.queryByTestId("sandbox-signal")).toBeNull();
});

test("a refused signal to a process outside the sandbox is said in the warning look", () => {
  render(<SandboxLine note={confined({ signalled_outside: true })} />);
  const signal = screen.getByTestId("sandbox-signal");
  expect(signal).toHaveTextContent("Tried to signal a process outside the sandbox (refused)");
  expect(signal).toHaveClass("sandbox-refused");
  expect(screen.queryByTestId("sandbox-hidden")).toBeNull();
});

test("a machine that cannot confine says so, and a command let out says it runs with full rights", () => {
  const { rerender } = render(<SandboxLine note={confined({ level: null, network: true, unconfined: "the kernel has no Landlock" })} />);
  expect(screen.getByTestId("sandbox-line")).toHaveTextContent("Not sandboxed: the kernel has no Landlock");
  rerender(<SandboxLine note={confined({ level: null, network: true })} />);
  const line = screen.getByTestId("sandbox-line");
  expect(line).toHaveTextContent("Runs outside the sandbox, with your full rights");
  expect(line).not.toHaveTextContent("not hidden");
});
