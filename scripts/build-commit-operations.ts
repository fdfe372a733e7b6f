/**
 * Writes src/runtime/commit-operations.ts, the commit path's operation kinds, from the `*-operation.ts` files of src/
 * (scripts/central-list-sources.ts). `--check` writes nothing and exits 1 when the file is stale
 * (test/tooling/central-lists.test.ts).
 */
import { commitOperationsSource } from './central-list-sources';
import { writeGenerated } from './generated-file';

void writeGenerated('src/runtime/commit-operations.ts', 'npm run build:commit-operations', () =>
  commitOperationsSource(),
).then((code) => process.exit(code));
