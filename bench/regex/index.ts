/**
 * How long one user-supplied pattern can hold the event loop (issue 16 item 2): each exponential pattern of
 * test/unit/safe-regex runs on the platform's linear-time engine (src/safe-regex, re2js) against inputs of 30 and
 * 100,000 characters that almost match, and the longest single call is printed. For reference, node's own
 * backtracking RegExp on the same patterns with 12 to 18 characters (each further character doubles the time or worse: `^((a?)+)+b$` took 116 s on 18 here).
 *
 * Run: npm run bench:regex
 */
import { performance } from 'node:perf_hooks';
import { compileSafePattern } from '../../src/safe-regex';

/** Each pattern with the input length node's RegExp gets for the reference column (kept short enough to finish). */
const EVIL: [string, number][] = [
  ['^(a+)+$', 18],
  ['^(a|a)*$', 18],
  ['^(a|aa)+$', 18],
  ['^([a-z]|[a-z0-9])+$', 18],
  ['^((a?)+)+b$', 12],
  ['^(\\w+\\s?)*$', 18],
  ['^(x+x+)+y$', 18],
];

function almost(length: number, pattern: string): string {
  const letter = pattern.includes('x') ? 'x' : 'a';
  return `${letter.repeat(length)}!`;
}

function longestCall(run: () => void, rounds: number): number {
  let worst = 0;
  for (let i = 0; i < rounds; i += 1) {
    const started = performance.now();
    run();
    worst = Math.max(worst, performance.now() - started);
  }
  return worst;
}

function main(): void {
  const rows: string[] = [];
  for (const [source, nativeLength] of EVIL) {
    const safe = compileSafePattern(source);
    const short = almost(30, source);
    const long = almost(100_000, source);
    const safeShort = longestCall(() => safe.test(short), 50);
    const safeLong = longestCall(() => safe.test(long), 5);
    const native = new RegExp(source);
    const nativeInput = almost(nativeLength, source);
    const nativeMs = longestCall(() => native.test(nativeInput), 1);
    rows.push(
      `${source.padEnd(22)} safe 30 chars ${safeShort.toFixed(3).padStart(8)} ms | safe 100,000 chars ${safeLong
        .toFixed(2)
        .padStart(8)} ms | node RegExp ${nativeLength} chars ${nativeMs.toFixed(1).padStart(9)} ms`,
    );
  }
  process.stdout.write(`${rows.join('\n')}\n`);
}

main();
