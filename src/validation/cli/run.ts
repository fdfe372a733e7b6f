import type { CliArgs } from '../cli-args';
import type { Reporter } from './reporters/reporter';
import type { BufferedOutput } from './output';
import { createValidator } from './setup';
import type { Source } from './sources';
import { addTotals, countOutcome, emptyTotals, summaryLine, type Totals } from './totals';
import { validateSource, type SourceEvent } from './validate-source';
import { WorkerPool } from './worker-pool';
import { toWorkerArgs } from './worker-protocol';

async function reportFile(
  name: string,
  events: AsyncIterable<SourceEvent>,
  reporter: Reporter,
  out: BufferedOutput,
): Promise<Totals> {
  const totals = { ...emptyTotals(), files: 1 };
  let unreadable: string | undefined;
  await out.write(reporter.file(name));
  for await (const event of events) {
    if ('unreadable' in event) unreadable = event.unreadable;
    else {
      countOutcome(totals, event.outcome);
      await out.write(reporter.resource(name, event.outcome));
    }
  }
  if (unreadable !== undefined) totals.unreadable = 1;
  await out.write(reporter.endFile(name, totals, unreadable));
  return totals;
}

/**
 * Validates every input in order and prints it through `reporter` as it goes; returns the run's totals.
 * With --workers N, files are validated on N worker threads and still printed in input order; standard
 * input is always read here.
 */
export async function run(
  args: CliArgs,
  base: string,
  sources: readonly Source[],
  reporter: Reporter,
  out: BufferedOutput,
): Promise<Totals> {
  // Built here even with workers: it checks the --crd files before any worker starts, and reads stdin.
  const validatorFor = await createValidator(args, base);
  const pool =
    args.workers > 1 && sources.length > 1
      ? new WorkerPool(args.workers, { args: toWorkerArgs(args), base }, args.workers * 4)
      : undefined;
  try {
    const streams = sources.map((s, i) => (pool && s.file !== undefined && !s.error ? pool.submit(i, s) : undefined));
    const totals = emptyTotals();
    await out.write(reporter.begin());
    for (const [i, source] of sources.entries()) {
      pool?.reached(i);
      const events = streams[i] ?? validateSource(source, validatorFor(source), args);
      addTotals(totals, await reportFile(source.name, events, reporter, out));
    }
    await out.write(reporter.end(totals));
    await out.flush();
    if (reporter.summaryOnStderr) process.stderr.write(`${summaryLine(totals)}\n`);
    return totals;
  } finally {
    await pool?.close();
  }
}
