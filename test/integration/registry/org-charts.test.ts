import { pushChart as pushChartContent } from './chart-push';
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
});
