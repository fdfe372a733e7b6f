import type { paths } from '../../client/openapi-types.generated';
import type { Answer } from '../../client/openapi-answers';
import { answer } from '../../test/helpers/response-fixture';

export { answer };

/**
 * The API as a component test sees it: the views' own client (openapi-fetch over `fetch`) talks to this table of
 * answers, each built with `answer` (test/helpers/response-fixture.ts): its route's schema example with the test's
 * values on top, checked against the route's declared response schema when the test sets it up.
 */
type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

interface Call {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
}

interface Entry {
  method: string;
  pattern: RegExp;
  status: number;
  body: (call: Call) => unknown;
}

export class FakeApi {
  readonly calls: Call[] = [];
  private readonly entries: Entry[] = [];

  /**
   * Answers `method path` (the OpenAPI path, `{id}` matching any segment) with `body` (or what a function of the
   * request answers: a page per cursor), or with `status` and error.
   */
  on<P extends keyof paths, M extends Method>(
    path: P,
    method: M,
    body: Answer<P, M> | ((call: Call) => Answer<P, M>),
    status = 200,
  ): this {
    const pattern = new RegExp(`^${path.replace(/\{\w+\}/g, '[^/]+')}$`);
    const bodyOf = typeof body === 'function' ? (body as (call: Call) => unknown) : () => body;
    this.entries.unshift({ method: method.toUpperCase(), pattern, status, body: bodyOf });
    return this;
  }

  /** A refusal as the server words it (`{"error": ...}`). */
  refuse<P extends keyof paths>(path: P, method: Method, status: number, error: string): this {
    const pattern = new RegExp(`^${path.replace(/\{\w+\}/g, '[^/]+')}$`);
    this.entries.unshift({ method: method.toUpperCase(), pattern, status, body: () => ({ error }) });
    return this;
  }

  /** The requests sent to `method path` (a concrete path), in order. */
  sent(method: string, path: string): Call[] {
    return this.calls.filter((c) => c.method === method && c.path === path);
  }

  readonly fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request ? input : new Request(input, init);
    const url = new URL(request.url, 'http://localhost');
    const text = await request.text();
    const call: Call = {
      method: request.method,
      path: url.pathname,
      query: url.searchParams,
      body: text ? (JSON.parse(text) as unknown) : undefined,
    };
    this.calls.push(call);
    const entry = this.entries.find((e) => e.method === request.method && e.pattern.test(url.pathname));
    if (!entry) {
      return Response.json({ error: `no answer for ${request.method} ${url.pathname} in this test` }, { status: 404 });
    }
    if (entry.status === 204) return new Response(null, { status: 204 });
    return Response.json(entry.body(call), { status: entry.status });
  };
}

/** A signed-in session: the refresh cookie answers with a token, and `/me` with the user. */
export function signedIn(api: FakeApi, email = 'dana@example.com'): FakeApi {
  const user = { id: 'b0000000-0000-4000-8000-000000000001', email, name: 'Dana' };
  const organization = {
    id: 'a0000000-0000-4000-8000-000000000001',
    slug: 'acme',
    name: 'Acme',
    role: 'admin' as const,
  };
  return api
    .on('/api/v1/auth/refresh', 'post', answer('/api/v1/auth/refresh', 'post', { user, organization }))
    .on(
      '/api/v1/auth/me',
      'get',
      answer('/api/v1/auth/me', 'get', { user, organization, memberships: [organization] }),
    );
}
