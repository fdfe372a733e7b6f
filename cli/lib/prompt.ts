import readline from 'node:readline';
import { CliError, EXIT } from './api-error';

let lines: AsyncIterableIterator<string> | null = null;

/** Lines of a piped standard input, read one at a time across prompts (password, then MFA code). */
function nextPipedLine(): Promise<string | undefined> {
  lines ??= readline.createInterface({ input: process.stdin, terminal: false })[Symbol.asyncIterator]();
  return lines.next().then((r) => (r.done ? undefined : r.value));
}

/**
 * Asks on the terminal (`hidden` turns echo off for secrets) or reads the next line of piped input. With neither a
 * terminal nor a line left, fails naming the flag that gives the value instead.
 */
export async function ask(question: string, opts: { hidden?: boolean; flag: string }): Promise<string> {
  if (!process.stdin.isTTY) {
    const line = await nextPipedLine();
    if (line === undefined) throw new CliError(`no input for "${question}": pass ${opts.flag}`, EXIT.usage);
    return line.trim();
  }
  const rl = readline.createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  if (opts.hidden) {
    const write = (rl as unknown as { _writeToOutput: (s: string) => void })._writeToOutput.bind(rl);
    (rl as unknown as { _writeToOutput: (s: string) => void })._writeToOutput = (s: string) =>
      write(s.startsWith(question) ? s : '');
  }
  try {
    return (await new Promise<string>((resolve) => rl.question(question, resolve))).trim();
  } finally {
    if (opts.hidden) process.stderr.write('\n');
    rl.close();
  }
}
