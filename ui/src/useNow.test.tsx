import { act, render, screen } from "@testing-library/react";
import { clockTimers, TICK_MS, useNow } from "./useNow";
import { formatWhen } from "./format";

function Ago({ at, id }: { at: number; id: string }) {
  const now = useNow();
  return <span data-testid={id}>{formatWhen(at, now)}</span>;
}

afterEach(() => vi.useRealTimers());

test("relative times move on as the shared clock ticks, with one timer for all of them", () => {
  vi.useFakeTimers();
  vi.setSystemTime(new Date("2025-03-01T12:00:00Z"));
  const at = Date.now();
  const { unmount } = render(
    <>
      <Ago at={at} id="a" />
      <Ago at={at - 60_000} id="b" />
    </>,
  );
  expect(screen.getByTestId("a")).toHaveTextContent("just now");
  expect(screen.getByTestId("b")).toHaveTextContent("1 minute ago");
  expect(clockTimers()).toBe(1);
  act(() => vi.advanceTimersByTime(4 * TICK_MS));
  expect(screen.getByTestId("a")).toHaveTextContent("2 minutes ago");
  expect(screen.getByTestId("b")).toHaveTextContent("3 minutes ago");
  unmount();
  expect(clockTimers()).toBe(0);
});
