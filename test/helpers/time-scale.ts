/**
 * One setting for every test deadline: TEST_TIME_SCALE multiplies jest's test and hook timeouts, the polling deadlines
 * (`eventually`) and the browser's waits. jest.config.js sets it (3 under CI, where the machine may be busy; else 1)
 * unless the environment names it. A deadline is an upper bound, so a larger scale only makes a failing test slower to
 * report, never a passing one slower.
 */
export function timeScale(): number {
  const raw = process.env.TEST_TIME_SCALE ?? '1';
  const scale = Number(raw);
  if (!Number.isFinite(scale) || scale < 1 || scale > 20) {
    throw new Error(`TEST_TIME_SCALE must be a number from 1 to 20 (got "${raw}")`);
  }
  return scale;
}

/** `ms` scaled by TEST_TIME_SCALE. */
export function scaled(ms: number): number {
  return Math.round(ms * timeScale());
}
