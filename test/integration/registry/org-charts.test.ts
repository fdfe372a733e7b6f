import { gzipSync } from 'node:zlib';
import { tarEntry } from '../../helpers/tar';
import { pushChart as pushChartContent } from './chart-push';
import { sha } from './oci-layout';
import { twoOrgs } from './two-orgs';
import { ociClient } from './oci-protocol';

const s = twoOrgs(['owner', 'viewer']);

const SCHEMA = { type: 'object', properties: { replicas: { type: 'integer' } } };

/** The web chart of these tests: app version and description from its version, a values schema, a template. */
const pushChart = (client: ReturnType<typeof ociClient>, repo: string, version: string) =>
  pushChartContent(client, repo, version, {
    appVersion: `${version}-app`,
    description: 'The web tier',
    files: { 'values.schema.json': JSON.stringify(SCHEMA), 'templates/cm.yaml': 'kind: ConfigMap\n' },
  });

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

  // Issue 25 (High): a chart whose tar header size is negative made every later listing loop forever.
  it('refuses a chart layer that is not a readable archive (400) and keeps listing', async () => {
    const owner = ociClient(s.platform.url, s.org.members.owner!.token);
    const repo = `${s.org.org.slug}/charts/evil`;
    const config = JSON.stringify({ name: 'evil', version: '0.1.0', apiVersion: 'v2' });
    const layer = gzipSync(
      Buffer.concat([tarEntry('evil/Chart.yaml', '', { size: '-0000001000' }), Buffer.alloc(1024)]),
    );
    expect(layer.length).toBeLessThan(100);
    expect((await owner.pushBlob(repo, config)).status).toBe(201);
    expect((await owner.pushBlob(repo, layer)).status).toBe(201);
    const pushed = await owner.pushManifest(repo, '0.1.0', {
      schemaVersion: 2,
      mediaType: 'application/vnd.oci.image.manifest.v1+json',
      config: { mediaType: 'application/vnd.cncf.helm.config.v1+json', digest: sha(config), size: config.length },
      layers: [
        { mediaType: 'application/vnd.cncf.helm.chart.content.v1.tar+gzip', digest: sha(layer), size: layer.length },
      ],
    });
    expect([pushed.status, pushed.code]).toEqual([400, 'MANIFEST_INVALID']);
    const list = await s.http.get<{ items: { name: string }[] }>('/api/v2/org-charts', {
      token: s.org.members.owner!.token,
    });
    expect(list.status).toBe(200);
    expect(list.body.items.map((c) => c.name)).not.toContain('charts/evil');
  });
});
