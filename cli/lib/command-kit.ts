import { Command, Option } from 'commander';
import { CliError, EXIT } from './api-error';
import { OUTPUT_FORMATS } from './output';
import { createRuntime, type GlobalOptions, type Runtime } from './runtime';

/** A command body: gets the runtime and its own options; answers the exit code (default 0). */
export type Action<O> = (rt: Runtime, options: O, args: string[]) => Promise<number | void>;

/**
 * Wraps an action: builds the runtime from the global options (flags, environment, context), runs it, prints a
 * CliError's message on stderr and sets the exit code. Nothing is thrown past here, so no stack trace reaches users.
 */
export function act<O extends object = Record<string, unknown>>(action: Action<O>) {
  return async function (this: Command, ...params: unknown[]): Promise<void> {
    const command = params[params.length - 1] as Command;
    const options = command.optsWithGlobals() as O;
    const args = command.args;
    const rt = createRuntime(command.optsWithGlobals<GlobalOptions>());
    try {
      process.exitCode = (await action(rt, options, args)) ?? EXIT.ok;
    } catch (err) {
      if (!(err instanceof CliError)) throw err;
      rt.err.write(`error: ${err.message}\n`);
      process.exitCode = err.exitCode;
    }
  };
}

/** `delivery <name>` with a description and examples shown by --help. */
export function subcommand(parent: Command, name: string, description: string, examples: string[] = []): Command {
  const command = parent.command(name).description(description);
  if (examples.length) command.addHelpText('after', `\nExamples:\n${examples.map((e) => `  $ ${e}`).join('\n')}\n`);
  return command;
}

/** The options every command understands. */
export function globalOptions(program: Command): void {
  program
    .option('--server <url>', 'platform URL (env DELIVERY_SERVER; default from the context)')
    .option('--context <name>', 'context to use (env DELIVERY_CONTEXT; default the current one)')
    .option('--token <token>', 'bearer token: project API key or service-account token (env DELIVERY_TOKEN)')
    .option('-p, --project <slug>', 'project (env DELIVERY_PROJECT; default from the context)')
    .addOption(new Option('-o, --output <format>', 'output format').choices([...OUTPUT_FORMATS]).default('table'));
}

/** Options of commands that wait: --wait, --timeout and the poll interval. */
export function waitOptions(command: Command): Command {
  return command
    .option('--wait', 'follow the progress live until it ends (exit 0 on Healthy)')
    .option('--timeout <duration>', 'give up waiting after this long (exit 3), e.g. 90s, 10m', '30m')
    .option('--interval <duration>', 'poll interval while waiting', '1s');
}

/** `name=value` pairs of a repeatable option. */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

export function keyValue(entry: string, what: string): [string, string] {
  const at = entry.indexOf('=');
  if (at <= 0) throw new CliError(`${what} must look like name=value, got "${entry}"`, EXIT.usage);
  return [entry.slice(0, at), entry.slice(at + 1)];
}
