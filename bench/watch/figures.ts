import { percentile } from '../validate/stats';

/** The figures bench:watch prints, and the lanes its floors run in. */

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `fn` over `items`, at most `width` at a time (as the poller's lanes, WATCH_REGISTRY_CONCURRENCY). */
export async function inLanes<T>(items: readonly T[], width: number, fn: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  const lane = async () => {
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) await fn(next);
  };
  await Promise.all(Array.from({ length: Math.min(width, queue.length) }, lane));
}

/** The q-th percentile of unsorted latencies. */
export const pct = (ms: number[], q: number) =>
  percentile(
    [...ms].sort((a, b) => a - b),
    q,
  );

export const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(xs.length, 1);

/** One line of latencies: p50, p95 and max. */
export function summary(label: string, ms: number[]): string {
  const f = (x: number) => x.toFixed(1).padStart(7);
  return `${label.padEnd(52)} p50 ${f(pct(ms, 50))} ms  p95 ${f(pct(ms, 95))} ms  max ${f(Math.max(...ms))} ms`;
}

/** The mean of a per-poll count with its range. */
export const perPoll = (xs: number[]) => `${mean(xs).toFixed(1)} (min ${Math.min(...xs)}, max ${Math.max(...xs)})`;
