/**
 * Writes client/openapi-types.generated.ts: the types of the API's OpenAPI document (paths, operations, request
 * schemas) for clients of the API (the web app in web/, later a CLI). Run `npm run build:openapi-types` after changing
 * a route or a request schema. `--check` writes nothing and exits 1 when the file (or the `--target` file) is stale
 * (test/tooling/openapi-types.test.ts). `--document FILE` reads the document from a file instead (the integration
 * test passes the one the running server serves).
 */
import fs from 'node:fs';
import path from 'node:path';
import { openApiTypesSource } from '../src/http/openapi-types-source';
import { repoRoot } from '../src/paths';

async function main(): Promise<number> {
  const at = process.argv.indexOf('--target');
  const target =
    at > 0 ? path.resolve(process.argv[at + 1] ?? '') : path.join(repoRoot(), 'client', 'openapi-types.generated.ts');
  const doc = process.argv.indexOf('--document');
  const document =
    doc > 0 ? (JSON.parse(fs.readFileSync(process.argv[doc + 1] ?? '', 'utf8')) as Record<string, unknown>) : undefined;
  const source = await openApiTypesSource(document);
  const relative = path.relative(repoRoot(), target);
  if (process.argv.includes('--check')) {
    const current = fs.existsSync(target) ? fs.readFileSync(target, 'utf8') : '';
    if (current === source) return 0;
    process.stderr.write(`${relative} is stale: run npm run build:openapi-types\n`);
    return 1;
  }
  fs.writeFileSync(target, source);
  process.stdout.write(`wrote ${relative}\n`);
  return 0;
}

void main().then((code) => process.exit(code));
