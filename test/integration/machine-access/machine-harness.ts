import { scaled } from '../../helpers/time-scale';
import http from 'node:http';
import type { RouteDef } from '../../../api/route-def';
import type { HttpResponse } from '../../helpers/http-client';

/**
 * One request with the path exactly as given. fetch() and URL normalise dot segments and `%2e`, which would hide the
 * bypass forms of A-42 from the server, so those go through node:http untouched.
 */
export function rawRequest(baseUrl: string, method: string, rawPath: string, token: string) {
  const url = new URL(baseUrl);
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = http.request(
      { host: url.hostname, port: url.port, method, path: rawPath, headers: { Authorization: `Bearer ${token}` } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

export function errorOf(res: HttpResponse | { text: string }): string {
  try {
    return (JSON.parse(res.text) as { error?: string }).error ?? '';
  } catch {
    return '';
  }
}

/**
 * A concrete path for a route: reads use the real project and its real environment and workload, writes name
 * nothing that exists (or carry an invalid body), so an authorized call changes nothing.
 */
export function concretePath(route: Pick<RouteDef, 'method' | 'path'>, slug: string): string {
  const write = route.method !== 'get';
  const values: Record<string, string> = {
    slug,
    environment: write ? 'no-such-env' : 'dev',
    name: write ? 'no-such-workload' : 'web',
    id: '00000000-0000-4000-8000-000000000000',
  };
  return route.path.replace(/:(\w+)/g, (_, n: string) => values[n] ?? '00000000-0000-4000-8000-000000000000');
}

/** Polls until `check` holds or the deadline passes (no fixed sleeps). */
export async function eventually(check: () => Promise<boolean>, timeoutMs = 15_000): Promise<boolean> {
  const deadline = Date.now() + scaled(timeoutMs);
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}
