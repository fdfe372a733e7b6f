import fs from 'node:fs';
import path from 'node:path';
import { routeTable } from '../../../api/route-table';
import { authorizationDocs } from '../../../scripts/authorization-doc-source';
import { repoRoot } from '../../../src/paths';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';

/**
 * docs/authorization.md carries three generated tables (routes with their actions, the role matrix, plan tiers) and
 * docs/machine-access.md the API-key allowlist, between markers (scripts/authorization-doc-source.ts). This test
 * regenerates them from the route table of a running platform and fails when a document is stale; run it with
 * UPDATE_AUTH_DOC=1 to rewrite them (`npm run new-domain` rewrites them for a new domain).
 */
let platform: TestPlatform;

beforeAll(async () => {
  platform = await startTestPlatform({ worker: false });
});
afterAll(() => platform.close());

it('docs/authorization.md and docs/machine-access.md show the routes, actions, roles, plans and key allowlist as the code has them', () => {
  const docs = authorizationDocs(routeTable(platform.services));
  for (const [file, expected] of Object.entries(docs)) {
    const at = path.join(repoRoot(), file);
    if (process.env.UPDATE_AUTH_DOC === '1') fs.writeFileSync(at, expected);
    else expect([file, fs.readFileSync(at, 'utf8')]).toEqual([file, expected]);
  }
});
