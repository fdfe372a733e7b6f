import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { subcommand } from '../lib/command-kit';

/** The package root: the bundle runs from node_modules/.cache/delivery, the sources from cli/commands. */
function packageRoot(): string {
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, 'package.json'))) dir = path.dirname(dir);
  return dir;
}

/**
 * `delivery validate` is `delivery-validate`: the same engine, options and exit codes (docs/validate-cli.md), run
 * offline. The compiled validator (after `npm run build`) is used when present, else the sources through the same
 * bundle cache as this command.
 */
export function runValidate(args: string[]): void {
  const root = packageRoot();
  const compiled = path.join(root, 'dist', 'src', 'validation', 'cli.js');
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the launcher is plain JavaScript
  const launcher = require(path.join(root, 'bin', 'launch.js')) as { bundled(entry: string): string };
  const entry = fs.existsSync(compiled) ? compiled : launcher.bundled('src/validation/cli.ts');
  const child = spawnSync(process.execPath, [entry, ...args], { stdio: 'inherit' });
  process.exitCode = child.status ?? 2;
}

/** Listed in `delivery --help`; `main` hands `delivery validate ...` to runValidate before the program parses it. */
export function registerValidate(program: Command): void {
  subcommand(
    program,
    'validate',
    'Validate Kubernetes manifests offline (same engine and options as delivery-validate)',
    ['delivery validate --version 1.29 deploy/', 'delivery validate -o junit manifests/*.yaml > report.xml'],
  )
    .allowUnknownOption(true)
    .helpOption(false)
    .argument('[args...]')
    .action(runValidate);
}
