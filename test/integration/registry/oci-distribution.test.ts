import fs from 'node:fs';
import path from 'node:path';
import { makeOrg } from '../../helpers/fixtures';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';
import { DOMAIN_EVENT, listDomainEvents } from '../../../src/events/domain-event-repository';
import { sha } from './oci-layout';
import { artifactManifest, ociClient } from './oci-protocol';

let platform: TestPlatform;
let org: Awaited<ReturnType<typeof makeOrg>>;
let other: Awaited<ReturnType<typeof makeOrg>>;
let owner: ReturnType<typeof ociClient>;
let viewer: ReturnType<typeof ociClient>;
let stranger: ReturnType<typeof ociClient>;
let repo: string;

beforeAll(async () => {
  platform = await startTestPlatform();
  org = await makeOrg(platform, ['owner', 'viewer']);
  other = await makeOrg(platform, ['owner']);
  owner = ociClient(platform.url, org.members.owner!.token);
  viewer = ociClient(platform.url, org.members.viewer!.token);
  stranger = ociClient(platform.url, other.members.owner!.token);
  repo = `${org.org.slug}/charts/app`;
  expect((await owner.pushBlob(repo, '{}')).status).toBe(201);
}, 120_000);
afterAll(() => platform.close());

const blobFile = (digest: string) =>
  path.join(platform.config.dataDir, 'registry', 'blobs', 'sha256', digest.slice(7, 9), digest.slice(7));

describe('the OCI distribution API', () => {
  it('challenges anonymous callers with the Bearer realm, and the token endpoint exchanges Basic credentials', async () => {
    const res = await fetch(`${platform.url}/v2/`);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(
      /^Bearer realm="http:\/\/127\.0\.0\.1:\d+\/v2\/token",service=/,
    );
    const scope = `repository:${repo}:pull,push`;
    const token = await owner.call('GET', `/v2/token?service=x&scope=${encodeURIComponent(scope)}`);
    expect(token.status).toBe(200);
    const bearer = token.json.token as string;
    const ping = await fetch(`${platform.url}/v2/`, { headers: { Authorization: `Bearer ${bearer}` } });
    expect(ping.status).toBe(200);
    const bad = await fetch(`${platform.url}/v2/${repo}/tags/list`, { headers: { Authorization: 'Bearer nope' } });
    expect([bad.status, ((await bad.json()) as { errors: { code: string }[] }).errors[0]!.code]).toEqual([
      401,
      'UNAUTHORIZED',
    ]);
  });

  it('uploads in chunks with Content-Range and Location, then serves the blob whole and by range', async () => {
    const data = Buffer.from('0123456789abcdefghij');
    const start = await owner.call('POST', `/v2/${repo}/blobs/uploads/`);
    expect(start.status).toBe(202);
    let location = start.headers.get('location')!;
    const first = await owner.call('PATCH', location, data.subarray(0, 10), { 'Content-Range': '0-9' });
    expect([first.status, first.headers.get('range')]).toEqual([202, '0-9']);
    location = first.headers.get('location')!;
    const outOfOrder = await owner.call('PATCH', location, data.subarray(10), { 'Content-Range': '5-14' });
    expect(outOfOrder.code).toBe('BLOB_UPLOAD_INVALID');
    expect(outOfOrder.status).toBe(416);
    const second = await owner.call('PATCH', location, data.subarray(10), { 'Content-Range': '10-19' });
    expect(second.headers.get('range')).toBe('0-19');
    const done = await owner.call('PUT', `${location}?digest=${sha(data)}`);
    expect([done.status, done.headers.get('docker-content-digest')]).toEqual([201, sha(data)]);

    const head = await owner.call('HEAD', `/v2/${repo}/blobs/${sha(data)}`);
    expect([head.status, head.headers.get('content-length')]).toEqual([200, '20']);
    const part = await viewer.call('GET', `/v2/${repo}/blobs/${sha(data)}`, undefined, { Range: 'bytes=5-9' });
    expect([part.status, part.headers.get('content-range'), part.bytes.toString()]).toEqual([
      206,
      'bytes 5-9/20',
      '56789',
    ]);
  });

  it('refuses a wrong digest with DIGEST_INVALID and stores nothing', async () => {
    const claimed = sha('something else');
    const res = await owner.pushBlob(repo, 'actual content', claimed);
    expect([res.status, res.code]).toEqual([400, 'DIGEST_INVALID']);
    expect(fs.existsSync(blobFile(claimed))).toBe(false);
    expect(fs.existsSync(blobFile(sha('actual content')))).toBe(false);
    expect(fs.readdirSync(path.join(platform.config.dataDir, 'registry', 'uploads'))).toEqual([]);
    expect((await owner.call('HEAD', `/v2/${repo}/blobs/${claimed}`)).status).toBe(404);
    const malformed = await owner.call('GET', `/v2/${repo}/blobs/sha256:nothex`);
    expect([malformed.status, malformed.code]).toEqual([400, 'DIGEST_INVALID']);
  });

  it('mounts a blob from another repository of the organization, never from another organization', async () => {
    const layer = 'mounted layer';
    await owner.pushBlob(repo, layer);
    const mount = await owner.call(
      'POST',
      `/v2/${org.org.slug}/copy/blobs/uploads/?mount=${sha(layer)}&from=${encodeURIComponent(repo)}`,
    );
    expect([mount.status, mount.headers.get('location')]).toEqual([
      201,
      `/v2/${org.org.slug}/copy/blobs/${sha(layer)}`,
    ]);
    const foreign = await stranger.call(
      'POST',
      `/v2/${other.org.slug}/steal/blobs/uploads/?mount=${sha(layer)}&from=${encodeURIComponent(repo)}`,
    );
    expect(foreign.status).toBe(202);
    expect((await stranger.call('HEAD', `/v2/${other.org.slug}/steal/blobs/${sha(layer)}`)).status).toBe(404);
  });

  it('pushes manifests by tag, lists tags with n and last, and answers referrers', async () => {
    await owner.pushBlob(repo, 'layer-1');
    const subject = artifactManifest('layer-1', 'application/vnd.acme.app.v1');
    for (const tag of ['1.0.0', '1.1.0', '2.0.0']) {
      expect((await owner.pushManifest(repo, tag, subject)).status).toBe(201);
    }
    const missing = await owner.pushManifest(repo, 'broken', artifactManifest('not pushed', 'x/y'));
    expect([missing.status, missing.code]).toEqual([404, 'MANIFEST_BLOB_UNKNOWN']);
    const invalid = await owner.call('PUT', `/v2/${repo}/manifests/bad`, '{"schemaVersion":1}', {
      'Content-Type': 'application/vnd.oci.image.manifest.v1+json',
    });
    expect([invalid.status, invalid.code]).toEqual([400, 'MANIFEST_INVALID']);

    const firstPage = await viewer.call('GET', `/v2/${repo}/tags/list?n=2`);
    expect(firstPage.json).toEqual({ name: repo, tags: ['1.0.0', '1.1.0'] });
    expect(firstPage.headers.get('link')).toBe(`</v2/${repo}/tags/list?n=2&last=1.1.0>; rel="next"`);
    expect((await viewer.call('GET', `/v2/${repo}/tags/list?n=2&last=1.1.0`)).json.tags).toEqual(['2.0.0']);

    const subjectDigest = sha(JSON.stringify(subject));
    const got = await viewer.call('GET', `/v2/${repo}/manifests/1.0.0`);
    expect([got.headers.get('docker-content-digest'), got.headers.get('content-type')]).toEqual([
      subjectDigest,
      'application/vnd.oci.image.manifest.v1+json',
    ]);
    await owner.pushBlob(repo, 'signature');
    const size = Buffer.byteLength(JSON.stringify(subject));
    const signature = artifactManifest('signature', 'application/vnd.acme.signature', { digest: subjectDigest, size });
    const put = await owner.pushManifest(repo, sha(JSON.stringify(signature)), signature);
    expect([put.status, put.headers.get('oci-subject')]).toEqual([201, subjectDigest]);
    const referrers = await viewer.call('GET', `/v2/${repo}/referrers/${subjectDigest}`);
    expect(referrers.json.manifests).toEqual([
      expect.objectContaining({
        digest: sha(JSON.stringify(signature)),
        artifactType: 'application/vnd.acme.signature',
      }),
    ]);
    const filtered = await viewer.call('GET', `/v2/${repo}/referrers/${subjectDigest}?artifactType=other`);
    expect(filtered.json.manifests).toEqual([]);
  });

  it('deletes tags, manifests and blobs with the specification codes, audited', async () => {
    const del = await owner.call('DELETE', `/v2/${repo}/manifests/2.0.0`);
    expect(del.status).toBe(202);
    const again = await owner.call('DELETE', `/v2/${repo}/manifests/2.0.0`);
    expect([again.status, again.code]).toEqual([404, 'MANIFEST_UNKNOWN']);
    expect((await viewer.call('GET', `/v2/${repo}/manifests/2.0.0`)).code).toBe('MANIFEST_UNKNOWN');
    const blob = sha('layer-1');
    expect((await viewer.call('DELETE', `/v2/${repo}/blobs/${blob}`)).code).toBe('DENIED');
    expect((await owner.call('DELETE', `/v2/${repo}/blobs/${blob}`)).status).toBe(202);
    const gone = await owner.call('GET', `/v2/${repo}/blobs/${blob}`);
    expect([gone.status, gone.code]).toEqual([404, 'BLOB_UNKNOWN']);
    const audit = await platform.services.audit.list({ organizationId: org.org.id, limit: 100 });
    const actions = audit.items.map((e) => `${e.category}:${e.action}`);
    expect(actions).toEqual(
      expect.arrayContaining([
        'configuration:registry.manifest.push',
        'configuration:registry.manifest.delete',
        'configuration:registry.blob.delete',
      ]),
    );
    const events = await listDomainEvents(platform.services.db, org.org.id, 0);
    expect(events.map((e) => e.type)).toEqual(
      expect.arrayContaining([DOMAIN_EVENT.registryManifestPushed, DOMAIN_EVENT.registryManifestDeleted]),
    );
  });

  it("answers NAME_UNKNOWN for another organization's repository, and a viewer cannot push", async () => {
    for (const path of [`/v2/${repo}/tags/list`, `/v2/${repo}/manifests/1.0.0`]) {
      const res = await stranger.call('GET', path);
      expect([res.status, res.code]).toEqual([404, 'NAME_UNKNOWN']);
    }
    expect((await stranger.pushBlob(repo, 'x')).code).toBe('NAME_UNKNOWN');
    expect((await viewer.call('GET', `/v2/${org.org.slug}/nothing/tags/list`)).code).toBe('NAME_UNKNOWN');
    const push = await viewer.pushBlob(repo, 'x');
    expect([push.status, push.code]).toEqual([403, 'DENIED']);
  });

  it('expires an unfinished upload and collects blobs no repository links', async () => {
    const start = await owner.call('POST', `/v2/${repo}/blobs/uploads/`);
    const location = start.headers.get('location')!;
    await platform.services.db('oci_uploads').update({ updated_at: new Date(Date.now() - 2 * 3600 * 1000) });
    const orphan = sha('layer-1');
    expect(fs.existsSync(blobFile(orphan))).toBe(true);
    // Within the grace period (REGISTRY_GC_GRACE_SECONDS, 1 hour by default) an unlinked blob stays.
    const kept = await platform.services.registry.collectGarbage();
    // The expired uploads: this one and the stranger's unmounted one.
    expect([kept.blobsRemoved, kept.blobsInGrace, kept.uploadsExpired]).toEqual([0, 1, 2]);
    expect(fs.existsSync(blobFile(orphan))).toBe(true);
    const gc = await platform.services.registry.collectGarbage(0);
    expect([gc.blobsRemoved, gc.blobsInGrace, gc.uploadsExpired]).toEqual([1, 0, 0]);
    expect(fs.existsSync(blobFile(orphan))).toBe(false);
    const late = await owner.call('PATCH', location, 'x');
    expect([late.status, late.code]).toEqual([404, 'BLOB_UPLOAD_UNKNOWN']);
    expect(fs.existsSync(blobFile(sha('signature')))).toBe(true);
  });

  it("lists only the organization's repositories in the catalog", async () => {
    const catalog = await viewer.call('GET', '/v2/_catalog');
    expect(catalog.json.repositories).toEqual([`${org.org.slug}/charts/app`, `${org.org.slug}/copy`]);
    const page = await viewer.call('GET', '/v2/_catalog?n=1');
    expect(page.json.repositories).toEqual([`${org.org.slug}/charts/app`]);
    expect((await stranger.call('GET', '/v2/_catalog')).json.repositories).toEqual([`${other.org.slug}/steal`]);
  });
});

describe('project API keys as registry credentials', () => {
  async function key(slug: string, scopes: string[]) {
    const headers = { Authorization: `Bearer ${org.members.owner!.token}`, 'Content-Type': 'application/json' };
    const res = await fetch(`${platform.url}/api/v2/projects/${slug}/api-keys`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ name: scopes.join('+'), scopes }),
    });
    expect(res.status).toBe(201);
    return ociClient(platform.url, ((await res.json()) as { key: string }).key);
  }

  it('pull with a read key, push with a write key, nothing in another organization', async () => {
    const headers = { Authorization: `Bearer ${org.members.owner!.token}`, 'Content-Type': 'application/json' };
    const project = await fetch(`${platform.url}/api/v2/projects`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ slug: 'keyed', name: 'Keyed' }),
    });
    expect(project.status).toBe(201);
    const reader = await key('keyed', ['read']);
    const writer = await key('keyed', ['write']);
    expect((await reader.call('GET', `/v2/${repo}/blobs/${sha('{}')}`)).status).toBe(200);
    const refused = await reader.pushBlob(repo, 'from a read key');
    expect([refused.status, refused.code]).toEqual([403, 'DENIED']);
    expect((await writer.pushBlob(repo, 'from a write key')).status).toBe(201);
    const foreign = await writer.call('GET', `/v2/${other.org.slug}/charts/app/tags/list`);
    expect(foreign.code).toBe('NAME_UNKNOWN');
  });
});
