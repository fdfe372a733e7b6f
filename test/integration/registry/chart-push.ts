import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sha } from './oci-layout';
import type { ociClient } from './oci-protocol';

export interface ChartContent {
  /** Extra files of the chart directory (e.g. `templates/deployment.yaml`, `values.schema.json`). */
  files?: Record<string, string>;
  appVersion?: string;
  description?: string;
}

/** A chart tarball as `helm package` lays it out: `<name>/Chart.yaml`, `values.yaml`, then the given files. */
export function chartTarball(name: string, version: string, content: ChartContent = {}): Buffer {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chart-'));
  try {
    return tarballIn(dir, name, version, content);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function tarballIn(dir: string, name: string, version: string, content: ChartContent): Buffer {
  const chartYaml =
    `apiVersion: v2\nname: ${name}\nversion: ${version}\n` +
    (content.appVersion ? `appVersion: "${content.appVersion}"\n` : '') +
    (content.description ? `description: ${content.description}\n` : '');
  const files = { 'Chart.yaml': chartYaml, 'values.yaml': 'replicas: 1\n', ...content.files };
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, name, file), text);
  }
  return execFileSync('tar', ['-cz', '-C', dir, name]);
}

/** Pushes a chart version the way `helm push` does: config blob, chart layer, manifest tagged with the version. */
export async function pushChart(
  client: ReturnType<typeof ociClient>,
  repo: string,
  version: string,
  content: ChartContent = {},
) {
  const name = repo.split('/').pop() ?? repo;
  const config = JSON.stringify({ name, version, apiVersion: 'v2' });
  const layer = chartTarball(name, version, content);
  expect((await client.pushBlob(repo, config)).status).toBe(201);
  expect((await client.pushBlob(repo, layer)).status).toBe(201);
  const res = await client.pushManifest(repo, version, {
    schemaVersion: 2,
    mediaType: 'application/vnd.oci.image.manifest.v1+json',
    config: { mediaType: 'application/vnd.cncf.helm.config.v1+json', digest: sha(config), size: config.length },
    layers: [
      { mediaType: 'application/vnd.cncf.helm.chart.content.v1.tar+gzip', digest: sha(layer), size: layer.length },
    ],
  });
  expect(res.status).toBe(201);
}
