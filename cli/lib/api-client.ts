import { ApiError, CliError } from './api-error';

type Query = Record<string, string | number | boolean | undefined>;

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

  get<T>(path: string, query?: Query): Promise<T> {
    return this.request<T>('GET', path, { query });
  }

  post<T>(path: string, body?: unknown, headers?: Record<string, string>): Promise<T> {
    return this.request<T>('POST', path, { body, headers });
  }

  put<T>(path: string, body?: unknown): Promise<T> {
    return this.request<T>('PUT', path, { body });
  }

  delete<T>(path: string, query?: Query): Promise<T> {
    return this.request<T>('DELETE', path, { query });
  }

  async request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    let res = await this.send(method, path, options, false);
    if (res.status === 401 && this.tokens?.refreshable) res = await this.send(method, path, options, true);
    const text = await res.text();
    const body: unknown = text ? parseJson(text) : null;
    if (!res.ok) {
      const message = (body as { error?: string } | null)?.error ?? (text || res.statusText);
      throw new ApiError(res.status, message, typeof body === 'object' && body !== null ? { ...body } : {});
    }
    return body as T;
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
