/** A JSON call to the platform under a bearer token, throwing on any status from 300 up (the benches' client). */
export function apiCaller(baseUrl: string, token: string) {
  return async <T>(method: string, route: string, body?: unknown): Promise<T> => {
    const res = await fetch(new URL(route, baseUrl), {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${route}: ${res.status} ${text.slice(0, 500)}`);
    return (text ? JSON.parse(text) : undefined) as T;
  };
}
