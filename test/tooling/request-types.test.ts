import fs from 'node:fs';
import path from 'node:path';
import { runScript } from '../helpers/child-process';
import { repoRoot } from '../../src/paths';
import { scratchDir } from '../helpers/scratch-dir';

/** Route handlers read their input as the types generated from the request schemas: the file must be current. */
describe('api/request-types.generated.ts', () => {
  it('matches the request schemas (run `npm run build:request-types` after changing one)', async () => {
    const { code, output } = await runScript('scripts/build-request-types.ts', ['--check'], {});
    expect([code, output]).toEqual([0, '']);
  });

  it('is reported stale when it differs from the schemas', async () => {
    const stale = path.join(scratchDir('request-types-'), 'stale.ts');
    fs.copyFileSync(path.join(repoRoot(), 'api', 'request-types.generated.ts'), stale);
    fs.appendFileSync(stale, 'export type Stale = true;\n');
    const { code, output } = await runScript('scripts/build-request-types.ts', ['--check', '--target', stale], {});
    expect(code).toBe(1);
    expect(output).toContain('is stale: run npm run build:request-types');
  });
});
