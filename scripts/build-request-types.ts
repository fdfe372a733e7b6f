/**
 * Writes api/request-types.generated.ts: one TypeScript type per request schema under schemas/requests (run:
 * `npm run build:request-types` after changing a schema). Route handlers read bodies and queries as these types, so
 * a handler and the schema that validated its input cannot disagree. `--check` writes nothing and exits 1 when the
 * file (or the `--target` file) is stale (test/tooling/request-types.test.ts).
 */
import path from 'node:path';
import { requestTypesSource } from '../src/http/request-types-source';
import { repoRoot } from '../src/paths';
import { writeGenerated } from './generated-file';

void writeGenerated('api/request-types.generated.ts', 'npm run build:request-types', () =>
  requestTypesSource(path.join(repoRoot(), 'schemas', 'requests')),
).then((code) => process.exit(code));
