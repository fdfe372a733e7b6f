import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runScript } from '../helpers/child-process';
import { repoRoot } from '../../src/paths';

/** Clients read the API through types generated from its OpenAPI document: the committed file must be current. */
describe('client/openapi-types.generated.ts', () => {
  it('matches the OpenAPI document (run `npm run build:openapi-types` after changing a route or schema)', async () => {
    const { code, output } = await runScript('scripts/build-openapi-types.ts', ['--check'], {});
    expect([code, output]).toEqual([0, '']);
  });

  it('is reported stale when it differs from the document', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'openapi-types-'));
    try {
      const stale = path.join(dir, 'stale.ts');
      fs.copyFileSync(path.join(repoRoot(), 'client', 'openapi-types.generated.ts'), stale);
      fs.appendFileSync(stale, 'export type Stale = true;\n');
      const { code, output } = await runScript('scripts/build-openapi-types.ts', ['--check', '--target', stale], {});
      expect(code).toBe(1);
      expect(output).toContain('is stale: run npm run build:openapi-types');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
