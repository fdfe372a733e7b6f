import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../../../src/paths';
import { CATALOG_ARTIFACTS } from '../../../src/catalog/catalog-artifacts';
import { DEPLOYMENT as MANIFEST } from './catalog-manifests';
import { orasPython, tool } from './oci-clients';
import { EMPTY_CONFIG, ociClient } from './oci-protocol';
import { twoOrgs } from './two-orgs';
import { scratchDir } from '../../helpers/scratch-dir';

const s = twoOrgs(['owner', 'viewer']);
const SCRIPT = path.join(repoRoot(), 'test/fixtures/registry/oras_client.py');
let python: string;
let host: string;

beforeAll(() => {
  python = orasPython();
  host = new URL(s.platform.url).host;
}, 300_000);

const owner = () => s.org.members.owner!.token;

/** `oras push` of files (written to a fresh directory) with the kind's config media type. */
function orasPush(target: string, files: Record<string, string>, configMediaType: string) {
  const dir = scratchDir('oras-catalog-');
  for (const [file, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, file), text);
  fs.writeFileSync(path.join(dir, 'config.json'), '{}');
  const paths = Object.keys(files).map((f) => path.join(dir, f));
  return tool(python, [
    SCRIPT,
    'push',
    host,
    `${s.org.org.slug}/${target}`,
    owner(),
    paths.join(','),
    'application/vnd.delivery-platform.file.v1',
    `${path.join(dir, 'config.json')}:${configMediaType}`,
  ]);
}

async function orasPull(target: string, token: string) {
  const out = scratchDir('oras-catalog-out-');
  const pull = await tool(python, [SCRIPT, 'pull', host, `${s.org.org.slug}/${target}`, token, out]);
  const files = pull.ok
    ? Object.fromEntries(fs.readdirSync(out).map((f) => [f, fs.readFileSync(path.join(out, f), 'utf8')]))
    : {};
  return { ok: pull.ok, files };
}

const BASE = { 'kustomization.yaml': 'resources:\n  - deployment.yaml\n', 'deployment.yaml': MANIFEST };

describe('kustomize bases and manifest bundles as OCI artifacts', () => {
  it('an oras push of a kustomize base registers it in the catalog after validation, and oras pulls it back', async () => {
    const push = await orasPush('kustomize-bases/web:1.0.0', BASE, CATALOG_ARTIFACTS['kustomize-base'].configMediaType);
    expect([push.ok, push.stderr.slice(-800)]).toEqual([true, '']);
    const got = await s.http.get<{ files: Record<string, string>; kubernetesVersion: string }>(
      '/api/v2/org-kustomize-bases/web/versions/1.0.0',
      { token: s.org.members.viewer!.token },
    );
    expect(got.status).toBe(200);
    expect(got.body.files).toEqual(BASE);
    expect((await orasPull('kustomize-bases/web:1.0.0', s.org.members.viewer!.token)).files).toEqual(BASE);
  });

  it('refuses an invalid push with nothing stored in the catalog or the registry', async () => {
    const broken = { ...BASE, 'kustomization.yaml': 'resources:\n  - deployment.yaml\n  - missing.yaml\n' };
    const push = await orasPush(
      'kustomize-bases/web:2.0.0',
      broken,
      CATALOG_ARTIFACTS['kustomize-base'].configMediaType,
    );
    expect(push.ok).toBe(false);
    const oci = ociClient(s.platform.url, owner());
    const manifest = await oci.call('GET', `/v2/${s.org.org.slug}/kustomize-bases/web/manifests/2.0.0`);
    expect([manifest.status, manifest.code]).toEqual([404, 'MANIFEST_UNKNOWN']);
    const got = await s.http.get('/api/v2/org-kustomize-bases/web/versions/2.0.0', { token: owner() });
    expect(got.status).toBe(404);

    // The right repository with another config media type is no kustomize base.
    expect((await oci.pushBlob(`${s.org.org.slug}/kustomize-bases/web`, '{}')).status).toBe(201);
    const direct = await oci.pushManifest(`${s.org.org.slug}/kustomize-bases/web`, '2.0.0', {
      schemaVersion: 2,
      mediaType: 'application/vnd.oci.image.manifest.v1+json',
      config: EMPTY_CONFIG,
      layers: [],
    });
    expect([direct.status, direct.code]).toEqual([400, 'MANIFEST_INVALID']);
  });

  it('an API-uploaded manifest bundle is pullable with oras; its deletion goes through the catalog routes', async () => {
    const files = { 'service.yaml': MANIFEST };
    const upload = await s.http.post('/api/v2/org-manifest-bundles', {
      token: owner(),
      body: { name: 'edge', version: '0.3.0', files },
    });
    expect(upload.status).toBe(201);
    expect((await orasPull('manifest-bundles/edge:0.3.0', s.org.members.viewer!.token)).files).toEqual(files);

    const oci = ociClient(s.platform.url, owner());
    const del = await oci.call('DELETE', `/v2/${s.org.org.slug}/manifest-bundles/edge/manifests/0.3.0`);
    expect([del.status, del.code]).toEqual([405, 'UNSUPPORTED']);
    expect((await s.http.delete('/api/v2/org-manifest-bundles/edge/versions/0.3.0', { token: owner() })).status).toBe(
      204,
    );
    const gone = await oci.call('GET', `/v2/${s.org.org.slug}/manifest-bundles/edge/manifests/0.3.0`);
    expect([gone.status, gone.code]).toEqual([404, 'MANIFEST_UNKNOWN']);
  });

  it('is invisible to another organization', async () => {
    expect((await orasPull('kustomize-bases/web:1.0.0', s.other.members.owner!.token)).ok).toBe(false);
  });
});
