import { printValue } from './output';
import type { Runtime } from './runtime';
import { parseDuration, watch, type Observation } from './watch';

export interface WaitFlags {
  wait?: boolean;
  timeout: string;
  interval: string;
}

/**
 * Follows a release or promotion until it ends. For people the steps go to standard output; with `-o json` or
 * `-o yaml` they go to standard error and standard output gets the resource as it ended, one document, so a pipeline
 * can parse it (an error or a timeout: nothing on standard output, the error on standard error).
 */
export async function follow<T>(
  rt: Runtime,
  read: () => Promise<T>,
  observe: (resource: T) => Observation,
  flags: WaitFlags,
): Promise<number> {
  let last: T | undefined;
  const code = await watch(
    async () => {
      last = await read();
      return observe(last);
    },
    {
      timeoutMs: parseDuration(flags.timeout),
      intervalMs: parseDuration(flags.interval),
      out: rt.output === 'table' ? rt.out : rt.err,
    },
  );
  if (rt.output !== 'table') printValue(rt.out, rt.output, last);
  return code;
}
