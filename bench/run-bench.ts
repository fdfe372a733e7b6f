/**
 * Runs a benchmark's main: exit 0 when it finishes (servers it started may hold handles), 1 with the stack on stderr
 * when it fails.
 */
export function runBench(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (err: unknown) => {
      process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exit(1);
    },
  );
}
