import type { Context } from 'koa';

/**
 * "METHOD /path/:param" of the route table entry that answered, or null when no route matched (git, OCI, web) or
 * the request was a HEAD (the router answers it from the GET route, without a body).
 */
export function matchedRoute(ctx: Context): string | null {
  const pattern = (ctx as Context & { _matchedRoute?: string | RegExp })._matchedRoute;
  return typeof pattern === 'string' && ctx.method !== 'HEAD' ? `${ctx.method} ${pattern}` : null;
}

/** A body the API answers as JSON: a plain object or array (not a stream, a buffer or text). */
export function isJsonBody(body: unknown): boolean {
  if (Array.isArray(body)) return true;
  if (body === null || typeof body !== 'object' || Buffer.isBuffer(body)) return false;
  return Object.getPrototypeOf(body) === Object.prototype;
}
