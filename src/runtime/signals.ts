import type { Logger } from '../logging/logger';

/**
 * First SIGINT/SIGTERM starts an orderly stop; a second one, or the stop overrunning its budget, exits at once.
 */
export function onShutdownSignal(log: Logger, budgetMs: number, stop: () => Promise<void>): void {
  let stoppingSince = 0;
  const handler = (signal: NodeJS.Signals) => {
    // A wrapper (npm, tsx) and the terminal may both deliver one Ctrl-C: only a later, deliberate one forces exit.
    if (stoppingSince > 0 && Date.now() - stoppingSince < 1000) return;
    if (stoppingSince > 0) {
      log.warn('second signal, exiting now', { signal });
      process.exit(130);
    }
    stoppingSince = Date.now();
    log.info('shutting down', { signal });
    const timer = setTimeout(() => {
      log.error('shutdown took too long, exiting');
      process.exit(1);
    }, budgetMs);
    timer.unref();
    stop().then(
      () => process.exit(0),
      (err: unknown) => {
        log.error('shutdown failed', { err: String(err) });
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
}
