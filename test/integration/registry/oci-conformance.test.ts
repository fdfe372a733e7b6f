/**
 * The cases of the OCI distribution-spec conformance suite (v1.1, categories pull, push, content discovery, content
 * management) this registry failed (issue 25), written from the suite's expectations since the Go suite cannot run
 * here: docs/security.md A-86..A-88.
 */
import { createHash } from 'node:crypto';
import { makeOrg } from '../../helpers/fixtures';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';
import { sha } from './oci-layout';
import { EMPTY_CONFIG, ociClient } from './oci-protocol';

let platform: TestPlatform;
let client: ReturnType<typeof ociClient>;
let slug: string;

const sha512 = (data: Buffer | string) => `sha512:${createHash('sha512').update(data).digest('hex')}`;
const OCI_MANIFEST = 'application/vnd.oci.image.manifest.v1+json';

beforeAll(async () => {
  platform = await startTestPlatform({ worker: false });
  const org = await makeOrg(platform, ['owner']);
  client = ociClient(platform.url, org.members.owner!.token);
  slug = org.org.slug;
}, 120_000);
afterAll(() => platform.close());

/** A repository of its own per test, so no test depends on another. */
const repoFor = (name: string) => `${slug}/conformance/${name}`;

async function startUpload(repo: string) {
  const start = await client.call('POST', `/v2/${repo}/blobs/uploads/`, undefined, { 'Content-Length': '0' });
  expect(start.status).toBe(202);
  return start.headers.get('location')!;
}

describe('push: chunked upload (A-86)', () => {
  it('a final PUT whose Content-Range does not start where the upload stands answers 416 and keeps the upload', async () => {
    const repo = repoFor('chunked');
    const data = Buffer.from('0123456789abcdefghij');
    const location = await startUpload(repo);
    const first = await client.call('PATCH', location, data.subarray(0, 10), {
      'Content-Type': 'application/octet-stream',
      'Content-Range': '0-9',
    });
    expect(first.status).toBe(202);
    const next = first.headers.get('location')!;
    const outOfOrder = await client.call('PUT', `${next}?digest=${sha(data)}`, data.subarray(12), {
      'Content-Type': 'application/octet-stream',
      'Content-Range': '12-19',
    });
    expect([outOfOrder.status, outOfOrder.code]).toEqual([416, 'BLOB_UPLOAD_INVALID']);
    const status = await client.call('GET', next);
    expect([status.status, status.headers.get('range')]).toEqual([204, '0-9']);
    const done = await client.call('PUT', `${next}?digest=${sha(data)}`, data.subarray(10), {
      'Content-Type': 'application/octet-stream',
      'Content-Range': '10-19',
    });
    expect([done.status, done.headers.get('location')]).toEqual([201, `/v2/${repo}/blobs/${sha(data)}`]);
  });
});

describe('pull and push: malformed digest references (A-87)', () => {
  it('GET and PUT of manifests/sha256:baddigeststring answer 400 DIGEST_INVALID, not 405', async () => {
    const repo = repoFor('bad-digest');
    expect((await client.pushBlob(repo, '{}')).status).toBe(201);
    const manifest = { schemaVersion: 2, mediaType: OCI_MANIFEST, config: EMPTY_CONFIG, layers: [] };
    const put = await client.pushManifest(repo, 'sha256:baddigeststring', manifest);
    expect([put.status, put.code]).toEqual([400, 'DIGEST_INVALID']);
    const get = await client.call('GET', `/v2/${repo}/manifests/sha256:baddigeststring`);
    expect([get.status, get.code]).toEqual([400, 'DIGEST_INVALID']);
    const badTag = await client.call('GET', `/v2/${repo}/manifests/-leading-dash`);
    expect(badTag.status).toBe(400);
    const referrers = await client.call('GET', `/v2/${repo}/referrers/sha256:baddigeststring`);
    expect([referrers.status, referrers.code]).toEqual([400, 'DIGEST_INVALID']);
  });
});

describe('sha512 digests (A-88)', () => {
  it('blobs upload monolithically and in chunks under sha512 and are served by it; a mismatch stores nothing', async () => {
    const repo = repoFor('sha512-blobs');
    const data = 'content addressed by sha512';
    const mono = await client.pushBlob(repo, data, sha512(data));
    expect([mono.status, mono.headers.get('docker-content-digest')]).toEqual([201, sha512(data)]);
    const got = await client.call('GET', `/v2/${repo}/blobs/${sha512(data)}`);
    expect([got.status, got.bytes.toString()]).toEqual([200, data]);

    const chunked = Buffer.from('another sha512 blob, in two chunks');
    const location = await startUpload(repo);
    const first = await client.call('PATCH', location, chunked.subarray(0, 8), { 'Content-Range': '0-7' });
    const done = await client.call(
      'PUT',
      `${first.headers.get('location')}?digest=${sha512(chunked)}`,
      chunked.subarray(8),
      {
        'Content-Range': `8-${chunked.length - 1}`,
      },
    );
    expect(done.status).toBe(201);
    expect((await client.call('HEAD', `/v2/${repo}/blobs/${sha512(chunked)}`)).status).toBe(200);

    const wrong = await client.pushBlob(repo, 'not this', sha512('something else'));
    expect([wrong.status, wrong.code]).toEqual([400, 'DIGEST_INVALID']);
    expect((await client.call('HEAD', `/v2/${repo}/blobs/${sha512('something else')}`)).status).toBe(404);
  });

  it('a manifest pushed by sha512 digest over sha512 blobs is served by that digest and by tag', async () => {
    const repo = repoFor('sha512-manifest');
    const layer = 'layer bytes';
    expect((await client.pushBlob(repo, '{}', sha512('{}'))).status).toBe(201);
    expect((await client.pushBlob(repo, layer, sha512(layer))).status).toBe(201);
    const manifest = {
      schemaVersion: 2,
      mediaType: OCI_MANIFEST,
      config: { ...EMPTY_CONFIG, digest: sha512('{}') },
      layers: [{ mediaType: 'application/octet-stream', digest: sha512(layer), size: layer.length }],
    };
    const body = JSON.stringify(manifest);
    const byDigest = await client.pushManifest(repo, sha512(body), manifest);
    expect([byDigest.status, byDigest.headers.get('docker-content-digest')]).toEqual([201, sha512(body)]);
    const get = await client.call('GET', `/v2/${repo}/manifests/${sha512(body)}`);
    expect([get.status, get.bytes.toString()]).toEqual([200, body]);
    expect((await client.pushManifest(repo, 'v1', manifest)).status).toBe(201);
    expect((await client.call('GET', `/v2/${repo}/manifests/v1`)).status).toBe(200);
    const mismatch = await client.pushManifest(repo, sha512('other'), manifest);
    expect([mismatch.status, mismatch.code]).toEqual([400, 'DIGEST_INVALID']);
    expect((await client.call('DELETE', `/v2/${repo}/manifests/${sha512(body)}`)).status).toBe(202);
    expect((await client.call('GET', `/v2/${repo}/manifests/${sha512(body)}`)).status).toBe(404);
  });
});

describe('non-distributable layers (A-88)', () => {
  it('a manifest naming non-distributable or foreign layers that were never uploaded is accepted', async () => {
    const repo = repoFor('nondistributable');
    const layer = 'a normal layer';
    expect((await client.pushBlob(repo, '{}')).status).toBe(201);
    expect((await client.pushBlob(repo, layer)).status).toBe(201);
    const remote = (mediaType: string, seed: string) => ({
      mediaType,
      digest: sha(seed),
      size: 123456,
      urls: [`https://store.example.com/blobs/sha256/${sha(seed).slice(7)}`],
    });
    const manifest = {
      schemaVersion: 2,
      mediaType: OCI_MANIFEST,
      config: EMPTY_CONFIG,
      layers: [
        remote('application/vnd.oci.image.layer.nondistributable.v1.tar+gzip', 'nd-gz'),
        remote('application/vnd.oci.image.layer.nondistributable.v1.tar', 'nd'),
        { mediaType: 'application/vnd.oci.image.layer.v1.tar+gzip', digest: sha(layer), size: layer.length },
      ],
    };
    const res = await client.pushManifest(repo, 'non-distributable-image', manifest);
    expect(res.status).toBe(201);
    const docker = {
      schemaVersion: 2,
      mediaType: 'application/vnd.docker.distribution.manifest.v2+json',
      config: { mediaType: 'application/vnd.docker.container.image.v1+json', digest: sha('{}'), size: 2 },
      layers: [remote('application/vnd.docker.image.rootfs.foreign.diff.tar.gzip', 'foreign')],
    };
    const foreign = await client.pushManifest(repo, 'foreign', docker, docker.mediaType);
    expect(foreign.status).toBe(201);
    // A distributable layer that was never uploaded is still refused.
    const missing = { ...manifest, layers: [{ ...manifest.layers[2]!, digest: sha('never uploaded') }] };
    const refused = await client.pushManifest(repo, 'missing', missing);
    expect([refused.status, refused.code]).toEqual([404, 'MANIFEST_BLOB_UNKNOWN']);
  });
});
