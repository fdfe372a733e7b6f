import type { Answer, Method, PathParams, RouteOf } from '../../client/openapi-answers';
import { ApiError, CliError } from './api-error';

type Query = Record<string, string | number | boolean | undefined>;

/** What a call sends besides its route: the route's `{name}` values (encoded here), query, body, headers. */
export interface Call {
  path?: Record<string, string>;
  query?: Query;
  body?: unknown;
  headers?: Record<string, string>;
}
/** A route with `{name}` parameters needs their values; one without takes the rest optionally. */
type Args<P extends string> = P extends `${string}{${string}` ? [call: Call & { path: PathParams<P> }] : [call?: Call];

/** Supplies the bearer token; `force` asks for a new one after the server refused the current one. */
export interface TokenSource {
  token(force?: boolean): Promise<string>;
  /** A fixed token (flag or environment) cannot be refreshed. */
  readonly refreshable: boolean;
}

export interface RequestOptions {
  query?: Query;
  body?: unknown;
  headers?: Record<string, string>;
}

/** The platform's HTTP API: JSON in and out, errors as ApiError with the server's message. */
export class ApiClient {
  constructor(
    readonly server: string,
    private readonly tokens: TokenSource | null,
  ) {}

  /**
   * `route` as the OpenAPI document names it (`/api/v2/releases/{id}`): the answer is typed by the route's declared
   * response (client/openapi-types.generated.ts), never by the caller.
   */
  get<P extends RouteOf<'get'>>(route: P, ...[call]: Args<P>): Promise<Answer<P, 'get'>> {
    return this.call(route, 'get', call);
  }

  post<P extends RouteOf<'post'>>(route: P, ...[call]: Args<P>): Promise<Answer<P, 'post'>> {
    return this.call(route, 'post', call);
  }

  put<P extends RouteOf<'put'>>(route: P, ...[call]: Args<P>): Promise<Answer<P, 'put'>> {
    return this.call(route, 'put', call);
  }

  delete<P extends RouteOf<'delete'>>(route: P, ...[call]: Args<P>): Promise<Answer<P, 'delete'>> {
    return this.call(route, 'delete', call);
  }

  private async call<A>(route: string, method: Method, call: Call = {}): Promise<A> {
    const path = route.replace(/\{(\w+)\}/g, (_, name: string) => {
      const value = call.path?.[name];
      if (value === undefined) throw new CliError(`${route}: no value for {${name}}`);
      return encodeURIComponent(value);
    });
    // The one place a JSON body becomes a typed answer: the type is the route's declared response.
    return (await this.request(method.toUpperCase(), path, call)) as A;
  }

  /** An untyped call (a path outside the OpenAPI document); the typed methods above go through it. */
  async request(method: string, path: string, options: RequestOptions = {}): Promise<unknown> {
    let res = await this.send(method, path, options, false);
    if (res.status === 401 && this.tokens?.refreshable) res = await this.send(method, path, options, true);
    const text = await res.text();
    const body: unknown = text ? parseJson(text) : null;
    if (!res.ok) {
      const message = (body as { error?: string } | null)?.error ?? (text || res.statusText);
      throw new ApiError(res.status, message, typeof body === 'object' && body !== null ? { ...body } : {});
    }
    return body;
  }

  private async send(method: string, path: string, options: RequestOptions, forceRefresh: boolean) {
    const url = new URL(path, this.server);
    for (const [key, value] of Object.entries(options.query ?? {})) {
      if (value !== undefined && value !== '') url.searchParams.set(key, String(value));
    }
    const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
    if (this.tokens) headers.Authorization = `Bearer ${await this.tokens.token(forceRefresh)}`;
    if (options.body !== undefined) headers['Content-Type'] = 'application/json';
    try {
      return await fetch(url, {
        method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
      });
    } catch (err) {
      const cause = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).message;
      throw new CliError(`cannot reach ${this.server} (${cause})`);
    }
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return { error: text.slice(0, 500) };
  }
}
