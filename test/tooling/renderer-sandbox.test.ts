import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { repoRoot } from '../../src/paths';
import { renderChart } from '../../src/registry/chart-render';
import { createKubeTools } from '../../src/tools/kube-tools';
import { kustomizeBuild } from '../../src/tools/kustomize-build';
import { createRenderers } from '../../src/tools/renderers';
import { probeUnshare, runRenderer } from '../../src/tools/renderer-process';
import { loadRendererSettings } from '../../src/config/renderers';
import { chartTarball } from '../integration/registry/chart-push';

const tools = createKubeTools({ toolsDir: path.join(repoRoot(), '.tools') });
const renderers = createRenderers(tools, loadRendererSettings({}));
const CONFIGMAP = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: fetched-from-loopback}\n';
let server: http.Server;
let port: number;

beforeAll(async () => {
  server = http.createServer((_, res) => res.end(CONFIGMAP));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const build = async (resource: string) => {
  try {
    return await kustomizeBuild(renderers, 'org-a', {
      'kustomization.yaml': `resources: [${JSON.stringify(resource)}]\n`,
    });
  } catch (err) {
    return (err as Error).message;
  }
};

// Issue 42 M2: a stored base naming a loopback URL was fetched at render time, and open and closed ports answered
// different messages; the render refuses it before kustomize runs, with one message whatever the port.
it('refuses a loopback URL at render time, the same for an open and a closed port', async () => {
  const open = await build(`http://127.0.0.1:${port}/x.yaml`);
  const closed = await build('http://127.0.0.1:9/x.yaml');
  expect(open).not.toContain('fetched-from-loopback');
  expect([open, closed.replace(':9/', `:${port}/`)]).toEqual([
    expect.stringMatching(/is a remote reference: renderers have no network/),
    open,
  ]);
});

// Issue 42 M1: a 245-byte chart made helm allocate 1.4 GiB for one preview.
it('stops the repeat chart at the memory cap with a 422 naming it', async () => {
  const archive = chartTarball('repeat', '0.1.0', {
    files: {
      'templates/cm.yaml':
        'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata: {n: "{{ len (repeat 1500000000 "a") }}"}\n',
    },
  });
  const started = Date.now();
  const rendered = renderChart(renderers, 'org-a', {
    ref: 'repeat:0.1.0',
    archive,
    releaseName: 'r',
    namespace: 'acme',
    kubernetesVersion: '1.30.0',
    values: {},
    overrides: { image: { repository: 'x', tag: '1' }, replicas: 1 },
  });
  await expect(rendered).rejects.toThrow(/helm template failed: .*more than 1024 MiB of memory/);
  expect(Date.now() - started).toBeLessThan(10_000);
});

// Defence in depth behind the kustomization reader: where the host allows it, the renderer has no network at all, so
// even a reference the reader let through could not reach a loopback port.
const unshare = probeUnshare();
(unshare ? it : it.skip)('runs the renderer in a network namespace of its own where the host allows one', async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'netns-'));
  try {
    await fs.writeFile(path.join(dir, 'kustomization.yaml'), `resources: [http://127.0.0.1:${port}/x.yaml]\n`);
    const req = { timeoutMs: 30_000, maxOutputBytes: 1 << 20, what: 'kustomize build', dir };
    const caps = { memoryMiB: 1024, cpuSeconds: 30, unshare };
    await expect(runRenderer(await tools.kubectl(), ['kustomize', dir], req, caps)).rejects.toThrow(
      /connect: (?:connection refused|network is unreachable)/,
    );
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
});
