import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { makeOrg } from '../../helpers/fixtures';
import { startS3Server, type S3Server } from '../../helpers/s3-server';
import { sharedSettings, startTestPlatform, type TestPlatform } from '../../helpers/test-platform';
import { loadRegistryConfig } from '../../../src/config/registry';
import { UploadTooLarge, type BlobStore } from '../../../src/registry/blob-store';
import { createS3BlobStore } from '../../../src/registry/s3-blob-store';
import { artifactManifest, EMPTY_CONFIG, ociClient } from './oci-protocol';
import { sha } from './oci-layout';

/**
 * Issue 34 item 2: registry blobs and uploads in S3-compatible object storage, against a real local S3 server (moto's
 * server mode). Two API processes of one deployment, each with a DATA_DIR of its own, share the database and the
 * bucket: what is pushed through one is pulled through the other.
 */
let s3: S3Server;
let first: TestPlatform;
let second: TestPlatform;
let store: BlobStore;

beforeAll(async () => {
  s3 = await startS3Server();
  await s3.createBucket('registry');
  first = await startTestPlatform({ env: s3.settings('registry', 'deployment-a'), worker: false });
  second = await startTestPlatform({
    env: { ...s3.settings('registry', 'deployment-a'), ...sharedSettings(first.config) },
    worker: false,
    database: first.database,
  });
  store = storeUnder('store-test');
}, 300_000);
afterAll(async () => {
  await second?.close();
  await first?.close();
  await s3?.stop();
});

const storeUnder = (prefix: string) =>
  createS3BlobStore(loadRegistryConfig(s3.settings('registry', prefix)).objectStore!, first.config.dataDir);
const localBlobs = (platform: TestPlatform) => path.join(platform.config.dataDir, 'registry', 'blobs');

describe('registry blobs in object storage', () => {
  it('pushes through one API and pulls through another, nothing under either DATA_DIR', async () => {
    expect(first.config.dataDir).not.toBe(second.config.dataDir);
    const { org, members } = await makeOrg(first, ['owner']);
    const pusher = ociClient(first.url, members.owner!.token);
    const puller = ociClient(second.url, members.owner!.token);
    const repo = `${org.slug}/charts/shared`;

    // A layer in two chunks (two objects joined at commit), the config whole.
    const layer = Buffer.from('layer bytes pushed in two chunks');
    const start = await pusher.call('POST', `/v2/${repo}/blobs/uploads/`);
    expect(start.status).toBe(202);
    const one = await pusher.call('PATCH', start.headers.get('location')!, layer.subarray(0, 11), {
      'Content-Range': '0-10',
    });
    expect([one.status, one.headers.get('range')]).toEqual([202, '0-10']);
    // The upload continues through the other API: its state is in the database and the bucket, not in a process.
    const two = await puller.call('PATCH', one.headers.get('location')!, layer.subarray(11), {
      'Content-Range': `11-${layer.length - 1}`,
    });
    expect([two.status, two.headers.get('range')]).toEqual([202, `0-${layer.length - 1}`]);
    const done = await pusher.call('PUT', `${two.headers.get('location')!}?digest=${sha(layer)}`);
    expect([done.status, done.headers.get('docker-content-digest')]).toEqual([201, sha(layer)]);
    expect((await pusher.pushBlob(repo, '{}')).status).toBe(201);
    const manifest = artifactManifest(layer.toString(), 'application/vnd.example.shared');
    expect((await pusher.pushManifest(repo, 'v1', manifest)).status).toBe(201);

    const pulled = await puller.call('GET', `/v2/${repo}/manifests/v1`, undefined, {
      Accept: 'application/vnd.oci.image.manifest.v1+json',
    });
    expect(pulled.status).toBe(200);
    expect(JSON.parse(pulled.bytes.toString())).toEqual(manifest);
    const blob = await puller.call('GET', `/v2/${repo}/blobs/${sha(layer)}`);
    expect([blob.status, blob.bytes.toString()]).toEqual([200, layer.toString()]);
    const config = await puller.call('GET', `/v2/${repo}/blobs/${EMPTY_CONFIG.digest}`);
    expect([config.status, config.bytes.toString()]).toEqual([200, '{}']);
    const part = await puller.call('GET', `/v2/${repo}/blobs/${sha(layer)}`, undefined, { Range: 'bytes=6-10' });
    expect([part.status, part.headers.get('content-range'), part.bytes.toString()]).toEqual([
      206,
      `bytes 6-10/${layer.length}`,
      'bytes',
    ]);
    const head = await puller.call('HEAD', `/v2/${repo}/blobs/${sha(layer)}`);
    expect([head.status, head.headers.get('content-length')]).toEqual([200, String(layer.length)]);

    expect(fs.existsSync(localBlobs(first))).toBe(false);
    expect(fs.existsSync(localBlobs(second))).toBe(false);
    const listed: string[] = [];
    for await (const digest of storeUnder('deployment-a').list()) listed.push(digest);
    expect(listed.sort()).toEqual([EMPTY_CONFIG.digest, sha(layer)].sort());
  });

  it('refuses a wrong digest and keeps nothing of the upload', async () => {
    const id = await store.startUpload();
    expect(await store.appendUpload(id, Readable.from([Buffer.from('actual')]), 100)).toEqual({
      size: 6,
      digest: sha('actual'),
    });
    expect(await store.commitUpload(id, sha('claimed'), null)).toBeNull();
    expect(await store.uploadSize(id)).toBeNull();
    expect(await store.stat(sha('claimed'))).toBeNull();
    expect(await store.stat(sha('actual'))).toBeNull();
  });

  it('counts appended chunks against the limit, hashes across them, and lists, reads and removes blobs', async () => {
    const id = await store.startUpload();
    expect(await store.uploadSize(id)).toBe(0);
    await store.appendUpload(id, Readable.from([Buffer.from('abc')]), 6);
    expect(await store.appendUpload(id, Readable.from([Buffer.from('def')]), 6)).toEqual({ size: 6, digest: null });
    await expect(store.appendUpload(id, Readable.from([Buffer.from('g')]), 6)).rejects.toThrow(UploadTooLarge);
    expect(await store.uploadSize(id)).toBe(6);
    expect(await store.hashUpload(id, 'sha512')).toBe(`sha512:${sha512('abcdef')}`);
    const before = Date.now() - 1000;
    expect(await store.commitUpload(id, sha('abcdef'), null)).toBe(6);
    expect(await store.uploadSize(id)).toBeNull();
    expect((await store.storedAt(sha('abcdef')))!.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(await text(store.read(sha('abcdef'), { start: 2, end: 4 }))).toBe('cde');

    const stored: string[] = [];
    for await (const digest of store.list()) stored.push(digest);
    expect(stored).toEqual([sha('abcdef')]);
    await store.remove(sha('abcdef'));
    expect(await store.stat(sha('abcdef'))).toBeNull();
  });
});

const sha512 = (data: string) => createHash('sha512').update(data).digest('hex');
