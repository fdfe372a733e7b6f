/** The CLI reports the API-server rules exactly as the engine does (issue 15 item 2). */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { stringify } from 'yaml';
import { repoRoot } from '../../src/paths';
import { engine } from './validation/corpus';
import { scratchDir } from '../helpers/scratch-dir';

it('a Service with two unnamed ports: the CLI prints the required-name errors and exits 1', async () => {
  const manifest = stringify({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'web' },
    spec: { ports: [{ port: 80 }, { port: 443 }] },
  });
  const file = path.join(scratchDir('cli-api-rules-'), 'service.yaml');
  fs.writeFileSync(file, manifest);
  const run = spawnSync(
    path.join(repoRoot(), 'node_modules', '.bin', 'tsx'),
    ['src/validation/cli.ts', '--version', '1.29', '--output', 'json', file],
    { cwd: repoRoot(), encoding: 'utf8', timeout: 60_000 },
  );
  expect(run.status).toBe(1);
  const expected = (await engine()).validate(manifest, '1.29').results.filter((r) => r.severity === 'error');
  expect(expected.map((r) => r.path)).toEqual(['spec.ports[0].name', 'spec.ports[1].name']);
  for (const r of expected) {
    expect(run.stdout).toContain(JSON.stringify(r.message));
    expect(run.stdout).toContain(JSON.stringify(r.path));
  }
});
