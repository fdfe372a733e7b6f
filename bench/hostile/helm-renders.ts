import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createKubeTools } from '../../src/tools/kube-tools';
import { repoRoot } from '../../src/paths';
import { gzipSync } from 'node:zlib';
import tar from 'tar-stream';
import { apiCaller } from '../api-call';
import { makeShopProject } from '../shop-project';

/** The 245-byte chart of issue 42 M1: helm allocates 1.4 GiB for it without the renderer's caps. */
export const REPEAT_TEMPLATE =
  'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata: {n: "{{ len (repeat 1500000000 "a") }}"}\n';

/**
 * A helm that is the bundled one run under `/usr/bin/time`, appending each run's peak RSS (KiB) to a file, for
 * HELM_PATH: the renderer's caps apply to it as to helm itself (the address-space cap covers the child).
 */
export async function measuredHelm(): Promise<{ helmPath: string; peaksKiB(): number[] }> {
  const real = await createKubeTools({ toolsDir: path.join(repoRoot(), '.tools') }).helm();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-helm-'));
  fs.chmodSync(dir, 0o755);
  const peaks = path.join(dir, 'peaks');
  fs.writeFileSync(peaks, '');
  fs.chmodSync(peaks, 0o666);
  const helmPath = path.join(dir, 'helm');
  fs.writeFileSync(helmPath, `#!/bin/sh\nexec /usr/bin/time -a -o '${peaks}' -f '%M' '${real}' "$@"\n`, {
    mode: 0o755,
  });
  return {
    helmPath,
    peaksKiB: () =>
      fs
        .readFileSync(peaks, 'utf8')
        .split('\n')
        .filter((l) => /^\d+$/.test(l))
        .map(Number),
  };
}

/** A chart archive as `helm package` lays it out: `<name>/Chart.yaml`, `values.yaml` and the templates given. */
async function chartArchive(name: string, templates: Record<string, string>): Promise<Buffer> {
  const pack = tar.pack();
  const files = {
    'Chart.yaml': `apiVersion: v2\nname: ${name}\nversion: 0.1.0\n`,
    'values.yaml': '{}\n',
    ...templates,
  };
  for (const [file, text] of Object.entries(files)) pack.entry({ name: `${name}/${file}` }, text);
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of pack) chunks.push(chunk as Buffer);
  return gzipSync(Buffer.concat(chunks));
}

/** Project `shop` (one environment, one tenant) with workload `repeat` rendered from the pushed repeat chart. */
export async function repeatChartProject(baseUrl: string, token: string, pushChart: (chart: Buffer) => Promise<void>) {
  const call = apiCaller(baseUrl, token);
  await pushChart(await chartArchive('repeat', { 'templates/cm.yaml': REPEAT_TEMPLATE }));
  await makeShopProject(call, { environments: 1, tenants: 1 });
  await call('POST', '/api/v2/projects/shop/workloads', {
    name: 'repeat',
    image: { repository: 'registry.example.com/repeat', tag: '1.0.0' },
    source: { kind: 'chart', name: 'charts/repeat', version: '0.1.0' },
  });
}
