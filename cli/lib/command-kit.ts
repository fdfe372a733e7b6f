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
      writeError(rt.err, rt.output, err.message, err.exitCode);
      process.exitCode = err.exitCode;
    }
  };
}

/**
 * An error on standard error: `error: <message>` for people; with `-o json` one JSON object
 * (`{"error": "...", "exitCode": n}`), so a pipeline parsing the output never meets text. Standard output stays empty.
 */
export function writeError(
  err: { write(text: string): unknown },
  format: string,
  message: string,
  exitCode: number,
): void {
  if (format === 'json') err.write(`${JSON.stringify({ error: message, exitCode })}\n`);
  else err.write(`error: ${message}\n`);
}

/** `-o json` among raw arguments (before the program parsed them: its own usage errors must be JSON too). */
export function wantsJson(argv: readonly string[]): boolean {
  return argv.some(
    (a, i) => a === '-ojson' || a === '--output=json' || ((a === '-o' || a === '--output') && argv[i + 1] === 'json'),
  );
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
    .option(
      '-y, --yes',
      'confirm a destructive or production-affecting action without asking (required off a terminal)',
    )
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
