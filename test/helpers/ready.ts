import type { ChildProcess } from 'node:child_process';
import { eventually } from './net';

/**
 * Waits until `probeUrl` (served by the platform process `child`) answers 2xx. A child that exits first fails the wait
 * at once, with what it printed (a start that failed, a port another process took), not after the whole deadline.
 */
export async function untilAnswering(
  child: ChildProcess & { output: () => string },
  probeUrl: string,
  timeoutMs: number,
): Promise<void> {
  const outcome = await eventually(
    async () => {
      if (child.exitCode !== null || child.signalCode !== null) return 'exited';
      return (await fetch(probeUrl).catch(() => null))?.ok === true && 'answering';
    },
    timeoutMs,
    () => `${probeUrl} (output: ${child.output()})`,
  );
  if (outcome === 'exited') {
    throw new Error(`exited (${child.exitCode ?? child.signalCode}) before ${probeUrl} answered: ${child.output()}`);
  }
}
