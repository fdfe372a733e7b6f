import { CliError, EXIT } from './api-error';
import { paint } from './output';

/** One observation of what is waited for: a line for the user, and whether (and how) it ended. */
export interface Observation {
  /** Lines are printed when this changes (a status and what it waits for). */
  line: string;
  end?: { ok: boolean; message: string };
}

export interface WatchOptions {
  timeoutMs: number;
  intervalMs: number;
  out: NodeJS.WritableStream & { isTTY?: boolean };
  /** The current time (tests pass a fixed clock). */
  now?: () => Date;
}

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/**
 * Polls `observe` until it reports an end or the timeout passes. Each new line is printed once with its time: on a
 * terminal the current step is animated in place (spinner and elapsed seconds) and kept when the next one starts;
 * elsewhere plain timestamped lines, one per change, for CI logs. Ends with the exit code: 0 on a good end, 1 on a bad
 * one, 3 on timeout (the message names what it was still waiting for).
 */
export async function watch(observe: () => Promise<Observation>, options: WatchOptions): Promise<number> {
  const { out } = options;
  const now = options.now ?? (() => new Date());
  const tty = Boolean(out.isTTY);
  const started = Date.now();
  let last = '';
  let stepStarted = Date.now();
  let frame = 0;
  const stamp = () => now().toISOString().slice(11, 19);
  const clearLine = () => tty && out.write('\r\x1b[2K');
  for (;;) {
    const seen = await observe();
    if (seen.line !== last) {
      clearLine();
      if (tty && last) out.write(`${paint(out, 'green', '✓')} ${last}\n`);
      if (!tty) out.write(`${now().toISOString()} ${seen.line}\n`);
      last = seen.line;
      stepStarted = Date.now();
    }
    if (seen.end) {
      clearLine();
      if (tty) out.write(`${paint(out, seen.end.ok ? 'green' : 'red', seen.end.ok ? '✓' : '✗')} ${last}\n`);
      out.write(`${seen.end.message}\n`);
      return seen.end.ok ? EXIT.ok : EXIT.failed;
    }
    if (Date.now() - started >= options.timeoutMs) {
      clearLine();
      throw new CliError(`timed out after ${Math.round(options.timeoutMs / 1000)}s: ${last}`, EXIT.timeout);
    }
    if (tty) {
      const elapsed = Math.round((Date.now() - stepStarted) / 1000);
      out.write(`\r\x1b[2K${paint(out, 'cyan', SPINNER[frame++ % SPINNER.length]!)} ${stamp()} ${last} (${elapsed}s)`);
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(options.intervalMs, remaining(started, options))));
  }
}

function remaining(started: number, options: WatchOptions): number {
  return Math.max(10, options.timeoutMs - (Date.now() - started));
}

/** `30s`, `5m`, `1h` or plain seconds, to milliseconds. */
export function parseDuration(text: string): number {
  const match = /^(\d+)(ms|s|m|h)?$/.exec(text.trim());
  if (!match) throw new CliError(`invalid duration "${text}": use e.g. 90s, 10m or 1h`, EXIT.usage);
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[match[2] ?? 's']!;
  return Number(match[1]) * unit;
}
