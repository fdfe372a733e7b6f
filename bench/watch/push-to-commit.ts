import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import type { apiCaller } from '../api-call';
import { shapeAHeaders } from '../image-webhook';
import type { startBenchPlatform } from '../validate/platform';
import { elapsedMs, line } from '../validate/stats';
import { pct, sleep, summary } from './figures';

const run = promisify(execFile);
const OCI_MANIFEST = 'application/vnd.oci.image.manifest.v1+json';

/** Part 2: a tag pushed to the platform's own registry until its commit is visible, beside the signed webhook's. */
export async function pushToCommit(
  platform: Awaited<ReturnType<typeof startBenchPlatform>>,
  call: ReturnType<typeof apiCaller>,
  pushes: number,
) {
  const { db } = platform.services;
  const host = new URL(platform.baseUrl).host;
  const project = await call<{ id: string; organizationId: string }>('POST', '/api/v2/projects', {
    slug: 'app',
    name: 'app',
  });
  await call('POST', '/api/v2/projects/app/environments', { environment: 'env-0', kubernetesVersion: '1.29' });
  await call('POST', '/api/v2/projects/app/tenants', { slug: 't0', name: 'T0' });
  await call('POST', '/api/v2/projects/app/workloads', {
    name: 'web',
    image: { repository: `${host}/bench/app/web`, tag: '1.0.0' },
    ports: [{ name: 'http', containerPort: 8080 }],
  });
  await call('POST', '/api/v2/projects/app/delivery/generate', {});
  await call('POST', '/api/v2/projects/app/watch/subscriptions', {
    workload: 'web',
    repository: { source: 'platform', name: 'app/web' },
    policy: { kind: 'semver', range: '>=2.0.0' },
    environments: ['env-0'],
  });
  const { secret } = await call<{ secret: string }>('PUT', '/api/v2/projects/app/webhook-settings', {
    autoUpdateEnvironments: ['env-0'],
  });

  const auth = { authorization: `Basic ${Buffer.from(`token:${platform.token}`).toString('base64')}` };
  const digestOf = (data: string) => `sha256:${createHash('sha256').update(data).digest('hex')}`;
  const layer = 'a layer of the app\n'.repeat(100);
  const config = JSON.stringify({ architecture: 'amd64', os: 'linux', config: {}, rootfs: { type: 'layers' } });
  for (const blob of [layer, config]) {
    const res = await fetch(`${platform.baseUrl}/v2/bench/app/web/blobs/uploads/?digest=${digestOf(blob)}`, {
      method: 'POST',
      headers: auth,
      body: blob,
    });
    if (res.status !== 201) throw new Error(`blob upload: ${res.status} ${await res.text()}`);
  }
  const putManifest = async (tag: string) => {
    const manifest = JSON.stringify({
      schemaVersion: 2,
      mediaType: OCI_MANIFEST,
      config: { mediaType: 'application/vnd.oci.image.config.v1+json', digest: digestOf(config), size: config.length },
      layers: [{ mediaType: 'application/vnd.oci.image.layer.v1.tar', digest: digestOf(layer), size: layer.length }],
      annotations: { 'org.opencontainers.image.version': tag },
    });
    const res = await fetch(`${platform.baseUrl}/v2/bench/app/web/manifests/${tag}`, {
      method: 'PUT',
      headers: { ...auth, 'content-type': OCI_MANIFEST },
      body: manifest,
    });
    if (res.status !== 201) throw new Error(`manifest ${tag}: ${res.status} ${await res.text()}`);
  };
  /** PUT of the manifest -> the discovery evaluated with its commit (ms), and the PUT's own answer time. */
  const pushed = async (tag: string) => {
    const began = process.hrtime.bigint();
    await putManifest(tag);
    const answered = elapsedMs(began);
    for (const deadline = Date.now() + 60_000; ; await sleep(5)) {
      const row = (await db('watch_discoveries')
        .where({ organization_id: project.organizationId, source: 'platform', repository: 'app/web', tag })
        .first('status', 'outcomes')) as
        { status: string; outcomes: { result: string; commit?: string }[] } | undefined;
      if (row?.status === 'evaluated') {
        if (row.outcomes[0]?.result !== 'committed' || !row.outcomes[0].commit)
          throw new Error(`${tag}: ${JSON.stringify(row.outcomes)}`);
        return { ms: elapsedMs(began), answered };
      }
      if (Date.now() > deadline) throw new Error(`${tag}: no evaluated discovery after 60 s`);
    }
  };
  /**
   * The signed webhook's request -> its 200 answer naming the commit (ms). It is signed in the next whole second: its
   * timestamp has whole seconds, and an update signed before the discovery just applied (found at in milliseconds)
   * would be superseded by it, not committed.
   */
  const webhook = async (tag: string) => {
    await sleep(1000 - (Date.now() % 1000) + 5);
    const body = JSON.stringify({ repository: 'bench/app/web', tag, registry: host, digest: digestOf(tag) });
    const headers = shapeAHeaders(secret, body);
    const began = process.hrtime.bigint();
    const res = await fetch(`${platform.baseUrl}/api/v1/webhooks/image-update`, { method: 'POST', headers, body });
    const answer = (await res.json()) as { status: string; commit: string | null };
    if (res.status !== 200 || answer.status !== 'committed' || !answer.commit) {
      throw new Error(`webhook ${tag}: ${res.status} ${JSON.stringify(answer)}`);
    }
    return elapsedMs(began);
  };

  // Warm-up, untimed: the first push creates the repository, the first commits warm the caches.
  await pushed('2.0.0');
  await webhook('3.0.0');
  const watched: number[] = [];
  const putAnswered: number[] = [];
  const signed: number[] = [];
  for (let k = 1; k <= pushes; k++) {
    const p = await pushed(`2.${k}.0`);
    watched.push(p.ms);
    putAnswered.push(p.answered);
    signed.push(await webhook(`3.${k}.0`));
  }
  const repo = platform.services.repositories.pathOf(project.organizationId, project.id);
  const file = (await run('git', ['-C', repo, 'show', 'main:tenants/t0/env-0/web/deployment.yaml'])).stdout;
  const last = file.includes(`:3.${pushes}.0`);
  line(
    `\n${pushes} tags pushed to the platform's registry one after another (manifest PUT, blobs uploaded once), ` +
      `alternating with as many signed webhooks, one workload x one target`,
  );
  line(summary('push -> commit visible (watch, semver >=2.0.0)', watched));
  line(summary('  of which the manifest PUT answered', putAnswered));
  line(summary('reference: signed image-update webhook -> commit', signed));
  const ratio = pct(watched, 95) / pct(signed, 95);
  line(
    `  push -> commit p95 ${ratio.toFixed(2)}x the webhook's p95 (p50 ${(pct(watched, 50) / pct(signed, 50)).toFixed(2)}x); ` +
      `goal p95 < 1000 ms: ${pct(watched, 95) < 1000 ? 'met' : 'MISSED'}; last webhook's tag on main: ${last ? 'yes' : 'NO'}`,
  );
}
