import type { AttemptResult, OutboundRequest } from '../../../src/net/safe-http';
import { createRegistryClient } from '../../../src/watch/registry-client';

const DIGEST = `sha256:${'1'.repeat(64)}`;
const answer = (responseStatus: number, extra: Partial<AttemptResult> = {}): AttemptResult => ({
  status: responseStatus < 300 ? 'success' : 'failed',
  responseStatus,
  responseBody: null,
  error: null,
  durationMs: 1,
  headers: {},
  ...extra,
});

/** A registry whose tag lists take `listMs` and whose manifests answer at once; it records what it was sent. */
function fakeRegistry(opts: { listMs: number; bearer?: boolean }) {
  const sent: OutboundRequest[] = [];
  const send = async (req: OutboundRequest): Promise<AttemptResult> => {
    sent.push(req);
    const url = new URL(req.url);
    if (url.pathname === '/token') return answer(200, { responseBody: '{"token":"t"}' });
    if (opts.bearer && req.headers.authorization !== 'Bearer t') {
      return answer(401, { headers: { 'www-authenticate': 'Bearer realm="https://r.example/token"' } });
    }
    if (url.pathname.endsWith('/tags/list')) {
      await new Promise((r) => setTimeout(r, opts.listMs));
      const last = url.searchParams.get('last');
      return last
        ? answer(200, { responseBody: '{"tags":["1.2.0"]}' })
        : answer(200, {
            responseBody: '{"tags":["1.0.0","1.1.0"]}',
            headers: { link: '</v2/a/tags/list?n=2&last=1.1.0>; rel="next"' },
          });
    }
    return answer(200, { headers: { 'docker-content-digest': DIGEST } });
  };
  return { sent, send };
}

describe('registry client counts', () => {
  it('counts only its tag-list requests as such while manifests of other repositories are read at the same time', async () => {
    // A poll's lanes share one client: a difference of `requests` around listTags would count the HEADs too.
    const registry = fakeRegistry({ listMs: 20 });
    const client = createRegistryClient(registry.send, 'https://r.example', null, { pageSize: 2, maxPages: 5 });
    const [listed] = await Promise.all([
      client.listTags('a', null),
      (async () => {
        for (const tag of ['1.0.0', '1.1.0', 'stable']) expect((await client.digestOf('b', tag, null)).kind).toBe('ok');
      })(),
    ]);
    expect(listed).toEqual({ kind: 'ok', value: { tags: ['1.0.0', '1.1.0', '1.2.0'], etag: null } });
    expect(registry.sent.map((r) => r.method)).toEqual(['GET', 'HEAD', 'HEAD', 'HEAD', 'GET']);
    expect(client.counts).toEqual({ requests: 5, tagLists: 2 });
  });

  it('counts a tag list retried with the bearer token twice, and the token request only among all requests', async () => {
    const registry = fakeRegistry({ listMs: 0, bearer: true });
    const client = createRegistryClient(
      registry.send,
      'https://r.example',
      { username: 'u', password: 'p' },
      {
        pageSize: 10,
        maxPages: 5,
      },
    );
    await client.listTags('a', null);
    expect(registry.sent.map((r) => new URL(r.url).pathname)).toEqual([
      '/v2/a/tags/list',
      '/token',
      '/v2/a/tags/list',
      '/v2/a/tags/list',
    ]);
    expect(client.counts).toEqual({ requests: 4, tagLists: 3 });
  });
});
