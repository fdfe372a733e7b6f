import { scaled } from './time-scale';
/**
 * Holds a stub activity open while a workflow test acts in the window it leaves (e.g. between an accepted cancel and
 * the final status it records): `hold()` before, the stub awaits `passage()`, `release()` after.
 */
export function heldActivity() {
  let gate: Promise<void> | null = null;
  let open = (): void => undefined;
  return {
    hold() {
      gate = new Promise<void>((resolve) => (open = resolve));
    },
    passage: (): Promise<void> => gate ?? Promise.resolve(),
    release() {
      open();
      gate = null;
    },
  };
}

/** Waits (polling, with a deadline) until a stub activity recorded `entry` in `calls`. */
export async function untilCalled(calls: readonly string[], entry: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + scaled(timeoutMs);
  while (!calls.includes(entry)) {
    if (Date.now() > deadline) throw new Error(`activity call "${entry}" never came`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
