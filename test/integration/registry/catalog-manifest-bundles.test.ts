import { twoOrgs } from './two-orgs';
import { DEPLOYMENT, SERVICE } from './catalog-manifests';

const s = twoOrgs(['owner', 'viewer']);

const BUNDLES = '/api/v2/org-manifest-bundles';
const bundle = (version: string, files: Record<string, string>) => ({ name: 'platform', version, files });

async function stored(token: string) {
  const res = await s.http.get<{ items: { name: string; version: string }[] }>(BUNDLES, { token });
  return res.body.items.map((v) => `${v.name}@${v.version}`);
}

describe('manifest bundles of the organization', () => {
  it('uploads a bundle validated against the newest release by default and reads it back', async () => {
    const token = s.org.members.owner!.token;
    const files = { 'web/deployment.yaml': DEPLOYMENT, 'web/service.yml': SERVICE, 'README.md': '# platform\n' };
    const res = await s.http.post<{ kubernetesVersion: string; totalBytes: number; validation: { files: string[] } }>(
      BUNDLES,
      { token, body: bundle('2026.11.1', files) },
    );
    expect(res.status).toBe(201);
    expect(res.body.kubernetesVersion).toBe('1.32');
    expect(res.body.totalBytes).toBe(Buffer.byteLength(Object.values(files).join('')));
    expect(res.body.validation.files.sort()).toEqual(['web/deployment.yaml', 'web/service.yml']);

    const viewer = s.org.members.viewer!.token;
    expect(await stored(viewer)).toEqual(['platform@2026.11.1']);
    const read = await s.http.get<{ files: Record<string, string> }>(`${BUNDLES}/platform/versions/2026.11.1`, {
      token: viewer,
    });
    expect(read.body.files).toEqual(files);
  });

  it('refuses a bundle with an invalid manifest or YAML the engine rejects, with the results, storing nothing', async () => {
    const token = s.org.members.owner!.token;
    const noImage = DEPLOYMENT.replace('          image: nginx:1.27\n', '          image: 42\n');
    const res = await s.http.post<{ error: string; validation: { results: { file: string; severity: string }[] } }>(
      BUNDLES,
      { token, body: bundle('2026.11.2', { 'ok.yaml': SERVICE, 'bad.yaml': noImage, 'dup.yaml': 'a: 1\na: 2\n' }) },
    );
    expect(res.status).toBe(422);
    expect(res.body.error).toBe('validation failed: nothing was stored');
    const failing = res.body.validation.results.filter((r) => r.severity === 'error').map((r) => r.file);
    expect([...new Set(failing)].sort()).toEqual(['bad.yaml', 'dup.yaml']);
    expect(await stored(token)).toEqual(['platform@2026.11.1']);
  });

  it('refuses path traversal and viewers, and hides the bundle from another organization', async () => {
    const owner = s.org.members.owner!.token;
    expect(
      (await s.http.post(BUNDLES, { token: owner, body: bundle('x', { '../../etc/cron.d/x': SERVICE }) })).status,
    ).toBe(400);
    const viewer = s.org.members.viewer!.token;
    expect((await s.http.post(BUNDLES, { token: viewer, body: bundle('y', { 'a.yaml': SERVICE }) })).status).toBe(403);
    const foreign = s.other.members.owner!.token;
    expect(await stored(foreign)).toEqual([]);
    expect((await s.http.get(`${BUNDLES}/platform/versions/2026.11.1`, { token: foreign })).status).toBe(404);
    expect((await s.http.delete(`${BUNDLES}/platform`, { token: foreign })).status).toBe(404);
    expect(await stored(owner)).toEqual(['platform@2026.11.1']);
  });

  it('deletes every version, audited', async () => {
    const token = s.org.members.owner!.token;
    expect((await s.http.delete(`${BUNDLES}/platform`, { token })).status).toBe(204);
    expect(await stored(token)).toEqual([]);
    const audit = await s.platform.services.audit.list({ organizationId: s.org.org.id, limit: 100 });
    const actions = audit.items
      .filter((e) => e.resourceType === 'manifest_bundle')
      .map((e) => `${e.category}:${e.action}`);
    expect(actions.sort()).toEqual(['configuration:manifest_bundle.delete', 'configuration:manifest_bundle.upload']);
  });
});
