/**
 * Writes client/openapi-types.generated.ts: the types of the API's OpenAPI document (paths, operations, request
 * schemas) for clients of the API (the web app in web/, later a CLI). Run `npm run build:openapi-types` after changing
 * a route or a request schema. `--check` writes nothing and exits 1 when the file (or the `--target` file) is stale
 * (test/tooling/openapi-types.test.ts). `--document FILE` reads the document from a file instead (the integration
 * test passes the one the running server serves).
 */
import fs from 'node:fs';
import { openApiTypesSource } from './openapi-types-source';
import { writeGenerated } from './generated-file';

const at = process.argv.indexOf('--document');
const document =
  at > 0 ? (JSON.parse(fs.readFileSync(process.argv[at + 1] ?? '', 'utf8')) as Record<string, unknown>) : undefined;

void writeGenerated('client/openapi-types.generated.ts', 'npm run build:openapi-types', () =>
  openApiTypesSource(document),
).then((code) => process.exit(code));
