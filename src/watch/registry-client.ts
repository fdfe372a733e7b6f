import type { AttemptResult, SafeSender } from '../net/safe-http';

/** What one registry call came to: data, unchanged (a conditional request's 304), asked to wait (429), or failed. */
export type RegistryAnswer<T> =
  | { kind: 'ok'; value: T }
  | { kind: 'not-modified' }
  | { kind: 'throttled'; retryAfterMs: number | null }
  | { kind: 'failed'; error: string };

export interface RegistryCredentials {
  username: string;
  password: string;
}

const MANIFEST_TYPES = [
  'application/vnd.oci.image.index.v1+json',
  'application/vnd.oci.image.manifest.v1+json',
  'application/vnd.docker.distribution.manifest.list.v2+json',
  'application/vnd.docker.distribution.manifest.v2+json',
].join(', ');

const header = (r: AttemptResult, name: string): string | undefined => {
  const v = r.headers?.[name];
  return Array.isArray(v) ? v[0] : v;
};

/** `<url>; rel="next"` of an OCI tag list's `Link` header (distribution-spec "Listing Tags"). */
export function nextLink(link: string | undefined): string | null {
  if (!link) return null;
  for (const part of link.split(',')) {
    const m = /^\s*<([^>]+)>\s*;(.*)$/.exec(part);
    if (m && /\brel="?next"?/.test(m[2]!)) return m[1]!;
  }
  return null;
}

/** The parameters of a `WWW-Authenticate: Bearer realm=...,service=...,scope=...` challenge. */
function bearerChallenge(value: string | undefined): Record<string, string> | null {
  if (!value || !/^bearer\s/i.test(value)) return null;
  const params: Record<string, string> = {};
  for (const m of value.slice(7).matchAll(/(\w+)="([^"]*)"/g)) params[m[1]!.toLowerCase()] = m[2]!;
  return params.realm ? params : null;
}

export type RegistryClient = ReturnType<typeof createRegistryClient>;

/**
 * The calls a poll makes to one external registry (OCI distribution API), every one through the safe sender (the
 * outbound address policy checked per request, no redirects, timeouts, response cap). Basic credentials are sent as
 * such; a registry that answers with a Bearer challenge gets them at its token realm (checked like any target) and
 * the token is kept for the rest of this client's poll. `requests` counts what was sent, `tagLists` the tag-list
 * requests among them (counted here, where they are sent: a poll's lanes share one client, so a difference of
 * `requests` around one call would also count the other lanes' requests in flight).
 */
export function createRegistryClient(
  send: SafeSender,
  baseUrl: string,
  credentials: RegistryCredentials | null,
  opts: { pageSize: number; maxPages: number },
) {
  const base = new URL(baseUrl);
  const basic = credentials
    ? `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')}`
    : null;
  let bearer: string | null = null;
  const counts = { requests: 0, tagLists: 0 };

  async function token(challenge: Record<string, string>): Promise<string | null> {
    const url = new URL(challenge.realm!);
    if (challenge.service) url.searchParams.set('service', challenge.service);
    if (challenge.scope) url.searchParams.set('scope', challenge.scope);
    counts.requests += 1;
    const r = await send({ url: url.toString(), method: 'GET', headers: basic ? { authorization: basic } : {} });
    if (r.status !== 'success' || !r.responseBody) return null;
    try {
      const body = JSON.parse(r.responseBody) as { token?: unknown; access_token?: unknown };
      const t = body.token ?? body.access_token;
      return typeof t === 'string' ? t : null;
    } catch {
      return null;
    }
  }

  async function call(url: string, method: 'GET' | 'HEAD', headers: Record<string, string>): Promise<AttemptResult> {
    const auth = (): Record<string, string> => {
      const value = bearer ? `Bearer ${bearer}` : basic;
      return value ? { authorization: value } : {};
    };
    const tagList = new URL(url).pathname.endsWith('/tags/list');
    const sent = () => {
      counts.requests += 1;
      if (tagList) counts.tagLists += 1;
      return send({ url, method, headers: { ...headers, ...auth() } });
    };
    let r = await sent();
    const challenge = r.responseStatus === 401 && !bearer ? bearerChallenge(header(r, 'www-authenticate')) : null;
    if (challenge) {
      bearer = await token(challenge);
      if (bearer) r = await sent();
    }
    return r;
  }

  function problem(r: AttemptResult): RegistryAnswer<never> | null {
    if (r.responseStatus === 304) return { kind: 'not-modified' };
    if (r.responseStatus === 429) return { kind: 'throttled', retryAfterMs: r.retryAfterMs ?? null };
    if (r.status === 'success') return null;
    return { kind: 'failed', error: r.error ?? `HTTP ${String(r.responseStatus)}` };
  }

  return {
    counts,

    /**
     * Every tag of a repository, following the `Link` pagination (same origin only, at most `maxPages`). The first
     * page is a conditional request when an ETag is known; its 304 means the tag list did not change.
     */
    async listTags(
      repository: string,
      etag: string | null,
    ): Promise<RegistryAnswer<{ tags: string[]; etag: string | null }>> {
      let url: string | null = new URL(`/v2/${repository}/tags/list?n=${opts.pageSize}`, base).toString();
      const tags: string[] = [];
      let firstEtag: string | null = null;
      for (let page = 0; url !== null; page += 1) {
        if (page >= opts.maxPages) return { kind: 'failed', error: `more than ${opts.maxPages} pages of tags` };
        const r = await call(url, 'GET', page === 0 && etag ? { 'if-none-match': etag } : {});
        const bad = problem(r);
        if (bad) return bad;
        if (page === 0) firstEtag = header(r, 'etag') ?? null;
        let body: { tags?: unknown };
        try {
          body = JSON.parse(r.responseBody ?? '') as { tags?: unknown };
        } catch {
          return { kind: 'failed', error: 'tag list is not JSON (or larger than the response cap)' };
        }
        if (Array.isArray(body.tags)) for (const t of body.tags) if (typeof t === 'string') tags.push(t);
        const next = nextLink(header(r, 'link'));
        const resolved: URL | null = next === null ? null : new URL(next, url);
        if (resolved && resolved.origin !== base.origin)
          return { kind: 'failed', error: 'tag list page on another host' };
        url = resolved ? resolved.toString() : null;
      }
      return { kind: 'ok', value: { tags, etag: firstEtag } };
    },

    /**
     * A manifest (by digest) or a blob's text, at most `maxBytes` (the image config behind `created`, image-created.ts).
     * A registry that redirects blobs elsewhere (object storage) fails here: redirects are not followed.
     */
    async document(
      repository: string,
      kind: 'manifests' | 'blobs',
      digest: string,
      maxBytes: number,
    ): Promise<RegistryAnswer<string>> {
      const url = new URL(`/v2/${repository}/${kind}/${digest}`, base).toString();
      const r = await call(url, 'GET', kind === 'manifests' ? { accept: MANIFEST_TYPES } : {});
      const bad = problem(r);
      if (bad) return bad;
      const body = r.responseBody ?? '';
      if (Buffer.byteLength(body) > maxBytes)
        return { kind: 'failed', error: `${kind} ${digest} over ${maxBytes} bytes` };
      return { kind: 'ok', value: body };
    },

    /** The digest a tag points at now (HEAD of its manifest); `known` makes it conditional (304: unchanged). */
    async digestOf(repository: string, tag: string, known: string | null): Promise<RegistryAnswer<string>> {
      const url = new URL(`/v2/${repository}/manifests/${encodeURIComponent(tag)}`, base).toString();
      const r = await call(url, 'HEAD', {
        accept: MANIFEST_TYPES,
        ...(known ? { 'if-none-match': `"${known}"` } : {}),
      });
      const bad = problem(r);
      if (bad) return bad;
      const digest = header(r, 'docker-content-digest');
      if (!digest || !/^sha256:[0-9a-f]{64}$/.test(digest)) return { kind: 'failed', error: 'no manifest digest' };
      return { kind: 'ok', value: digest };
    },
  };
}
