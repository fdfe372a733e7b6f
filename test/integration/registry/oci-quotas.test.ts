import { makeOrg } from '../../helpers/fixtures';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';
import { ociClient } from './oci-protocol';

let platform: TestPlatform;

beforeAll(async () => {
  platform = await startTestPlatform({
    worker: false,
    env: {
      REGISTRY_MAX_BYTES_PER_ORG: '1000',
      REGISTRY_MAX_REPOSITORIES_PER_ORG: '2',
      REGISTRY_MAX_UPLOADS_PER_ORG: '3',
    },
  });
}, 120_000);
afterAll(() => platform.close());

/** Each test gets an organization of its own: its quotas start empty whatever ran before. */
async function freshOrg() {
  const org = await makeOrg(platform, ['owner']);
  return {
    client: ociClient(platform.url, org.members.owner!.token),
    slug: org.org.slug,
    token: org.members.owner!.token,
  };
}

describe('registry quotas per organization', () => {
  it('refuses a blob beyond the storage quota with 413, counting a blob linked twice once', async () => {
    const { client, slug } = await freshOrg();
    expect((await client.pushBlob(`${slug}/a`, 'x'.repeat(600))).status).toBe(201);
    expect((await client.pushBlob(`${slug}/b`, 'x'.repeat(600))).status).toBe(201);
    const over = await client.pushBlob(`${slug}/a`, 'y'.repeat(600));
    expect([over.status, over.code]).toEqual([413, 'DENIED']);
    expect(over.json.errors).toEqual([expect.objectContaining({ message: expect.stringMatching(/quota/) })]);
  });

  it('refuses a repository beyond the limit with 429 TOOMANYREQUESTS', async () => {
    const { client, slug } = await freshOrg();
    expect((await client.pushBlob(`${slug}/a`, 'a')).status).toBe(201);
    expect((await client.pushBlob(`${slug}/b`, 'b')).status).toBe(201);
    const res = await client.pushBlob(`${slug}/c`, 'z');
    expect([res.status, res.code]).toEqual([429, 'TOOMANYREQUESTS']);
  });

  it('unfinished uploads count against the byte quota (A-83): bytes parked in uploads cannot pass it', async () => {
    const { client, slug } = await freshOrg();
    const parked = [];
    for (let i = 0; i < 2; i += 1) {
      const start = await client.call('POST', `/v2/${slug}/a/blobs/uploads/`);
      const chunk = await client.call('PATCH', start.headers.get('location')!, 'p'.repeat(450));
      expect(chunk.status).toBe(202);
      parked.push(chunk.headers.get('location')!);
    }
    const start = await client.call('POST', `/v2/${slug}/a/blobs/uploads/`);
    const over = await client.call('PATCH', start.headers.get('location')!, 'q'.repeat(200));
    expect([over.status, over.code]).toEqual([413, 'DENIED']);
    const monolithic = await client.pushBlob(`${slug}/a`, 'r'.repeat(200));
    expect([monolithic.status, monolithic.code]).toEqual([413, 'DENIED']);
    // Cancelling a parked upload gives its bytes back.
    expect((await client.call('DELETE', parked[0]!)).status).toBe(204);
    expect((await client.pushBlob(`${slug}/a`, 'r'.repeat(200))).status).toBe(201);
  });

  it('caps unfinished uploads per organization with 429 TOOMANYREQUESTS (A-83)', async () => {
    const { client, slug } = await freshOrg();
    const locations = [];
    for (let i = 0; i < 3; i += 1) {
      const start = await client.call('POST', `/v2/${slug}/a/blobs/uploads/`);
      expect(start.status).toBe(202);
      locations.push(start.headers.get('location')!);
    }
    const fourth = await client.call('POST', `/v2/${slug}/a/blobs/uploads/`);
    expect([fourth.status, fourth.code]).toEqual([429, 'TOOMANYREQUESTS']);
    expect((await client.call('DELETE', locations[0]!)).status).toBe(204);
    expect((await client.call('POST', `/v2/${slug}/a/blobs/uploads/`)).status).toBe(202);
  });

  it('a catalog upload at the repository cap answers 429, not 500 (A-84)', async () => {
    const { client, slug, token } = await freshOrg();
    expect((await client.pushBlob(`${slug}/a`, 'a')).status).toBe(201);
    expect((await client.pushBlob(`${slug}/b`, 'b')).status).toBe(201);
    const res = await fetch(`${platform.url}/api/v2/org-kustomize-bases`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        name: 'base',
        version: '1.0.0',
        kubernetesVersion: '1.30',
        files: {
          'kustomization.yaml': 'resources:\n  - cm.yaml\n',
          'cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n',
        },
      }),
    });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).not.toBeNull();
    expect(((await res.json()) as { error: string }).error).toMatch(/limit of 2 repositories/);
  });
});
