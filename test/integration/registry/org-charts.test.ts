import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { twoOrgs } from './two-orgs';
import { sha } from './oci-layout';
import { ociClient } from './oci-protocol';

const s = twoOrgs(['owner', 'viewer']);

const SCHEMA = { type: 'object', properties: { replicas: { type: 'integer' } } };

/** A chart tarball as `helm package` lays it out: `<name>/Chart.yaml`, values, schema, templates. */
function chartTarball(version: string): Buffer {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chart-'));
  fs.mkdirSync(path.join(dir, 'web', 'templates'), { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'web', 'Chart.yaml'),
    `apiVersion: v2\nname: web\nversion: ${version}\nappVersion: "${version}-app"\ndescription: The web tier\n`,
  );
  fs.writeFileSync(path.join(dir, 'web', 'values.yaml'), 'replicas: 1\n');
  fs.writeFileSync(path.join(dir, 'web', 'values.schema.json'), JSON.stringify(SCHEMA));
  fs.writeFileSync(path.join(dir, 'web', 'templates', 'cm.yaml'), 'kind: ConfigMap\n');
  return execFileSync('tar', ['-cz', '-C', dir, 'web']);
}

/** Pushes a chart version the way `helm push` does: config blob, chart layer, manifest tagged with the version. */
async function pushChart(client: ReturnType<typeof ociClient>, repo: string, version: string) {
  const config = JSON.stringify({ name: 'web', version, apiVersion: 'v2' });
  const layer = chartTarball(version);
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

describe('the organization chart catalog', () => {
  it('lists charts pushed over OCI with versions, app versions, descriptions and values schemas', async () => {
    const owner = ociClient(s.platform.url, s.org.members.owner!.token);
    await pushChart(owner, `${s.org.org.slug}/charts/web`, '0.1.0');
    await pushChart(owner, `${s.org.org.slug}/charts/web`, '0.2.0');
    await owner.pushBlob(`${s.org.org.slug}/notes`, '{}');

    const list = await s.http.get<{ items: unknown[] }>('/api/v2/org-charts', { token: s.org.members.viewer!.token });
    expect(list.status).toBe(200);
    expect(list.body.items).toEqual([
      {
        name: 'charts/web',
        versions: [
          expect.objectContaining({
            version: '0.1.0',
            appVersion: '0.1.0-app',
            description: 'The web tier',
            valuesSchema: SCHEMA,
          }),
          expect.objectContaining({ version: '0.2.0', appVersion: '0.2.0-app' }),
        ],
      },
    ]);
    const one = await s.http.get(`/api/v2/org-charts/${encodeURIComponent('charts/web')}`, {
      token: s.org.members.viewer!.token,
    });
    expect(one.status).toBe(200);
  });

  it('is invisible to another organization, over the API and over OCI', async () => {
    const token = s.other.members.owner!.token;
    expect((await s.http.get<{ items: unknown[] }>('/api/v2/org-charts', { token })).body.items).toEqual([]);
    expect((await s.http.get(`/api/v2/org-charts/${encodeURIComponent('charts/web')}`, { token })).status).toBe(404);
    const pull = await ociClient(s.platform.url, token).call('GET', `/v2/${s.org.org.slug}/charts/web/manifests/0.1.0`);
    expect([pull.status, pull.code]).toEqual([404, 'NAME_UNKNOWN']);
  });

  it('deletes a version, then the chart, for members and not for viewers', async () => {
    const name = encodeURIComponent('charts/web');
    const viewerDelete = await s.http.delete(`/api/v2/org-charts/${name}/versions/0.1.0`, {
      token: s.org.members.viewer!.token,
    });
    expect(viewerDelete.status).toBe(403);
    const token = s.org.members.owner!.token;
    expect((await s.http.delete(`/api/v2/org-charts/${name}/versions/0.1.0`, { token })).status).toBe(204);
    const after = await s.http.get<{ versions: { version: string }[] }>(`/api/v2/org-charts/${name}`, { token });
    expect(after.body.versions.map((v) => v.version)).toEqual(['0.2.0']);
    expect((await s.http.delete(`/api/v2/org-charts/${name}`, { token })).status).toBe(204);
    expect((await s.http.get(`/api/v2/org-charts/${name}`, { token })).status).toBe(404);
  });
});
