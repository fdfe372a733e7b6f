import { scaled } from '../helpers/time-scale';

/**
 * Scales the timeouts a test file names itself (`beforeAll(fn, 120_000)`, `it(name, fn, 30_000)`,
 * `jest.setTimeout(scaled(n))` scales itself: `jest` is an object of each module) by TEST_TIME_SCALE, as jest.config.js
 * scales the default: one setting for every deadline.
 */
type Hook = (fn: jest.ProvidesHookCallback, timeout?: number) => void;

/** A timeout a file names, scaled; none keeps Jest's default (itself scaled by jest.config.js). */
const scaledOrDefault = (timeout?: number) => (timeout === undefined ? undefined : scaled(timeout));

for (const name of ['beforeAll', 'afterAll', 'beforeEach', 'afterEach'] as const) {
  const original = globalThis[name] as Hook;
  (globalThis as Record<string, unknown>)[name] = (fn: jest.ProvidesHookCallback, timeout?: number) =>
    original(fn, scaledOrDefault(timeout));
}

type Each = (...table: unknown[]) => (title: string, fn: (...args: never[]) => unknown, timeout?: number) => void;

for (const name of ['it', 'test'] as const) {
  const original = globalThis[name];
  const wrapped = (title: string, fn?: jest.ProvidesCallback, timeout?: number) =>
    original(title, fn, scaledOrDefault(timeout));
  // `it.each(table)(name, fn, timeout)` too: its timeout was left unscaled, and a crash scene under load ran out of
  // 60 s where the run's scale gives 180 (issue 51). it.only, it.skip, it.todo and it.concurrent keep their own.
  const each: Each =
    (...table) =>
    (title, fn, timeout) =>
      (original.each as unknown as Each)(...table)(title, fn, scaledOrDefault(timeout));
  (globalThis as Record<string, unknown>)[name] = Object.assign(wrapped, original, { each });
}
