import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../src/paths';

/**
 * The command line of a script that writes a generated file: `--target FILE` names another file than `defaultPath`
 * (relative to the repository root), `--check` writes nothing and answers 1 (naming `fix`) when the file differs
 * from what `generate` makes. Answers the exit code.
 */
export async function writeGenerated(defaultPath: string, fix: string, generate: () => Promise<string>) {
  const at = process.argv.indexOf('--target');
  const target = at > 0 ? path.resolve(process.argv[at + 1] ?? '') : path.join(repoRoot(), defaultPath);
  const source = await generate();
  const relative = path.relative(repoRoot(), target);
  if (process.argv.includes('--check')) {
    const current = fs.existsSync(target) ? fs.readFileSync(target, 'utf8') : '';
    if (current === source) return 0;
    process.stderr.write(`${relative} is stale: run ${fix}\n`);
    return 1;
  }
  fs.writeFileSync(target, source);
  process.stdout.write(`wrote ${relative}\n`);
  return 0;
}
