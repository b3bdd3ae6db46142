import { render, screen } from "@testing-library/react";
import { ErrorBoundary } from "./ErrorBoundary";

function Broken(): never {
  throw new Error("render exploded");
}

test("a rendering bug shows a recovery screen instead of a blank window", () => {
  const spy = vi.spyOn(console, "error").mockImplementation(() => {});
  render(
    <ErrorBoundary>
      <Broken />
    </ErrorBoundary>,
  );
  expect(screen.getByRole("alert")).toHaveTextContent("render exploded");
  expect(screen.getByRole("button", { name: "Reload the window" })).toBeInTheDocument();
  spy.mockRestore();
});
