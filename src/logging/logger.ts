import type { LogLevel } from '../config';

export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  child(fields: LogFields): Logger;
}

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

/** One log record: what every format renders. */
export interface LogRecord extends LogFields {
  time: string;
  level: Exclude<LogLevel, 'silent'>;
  msg: string;
}

/**
 * Structured log lines; bound fields (request id, workflow id) ride along on every line. Each line is one JSON
 * object, except on a terminal, where people read it: there (`process.stdout.isTTY`, the default writer only) lines
 * are `time LEVEL message key=value…` with a stack trace, if any, indented below.
 */
export function createLogger(
  level: LogLevel,
  bound: LogFields = {},
  write: (line: string) => void = defaultWrite,
): Logger {
  return new BoundLogger(ORDER[level], bound, write, write === defaultWrite && process.stdout.isTTY === true);
}

/**
 * One class rather than closures per logger: every request binds its own child (api/middleware/request-context.ts), so
 * a child costs one small object (issue 34 item 5), and a line below the level costs one comparison.
 */
class BoundLogger implements Logger {
  constructor(
    private readonly threshold: number,
    private readonly bound: LogFields,
    private readonly write: (line: string) => void,
    private readonly human: boolean,
  ) {}

  debug(msg: string, fields?: LogFields): void {
    if (ORDER.debug >= this.threshold) this.emit('debug', msg, fields);
  }
  info(msg: string, fields?: LogFields): void {
    if (ORDER.info >= this.threshold) this.emit('info', msg, fields);
  }
  warn(msg: string, fields?: LogFields): void {
    if (ORDER.warn >= this.threshold) this.emit('warn', msg, fields);
  }
  error(msg: string, fields?: LogFields): void {
    if (ORDER.error >= this.threshold) this.emit('error', msg, fields);
  }
  child(fields: LogFields): Logger {
    return new BoundLogger(this.threshold, { ...this.bound, ...fields }, this.write, this.human);
  }

  private emit(lvl: Exclude<LogLevel, 'silent'>, msg: string, fields?: LogFields): void {
    const record: LogRecord = { time: new Date().toISOString(), level: lvl, msg, ...this.bound, ...fields };
    this.write(this.human ? humanLine(record) : JSON.stringify(record));
  }
}

function defaultWrite(line: string): void {
  process.stdout.write(line + '\n');
}

const plain = (value: unknown): string =>
  typeof value === 'string' && /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value);

/** `16:03:46.033 WARN  message key=value …`, then the stack (if any) indented on the lines below. */
export function humanLine(record: LogRecord): string {
  const { time, level, msg, stack, ...fields } = record;
  const pairs = Object.entries(fields)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${key}=${plain(value)}`);
  const head = [time.slice(11, 23), level.toUpperCase().padEnd(5), msg, ...pairs].join(' ');
  return typeof stack === 'string' ? `${head}\n${stack.replace(/^/gm, '    ')}` : head;
}

/** Error details for logs: message and stack stay in logs, never in responses. */
export function errorFields(err: unknown): LogFields {
  if (err instanceof Error) return { err: err.message, errName: err.name, stack: err.stack };
  return { err: String(err) };
}
