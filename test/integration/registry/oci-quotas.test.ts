import { makeOrg } from '../../helpers/fixtures';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';
import { ociClient } from './oci-protocol';

let platform: TestPlatform;
let client: ReturnType<typeof ociClient>;
let slug: string;

beforeAll(async () => {
  platform = await startTestPlatform({
    env: { REGISTRY_MAX_BYTES_PER_ORG: '1000', REGISTRY_MAX_REPOSITORIES_PER_ORG: '2' },
  });
  const org = await makeOrg(platform, ['owner']);
  client = ociClient(platform.url, org.members.owner!.token);
  slug = org.org.slug;
}, 120_000);
afterAll(() => platform.close());

describe('registry quotas per organization', () => {
  it('refuses a blob beyond the storage quota with 413, counting a blob linked twice once', async () => {
    expect((await client.pushBlob(`${slug}/a`, 'x'.repeat(600))).status).toBe(201);
    expect((await client.pushBlob(`${slug}/b`, 'x'.repeat(600))).status).toBe(201);
    const over = await client.pushBlob(`${slug}/a`, 'y'.repeat(600));
    expect([over.status, over.code]).toEqual([413, 'DENIED']);
    expect(over.json.errors).toEqual([expect.objectContaining({ message: expect.stringMatching(/quota/) })]);
  });

  it('refuses a repository beyond the limit with 429 TOOMANYREQUESTS', async () => {
    const res = await client.pushBlob(`${slug}/c`, 'z');
    expect([res.status, res.code]).toEqual([429, 'TOOMANYREQUESTS']);
  });
});
