import os from 'node:os';

/** The machine's load average over 1, 5 and 15 minutes (the README's table reports each figure with its load). */
export const loadAverageNow = (): string =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

const loadAverage = (when: string) =>
  `load average ${when}: ${loadAverageNow()} (1, 5, 15 min; ${os.cpus().length} cores)`;

/**
 * Runs a benchmark's main, printing the load average before and after it: exit 0 when it finishes (servers it
 * started may hold handles), 1 with the stack on stderr when it fails.
 */
export function runBench(main: () => Promise<void>): void {
  process.stdout.write(`${loadAverage('at the start')}\n`);
  main().then(
    () => {
      process.stdout.write(`${loadAverage('at the end')}\n`);
      process.exit(0);
    },
    (err: unknown) => {
      process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exit(1);
    },
  );
}
