import { Command, CommanderError } from 'commander';
import { CliError, EXIT } from './lib/api-error';
import { globalOptions, wantsJson, writeError } from './lib/command-kit';
import { registerAuth } from './commands/auth';
import { registerCompletion } from './commands/completion';
import { registerDeliveryMetrics } from './commands/delivery-metrics';
import { registerDeploymentChanges } from './commands/deployment-changes';
import { registerGovernance } from './commands/governance';
import { registerMachineAccess } from './commands/machine-access';
import { registerProjectViews } from './commands/project-views';
import { registerPromotions } from './commands/promotions';
import { registerReleases } from './commands/releases';
import { registerRollouts } from './commands/rollouts';
import { registerValidate, runValidate } from './commands/validate';
import { registerWatch } from './commands/watch';

/** The `delivery` program: every command, the global options, exit codes in the help. */
export function program(json = false): Command {
  const root = new Command('delivery')
    .description('Day-to-day client of the delivery platform: releases, promotions, approvals, status, governance')
    .showHelpAfterError(!json)
    .exitOverride();
  // Set before the subcommands are added: they copy it. A usage error with -o json is one JSON object too.
  if (json) {
    root.configureOutput({
      outputError: (text, write) => writeError({ write }, 'json', text.trim().replace(/^error: /, ''), EXIT.usage),
    });
  }
  globalOptions(root);
  registerAuth(root);
  registerReleases(root);
  registerPromotions(root);
  registerRollouts(root);
  registerProjectViews(root);
  registerDeploymentChanges(root);
  registerDeliveryMetrics(root);
  registerWatch(root);
  registerGovernance(root);
  registerMachineAccess(root);
  registerValidate(root);
  registerCompletion(root);
  root.addHelpText(
    'after',
    `
Exit codes: 0 done (Healthy when waiting), 1 refused by the server or ended badly, 2 usage, 3 --wait timed out,
4 not signed in or session ended, 5 compare --exit-code found differences, 6 nothing done, 7 not confirmed (--yes).
Settings: DELIVERY_SERVER, DELIVERY_TOKEN, DELIVERY_PROJECT, DELIVERY_CONTEXT,
DELIVERY_CONFIG_DIR, NO_COLOR. See docs/cli.md.`,
  );
  return root;
}

export async function main(argv: string[]): Promise<void> {
  // Every argument after `validate` is the validator's own: the program would read its `-o junit` as the global
  // output option (and refuse `junit`).
  if (argv[0] === 'validate') return runValidate(argv.slice(1));
  try {
    await program(wantsJson(argv)).parseAsync(argv, { from: 'user' });
  } catch (err) {
    if (err instanceof CommanderError) {
      process.exitCode = err.exitCode === 0 ? EXIT.ok : EXIT.usage;
      return;
    }
    if (err instanceof CliError) {
      writeError(process.stderr, wantsJson(argv) ? 'json' : 'table', err.message, err.exitCode);
      process.exitCode = err.exitCode;
      return;
    }
    throw err;
  }
}
