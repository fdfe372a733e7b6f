import { Forbidden } from '../errors';
import type { Principal } from '../iam/principal';
import { canonicalPath } from './canonical-path';

/** The methods of api/route-def.ts. */
type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

export const KEY_SCOPES = ['read', 'write', 'admin', 'image:update'] as const;
export type KeyScope = (typeof KEY_SCOPES)[number];

/** Which key scopes open an entry: `admin` includes `write`, `write` includes `read`; `image:update` stands alone. */
const READ: readonly KeyScope[] = ['read', 'write', 'admin'];
const WRITE: readonly KeyScope[] = ['write', 'admin'];
const ADMIN: readonly KeyScope[] = ['admin'];
const IMAGES: readonly KeyScope[] = ['write', 'admin', 'image:update'];
const IMAGES_READ: readonly KeyScope[] = ['read', 'write', 'admin', 'image:update'];

export interface AllowlistEntry {
  method: HttpMethod;
  /** A route path of api/route-table.ts (koa-router syntax), or the Git smart-HTTP read endpoints. */
  path: string;
  scopes: readonly KeyScope[];
}

const P = '/api/v2/projects/:slug';
const entry = (method: HttpMethod, path: string, scopes: readonly KeyScope[]): AllowlistEntry => ({
  method,
  path,
  scopes,
});

/**
 * The one, global list of paths that accept project API keys (spec: "fixed global allowlist", not configurable per
 * key). Every other path answers 403 to a key. docs/machine-access.md shows this table; the integration test
 * test/integration/machine-access/key-scopes.test.ts proves each row and that every row is a real route.
 */
export const KEY_ALLOWLIST: readonly AllowlistEntry[] = [
  // Any key may ask what it is: a pipeline's smoke test (issue 50).
  entry('get', '/api/v2/whoami', IMAGES_READ),
  entry('get', P, READ),
  entry('get', `${P}/files`, READ),
  entry('get', `${P}/files/content`, READ),
  entry('get', `${P}/commits`, READ),
  entry('get', `${P}/environments`, READ),
  entry('get', `${P}/environments/:environment`, READ),
  entry('get', `${P}/tenants`, READ),
  entry('get', `${P}/workloads`, READ),
  entry('get', `${P}/workloads/:name`, READ),
  entry('get', `${P}/policy`, READ),
  entry('get', `${P}/delivery/preview`, READ),
  entry('get', `${P}/delivery/bootstrap`, READ),
  // A pipeline validates manifests without installing the platform (issue 26 item 7).
  entry('post', '/api/v2/k8s/validate', IMAGES_READ),
  entry('get', '/api/v2/k8s/versions', IMAGES_READ),
  entry('get', '/api/v2/k8s/deprecations', IMAGES_READ),
  entry('get', `${P}/compare`, READ),
  entry('get', '/git/r/:org/:slug.git/info/refs', READ),
  entry('post', '/git/r/:org/:slug.git/git-upload-pack', READ),
  entry('put', `${P}/files/content`, WRITE),
  entry('delete', `${P}/files/content`, WRITE),
  entry('post', `${P}/workloads`, WRITE),
  entry('patch', `${P}/workloads/:name`, WRITE),
  entry('delete', `${P}/workloads/:name`, WRITE),
  entry('post', `${P}/delivery/generate`, WRITE),
  entry('post', `${P}/bulk-update/preview`, IMAGES_READ),
  entry('post', `${P}/bulk-update`, IMAGES),
  entry('get', `${P}/releases`, READ),
  entry('get', '/api/v2/releases/:id', READ),
  entry('get', '/api/v2/releases/:id/history', READ),
  entry('get', `${P}/deployment-status`, READ),
  entry('get', `${P}/deployments`, READ),
  entry('get', `${P}/deployments/changes`, READ),
  entry('get', `${P}/deployments/metrics`, READ),
  entry('post', `${P}/releases`, WRITE),
  entry('post', '/api/v2/releases/:id/deploy', WRITE),
  entry('post', '/api/v2/releases/:id/cancel', WRITE),
  entry('get', `${P}/promotions`, READ),
  entry('get', '/api/v2/promotions/:id', READ),
  entry('get', '/api/v2/promotions/:id/history', READ),
  entry('post', `${P}/promotion/request`, WRITE),
  entry('patch', P, ADMIN),
  entry('patch', `${P}/policy`, ADMIN),
  entry('post', `${P}/environments`, ADMIN),
  entry('patch', `${P}/environments/:environment`, ADMIN),
  entry('delete', `${P}/environments/:environment`, ADMIN),
  entry('post', `${P}/tenants`, ADMIN),
  entry('get', `${P}/remote`, ADMIN),
  entry('put', `${P}/remote`, ADMIN),
  entry('delete', `${P}/remote`, ADMIN),
];

/** The allowlist rows the scopes open: what a key may call, for `GET /api/v2/whoami`. */
export function entriesOpenedBy(scopes: readonly string[]): AllowlistEntry[] {
  return KEY_ALLOWLIST.filter((e) => e.scopes.some((s) => scopes.includes(s)));
}

/** One path segment a parameter may take: the slug and name alphabet, never a dot segment or an encoded byte. */
const PARAM = /^[a-z0-9][a-z0-9-]{0,62}$/;

function segmentMatches(pattern: string, segment: string): boolean {
  const param = /^:(\w+)(\.git)?$/.exec(pattern);
  if (!param) return pattern === segment;
  const value = param[2] ? (segment.endsWith('.git') ? segment.slice(0, -4) : null) : segment;
  return value !== null && PARAM.test(value);
}

function pathMatches(pattern: string, path: string): boolean {
  const p = pattern.split('/');
  const s = path.split('/');
  return p.length === s.length && p.every((seg, i) => segmentMatches(seg, s[i]!));
}

/** The entry for a method and a canonical path, or null: case and trailing slashes must be exactly as routed. */
export function allowlistEntry(method: string, canonical: string): AllowlistEntry | null {
  const m = method.toLowerCase();
  return KEY_ALLOWLIST.find((e) => e.method === m && pathMatches(e.path, canonical)) ?? null;
}

/**
 * The entry of a request as sent. The path must already be canonical: a spelling that canonicalises to an allowlisted
 * path (`/x/../`, `%2e%2e`, `//`, `%2F`) could route elsewhere, so it is refused rather than rewritten.
 */
export function keyPathEntry(method: string, rawPath: string): AllowlistEntry | null {
  const canonical = canonicalPath(rawPath);
  return canonical === null || canonical !== rawPath ? null : allowlistEntry(method, canonical);
}

export const OFF_ALLOWLIST = 'API keys are not accepted on this path';

/**
 * The API-key link of the chain: the request's path is on the allowlist, is the route that matched (`routePath`),
 * and one of the key's scopes opens it. Other identities pass unchanged. Throws Forbidden.
 */
export function checkKeyAccess(principal: Principal, method: string, rawPath: string, routePath: string): void {
  if (principal.kind !== 'api_key') return;
  const entry = keyPathEntry(method, rawPath);
  if (!entry || entry.path !== routePath) throw new Forbidden(OFF_ALLOWLIST);
  const scopes = principal.restriction?.scopes ?? [];
  if (!entry.scopes.some((s) => scopes.includes(s))) {
    throw new Forbidden(`this API key needs one of the scopes ${entry.scopes.join(', ')} here`);
  }
}
