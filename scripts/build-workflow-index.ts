/**
 * Writes workflows/index.ts, the workflow bundle's exports, from the modules' `workflows` (scripts/central-list-sources.ts).
 * `--check` writes nothing and exits 1 when the file is stale (test/tooling/central-lists.test.ts).
 */
import { workflowIndexSource } from './central-list-sources';
import { writeGenerated } from './generated-file';

void writeGenerated('workflows/index.ts', 'npm run build:workflow-index', () => workflowIndexSource()).then((code) =>
  process.exit(code),
);
