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

/** Structured JSON lines on stdout; bound fields (request id, workflow id) ride along on every line. */
export function createLogger(
  level: LogLevel,
  bound: LogFields = {},
  write: (line: string) => void = defaultWrite,
): Logger {
  const emit = (lvl: Exclude<LogLevel, 'silent'>, msg: string, fields?: LogFields): void => {
    if (ORDER[lvl] < ORDER[level]) return;
    write(JSON.stringify({ time: new Date().toISOString(), level: lvl, msg, ...bound, ...fields }));
  };
  return {
    debug: (msg, fields) => emit('debug', msg, fields),
    info: (msg, fields) => emit('info', msg, fields),
    warn: (msg, fields) => emit('warn', msg, fields),
    error: (msg, fields) => emit('error', msg, fields),
    child: (fields) => createLogger(level, { ...bound, ...fields }, write),
  };
}

function defaultWrite(line: string): void {
  process.stdout.write(line + '\n');
}

/** Error details for logs: message and stack stay in logs, never in responses. */
export function errorFields(err: unknown): LogFields {
  if (err instanceof Error) return { err: err.message, errName: err.name, stack: err.stack };
  return { err: String(err) };
}
