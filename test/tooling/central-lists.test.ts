import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runScript } from '../helpers/child-process';
import { repoRoot } from '../../src/paths';

/**
 * The central lists are generated from the domains (issue 45; scripts/central-list-sources.ts): the committed files
 * must be what their scripts write, so a workflow a module claims or an operation kind a domain adds without
 * regenerating fails here, naming the script to run.
 */
describe.each([
  ['workflows/index.ts', 'scripts/build-workflow-index.ts', 'npm run build:workflow-index'],
  ['src/runtime/commit-operations.ts', 'scripts/build-commit-operations.ts', 'npm run build:commit-operations'],
])('%s', (file, script, fix) => {
  it('is what its generator writes', async () => {
    const { code, output } = await runScript(script, ['--check'], {});
    expect([code, output]).toEqual([0, '']);
  });

  it('is reported stale when an entry is missing', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'central-list-'));
    try {
      const stale = path.join(dir, path.basename(file));
      const lines = fs.readFileSync(path.join(repoRoot(), file), 'utf8').split('\n');
      fs.writeFileSync(stale, lines.filter((line) => !/^export \{|^ {2}\w+Operation,$/.test(line)).join('\n'));
      const { code, output } = await runScript(script, ['--check', '--target', stale], {});
      expect([code, output]).toEqual([1, `${path.relative(repoRoot(), stale)} is stale: run ${fix}\n`]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
