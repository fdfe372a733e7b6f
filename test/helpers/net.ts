import { scaled } from './time-scale';
export { freePort } from '../../src/net/free-port';

/** Polls until `probe` returns a value, failing after the deadline: tests never sleep blindly. */
export async function eventually<T>(
  probe: () => Promise<T | null | undefined | false>,
  timeoutMs = 20_000,
  what: string | (() => string) = 'condition',
): Promise<T> {
  const deadline = Date.now() + scaled(timeoutMs);
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value !== null && value !== undefined && value !== false) return value;
    } catch (err) {
      lastError = err;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(
    `timed out waiting for ${typeof what === 'string' ? what : what()}${lastError ? `: ${String(lastError)}` : ''}`,
  );
}
