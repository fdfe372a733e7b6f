import { CliError, EXIT } from './api-error';
import { ask } from './prompt';
import type { Runtime } from './runtime';

/**
 * Destructive or production-affecting actions (rollback, cancel, bulk update, promotion to a production environment,
 * break-glass) ask first. `--yes` confirms ahead; without a terminal and without `--yes` the command refuses before it
 * sends anything, so a pipeline never acts on a prompt nobody read. `show` prints what would change (a preview) just
 * before the question.
 */
export async function confirm(
  rt: Runtime,
  yes: boolean | undefined,
  action: string,
  show?: () => Promise<void>,
): Promise<void> {
  if (yes) return;
  if (!process.stdin.isTTY) {
    throw new CliError(
      `${action} needs a confirmation: pass --yes (standard input is not a terminal, so nothing was asked or done)`,
      EXIT.notConfirmed,
    );
  }
  await show?.();
  const answer = await ask(`${action}? [y/N] `, { flag: '--yes' });
  if (!/^y(es)?$/i.test(answer)) throw new CliError(`not confirmed: nothing done`, EXIT.notConfirmed);
  rt.err.write('confirmed\n');
}
