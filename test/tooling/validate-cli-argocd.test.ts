/**
 * `delivery-validate --argocd DIR` (issue 44): Argo CD's rules over a checked-out repository. The repository the
 * previous generator wrote (test/fixtures/argocd-repos/previous-generator) and a hand-made one show the three
 * defects of the issue; the repository the generator writes now passes.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { renderAll } from '../../src/gitops/manifests';
import { repoRoot } from '../../src/paths';
import { ACCEPTANCE, deliveryModel } from './gitops/delivery-models';

const FIXTURES = path.join(repoRoot(), 'test', 'fixtures', 'argocd-repos');

function cli(...args: string[]) {
  const run = spawnSync(
    path.join(repoRoot(), 'node_modules', '.bin', 'tsx'),
    [path.join(repoRoot(), 'src/validation/cli.ts'), ...args],
    { cwd: FIXTURES, encoding: 'utf8', timeout: 120_000 },
  );
  return { status: run.status, lines: run.stdout.trim().split('\n'), stderr: run.stderr };
}

it('reports the three findings of issue 44 on the previous generator: Namespace, unmanaged roots, two owners', () => {
  const { status, lines } = cli('--argocd', 'previous-generator');
  expect(status).toBe(1);
  const hub = 'argocd: previous-generator: hub argocd (applies shop-root-eu-prod, shop-root-eu-staging)';
  expect(lines).toEqual(
    expect.arrayContaining([
      `${hub}: Application shop.acme.production.web: resource :Namespace is not permitted in project shop (Namespace acme-production)`,
      `${hub}: Application/shop-root-eu-prod is managed by no root: later commits never change it`,
      `${hub}: AppProject/shop-bootstrap is managed by no root: later commits never change it`,
      `${hub}: AppProject/shop has 2 owners: Application/shop-root-eu-prod, Application/shop-root-eu-staging`,
      'argocd: previous-generator: 3 Argo CD setups checked, 12 findings',
    ]),
  );
});

it('reports a hand-made repository: root not self-managed, two owners, a ClusterRole and a Namespace not allowed', () => {
  const { status, lines } = cli('--argocd', 'hand-made-broken', '-o', 'json', 'hand-made-broken/apps');
  expect(status).toBe(1);
  // The manifests of the inputs still validate (json on stdout); the Argo CD findings go to stderr.
  expect(lines.map((l) => (JSON.parse(l) as { valid: boolean }).valid)).toEqual([true, true]);
  const prefix = 'argocd: hand-made-broken: hub argocd (applies demo-root): ';
  const findings = cli('--argocd', 'hand-made-broken').lines;
  expect(findings).toEqual([
    `${prefix}AppProject/demo-bootstrap is managed by no root: later commits never change it`,
    `${prefix}Application/demo-root is managed by no root: later commits never change it`,
    `${prefix}Application demo-web: resource rbac.authorization.k8s.io:ClusterRole is not permitted in project demo`,
    `${prefix}Application demo-web: resource :Namespace is not permitted in project demo (Namespace web)`,
    `${prefix}AppProject/demo has 2 owners: Application/demo-apps-a, Application/demo-apps-b`,
    `${prefix}Application/demo-web has 2 owners: Application/demo-apps-a, Application/demo-apps-b`,
    'argocd: hand-made-broken: 1 Argo CD setups checked, 6 findings',
  ]);
});

it('passes the repository the generator writes, in both topologies', async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'argocd-cli-'));
  try {
    for (const [file, text] of renderAll(deliveryModel(ACCEPTANCE))) {
      await fs.mkdir(path.dirname(path.join(dir, file)), { recursive: true });
      await fs.writeFile(path.join(dir, file), text);
    }
    const { status, lines } = cli('--argocd', dir);
    expect(lines).toEqual([`argocd: ${dir}: 4 Argo CD setups checked, 0 findings`]);
    expect(status).toBe(0);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
});
