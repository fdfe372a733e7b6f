/**
 * Writes api/request-types.generated.ts: one TypeScript type per request schema under schemas/requests (run:
 * `npm run build:request-types` after changing a schema). Route handlers read bodies and queries as these types, so
 * a handler and the schema that validated its input cannot disagree. `--check` writes nothing and exits 1 when the
 * file (or the `--target` file) is stale (test/tooling/request-types.test.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { requestTypesSource } from '../src/http/request-types-source';
import { repoRoot } from '../src/paths';

async function main(): Promise<number> {
  const at = process.argv.indexOf('--target');
  const target =
    at > 0 ? path.resolve(process.argv[at + 1] ?? '') : path.join(repoRoot(), 'api', 'request-types.generated.ts');
  const source = await requestTypesSource(path.join(repoRoot(), 'schemas', 'requests'));
  const relative = path.relative(repoRoot(), target);
  if (process.argv.includes('--check')) {
    const current = fs.existsSync(target) ? fs.readFileSync(target, 'utf8') : '';
    if (current === source) return 0;
    process.stderr.write(`${relative} is stale: run npm run build:request-types\n`);
    return 1;
  }
  fs.writeFileSync(target, source);
  process.stdout.write(`wrote ${relative}\n`);
  return 0;
}

void main().then((code) => process.exit(code));
