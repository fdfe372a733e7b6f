/**
 * docs/argocd.md followed step by step (issue 26): every `sh` block runs in order in one bash against the embedded
 * platform (API, TOKEN of an organization owner), in a temporary folder; what the blocks print is checked, and the
 * bootstrap manifests they fetch validate against Argo CD's schemas (and the Secret against Kubernetes').
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { loadAll, dump } from 'js-yaml';
import { makeOrg } from '../../helpers/fixtures';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';
import { argoProblems } from '../../helpers/argocd-validation';
import { repoRoot } from '../../../src/paths';

const run = promisify(execFile);
let platform: TestPlatform;
let token: string;
let dir: string;

beforeAll(async () => {
  platform = await startTestPlatform();
  token = (await makeOrg(platform, ['owner'])).members.owner!.token;
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'argocd-docs-'));
}, 120_000);
afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
  await platform.close();
});

/** The `sh` blocks of a Markdown file, in order. */
function shellBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1] ?? '');
}

it('runs every shell block of docs/argocd.md and prints manifests Argo CD accepts', async () => {
  const blocks = shellBlocks(await fs.readFile(path.join(repoRoot(), 'docs', 'argocd.md'), 'utf8'));
  expect(blocks.length).toBeGreaterThanOrEqual(4);
  const script = ['set -euo pipefail', ...blocks].join('\n');
  const { stdout } = await run('bash', ['-c', script], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', HOME: dir, API: platform.url, TOKEN: token },
    maxBuffer: 16 * 1024 * 1024,
  });
  expect(stdout).toContain('"added"');
  for (const file of ['appprojects/shop.yaml', 'bootstrap/hub.yaml', 'bootstrap/per-cluster/eu-production.yaml'])
    expect(stdout).toContain(file);

  const text = await fs.readFile(path.join(dir, 'bootstrap-eu-production.yaml'), 'utf8');
  expect(stdout).toContain(text);
  const docs = loadAll(text) as { kind: string; metadata: { name: string }; stringData?: { password: string } }[];
  expect(docs.map((d) => `${d.kind}/${d.metadata.name}`)).toEqual([
    expect.stringMatching(/^Secret\/repo-/),
    'AppProject/shop-bootstrap',
    'Application/shop-root-eu-production',
  ]);
  // The read-scoped key the walkthrough made is the repository password.
  expect(docs[0]?.stringData?.password).toMatch(/^svc_/);
  const argo = docs.slice(1).map((d, i) => [`bootstrap-${i}`, dump(d)] as [string, string]);
  expect(argoProblems(platform.services.validation, argo)).toEqual([]);
  const secret = platform.services.validation.validate(dump(docs[0]), '1.31', { bestPractices: false });
  expect(secret.summary.errors).toBe(0);
});
