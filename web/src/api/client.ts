import createClient from 'openapi-fetch';
import type { paths } from '../../../client/openapi-types.generated';
import type { SignedIn } from './models';

/**
 * The one API client: typed by the OpenAPI document's generated paths. The access token lives in this module's
 * memory only (never storage); a 401 refreshes it once through the HttpOnly refresh cookie and retries the call.
 */
let accessToken: string | null = null;
let refreshing: Promise<SignedIn | null> | null = null;
const listeners = new Set<(signedIn: boolean) => void>();

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The whole refusal: `error` and what the server answered beside it (e.g. a release's validation result). */
    readonly body: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export function setAccessToken(token: string | null): void {
  accessToken = token;
  for (const listen of listeners) listen(token !== null);
}

export function onSessionChange(listen: (signedIn: boolean) => void): () => void {
  listeners.add(listen);
  return () => listeners.delete(listen);
}

/**
 * Swaps the refresh cookie for a new access token. One refresh in flight at a time: the server ends the session when
 * a refresh token is presented twice, so concurrent callers share the same promise.
 */
/** The refresh call carries the HttpOnly cookie only: no access token, no refresh-and-retry. */
const cookieOnly = createClient<paths>({ baseUrl: '', fetch: (r) => fetch(r), credentials: 'same-origin' });

export function refreshSession(organizationId?: string): Promise<SignedIn | null> {
  refreshing ??= (async () => {
    const headers: Record<string, string> = organizationId ? { 'X-Organization-ID': organizationId } : {};
    const { data } = await cookieOnly.POST('/api/v1/auth/refresh', { headers });
    setAccessToken(data?.accessToken ?? null);
    return data ?? null;
  })().finally(() => {
    refreshing = null;
  });
  return refreshing;
}

type Credential = (token: string) => string;
const bearer: Credential = (token) => `Bearer ${token}`;
/** The registry (`/v2`) reads a Bearer as its own registry token: the access token goes as Basic's password. */
const basic: Credential = (token) => `Basic ${btoa(`token:${token}`)}`;

async function authorizedFetch(request: Request, credential: Credential = bearer): Promise<Response> {
  const retry = request.clone();
  const send = (req: Request) => {
    if (accessToken) req.headers.set('Authorization', credential(accessToken));
    return fetch(req);
  };
  const res = await send(request);
  if (res.status !== 401 || !accessToken || request.url.includes('/api/v1/auth/')) return res;
  return (await refreshSession()) ? send(retry) : res;
}

/**
 * A call to the OCI registry (`/v2/...`) with the signed-in user's token, as `helm push` would send it: the same
 * refresh-once on 401 as the API client.
 */
export function registryFetch(path: string, init: RequestInit = {}): Promise<Response> {
  return authorizedFetch(new Request(path, { ...init, credentials: 'same-origin' }), basic);
}

export const api = createClient<paths>({ baseUrl: '', fetch: (r) => authorizedFetch(r), credentials: 'same-origin' });

interface Outcome<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/**
 * The body of a successful call, typed by the route's declared response in the OpenAPI document; a refusal becomes an
 * ApiError carrying the server's own message, which views show as it is.
 */
export async function ok<T>(call: Promise<Outcome<T>>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok) {
    const body = typeof error === 'object' && error !== null ? (error as Record<string, unknown>) : {};
    const message = typeof body.error === 'string' ? body.error : `${response.status} ${response.statusText}`;
    throw new ApiError(response.status, message, body);
  }
  return data as T;
}

/** Words for any failure: the server's message, or what went wrong on the way. */
export function messageOf(err: unknown): string {
  if (err instanceof ApiError) return err.message;
  return err instanceof Error ? err.message : String(err);
}

/** The path parameters of a by-id route (`/api/v2/policies/{id}`). */
export const byId = (id: string) => ({ params: { path: { id } } });
