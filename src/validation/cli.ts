#!/usr/bin/env node
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { repoRoot } from '../paths';
import { CONFIG_FILE, configFileArgs, parseCliArgs, USAGE, UsageError } from './cli-args';
import { BufferedOutput } from './cli/output';
import { reporterFor } from './cli/reporters';
import { runArgoCdRules } from './cli/argocd-rules';
import { run } from './cli/run';
import { InputUnreadable } from './cli/setup';
import { expandInputs, readFailure, type Source } from './cli/sources';

/** Exit statuses, as documented in docs/validate-cli.md. */
export const EXIT = { valid: 0, invalid: 1, usage: 2, unreadable: 3 } as const;

/** `--config FILE` taken out of argv, and the options of that file (or of ./.delivery-validate.json) as flags. */
function withConfig(argv: readonly string[], base: string): { argv: string[]; config: string[] } {
  const rest = [...argv];
  const at = rest.findIndex((a) => a === '--config' || a.startsWith('--config='));
  let given: string | undefined;
  if (at !== -1) {
    const arg = rest[at] ?? '';
    given = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : rest[at + 1];
    rest.splice(at, arg.includes('=') ? 1 : 2);
    if (!given) throw new UsageError('--config needs a value');
  }
  const file = path.resolve(base, given ?? CONFIG_FILE);
  if (given === undefined && !fs.existsSync(file)) return { argv: rest, config: [] };
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new InputUnreadable(`${given ?? CONFIG_FILE}: ${readFailure(error) ?? String(error)}`);
  }
  return { argv: rest, config: configFileArgs(text, given ?? CONFIG_FILE) };
}

function toolVersion(): string {
  const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot(), 'package.json'), 'utf8')) as { version?: string };
  return manifest.version ?? '0.0.0';
}

/**
 * V8 tuned for memory (smaller heap steps and young generation): the run holds one document at a time, and
 * with these its peak stays near 80 MiB instead of 105 to 110 from 10,000 resources (5 MB) up, for a few percent
 * of speed. Inputs from 1 MB on run this way.
 * They act only from process start, so large inputs run again in a child with them (some 50 ms, which a
 * small file, where start-up counts, does not pay).
 */
const MEMORY_FLAGS = ['--optimize-for-size', '--max-semi-space-size=2'];
const LARGE_INPUT = 1024 * 1024;

function relaunchForMemory(sources: readonly Source[], argv: readonly string[]): number | undefined {
  if (process.execArgv.includes(MEMORY_FLAGS[0] ?? '')) return undefined;
  if (sources.reduce((sum, s) => sum + (s.bytes ?? 0), 0) < LARGE_INPUT) return undefined;
  const child = spawnSync(process.execPath, [...MEMORY_FLAGS, __filename, ...argv], { stdio: 'inherit' });
  return child.status ?? EXIT.usage;
}

/** Runs the CLI on argv (without node and script); paths are relative to `base`. Returns the exit status. */
export async function main(argv: readonly string[], base: string): Promise<number> {
  const { argv: rest, config } = withConfig(argv, base);
  const args = parseCliArgs(rest, config);
  if (args === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return EXIT.valid;
  }
  // Findings go where people read: stdout for text, stderr beside the summary for the formats a parser reads.
  const argoFindings = runArgoCdRules(args.argocd, base, (line) =>
    (args.output === 'text' ? process.stdout : process.stderr).write(`${line}\n`),
  );
  if (args.inputs.length === 0) return argoFindings > 0 ? EXIT.invalid : EXIT.valid;
  const colour = process.stdout.isTTY === true && !process.env.NO_COLOR;
  const sources = expandInputs(base, args.inputs);
  const relaunched = relaunchForMemory(sources, argv);
  if (relaunched !== undefined) return relaunched;
  const reporter = reporterFor(args.output, { colour, toolVersion: toolVersion() });
  const totals = await run(args, base, sources, reporter, new BufferedOutput(process.stdout));
  if (totals.unreadable > 0) return EXIT.unreadable;
  return totals.invalid > 0 || argoFindings > 0 ? EXIT.invalid : EXIT.valid;
}

/** Runs the CLI on this process's arguments and sets its exit status (the command, and the bundle's launcher). */
export function runCli(): void {
  main(process.argv.slice(2), process.cwd()).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      process.stderr.write(`delivery-validate: ${message}\n${error instanceof UsageError ? `\n${USAGE}\n` : ''}`);
      process.exitCode = error instanceof InputUnreadable ? EXIT.unreadable : EXIT.usage;
    },
  );
}

if (require.main === module) runCli();
