export interface HttpResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  token?: string;
  body?: unknown;
  rawBody?: string | Buffer;
  headers?: Record<string, string>;
}

/** Real HTTP calls against a running test platform. */
export function httpClient(baseUrl: string) {
  async function request<T = Record<string, unknown>>(method: string, path: string, opts: RequestOptions = {}) {
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    if (opts.token) headers.Authorization = `Bearer ${opts.token}`;
    let body: string | Buffer | undefined;
    if (opts.rawBody !== undefined) body = opts.rawBody;
    else if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['Content-Type'] ??= 'application/json';
    }
    const res = await fetch(`${baseUrl}${path}`, { method, headers, body, redirect: 'manual' });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: keep the text
    }
    return { status: res.status, headers: res.headers, body: parsed as T, text } satisfies HttpResponse<T>;
  }
  return {
    request,
    get: <T = Record<string, unknown>>(path: string, opts?: RequestOptions) => request<T>('GET', path, opts),
    post: <T = Record<string, unknown>>(path: string, opts?: RequestOptions) => request<T>('POST', path, opts),
    put: <T = Record<string, unknown>>(path: string, opts?: RequestOptions) => request<T>('PUT', path, opts),
    patch: <T = Record<string, unknown>>(path: string, opts?: RequestOptions) => request<T>('PATCH', path, opts),
    delete: <T = Record<string, unknown>>(path: string, opts?: RequestOptions) => request<T>('DELETE', path, opts),
  };
}
