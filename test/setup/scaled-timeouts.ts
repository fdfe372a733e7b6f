import { scaled } from '../helpers/time-scale';

/**
 * Scales the timeouts a test file names itself (`beforeAll(fn, 120_000)`, `it(name, fn, 30_000)`,
 * `jest.setTimeout(scaled(n))` scales itself: `jest` is an object of each module) by TEST_TIME_SCALE, as jest.config.js
 * scales the default: one setting for every deadline.
 */
type Hook = (fn: jest.ProvidesHookCallback, timeout?: number) => void;

for (const name of ['beforeAll', 'afterAll', 'beforeEach', 'afterEach'] as const) {
  const original = globalThis[name] as Hook;
  (globalThis as Record<string, unknown>)[name] = (fn: jest.ProvidesHookCallback, timeout?: number) =>
    original(fn, timeout === undefined ? undefined : scaled(timeout));
}

for (const name of ['it', 'test'] as const) {
  const original = globalThis[name];
  const wrapped = (title: string, fn?: jest.ProvidesCallback, timeout?: number) =>
    original(title, fn, timeout === undefined ? undefined : scaled(timeout));
  // it.each, it.only, it.skip, it.todo and it.concurrent keep their own behaviour.
  (globalThis as Record<string, unknown>)[name] = Object.assign(wrapped, original);
}
