import { Forbidden, Unauthorized } from '../src/errors';
import { requireOrg, type Caller, type OrgCaller } from '../src/iam/caller';
import { pageRequestFrom, type PageRequest } from '../src/db/pagination';
import type { AppContext } from './context';

/** The one set of request readers every route uses, so handlers stay one-liners. */
export function callerOf(ctx: AppContext): Caller {
  const principal = ctx.state.principal;
  if (!principal) throw new Unauthorized('missing or invalid token');
  return { principal, requestId: ctx.state.requestId };
}

export function orgCallerOf(ctx: AppContext): OrgCaller {
  return requireOrg(callerOf(ctx));
}

/** The principal's user id on an authenticated route (service credentials have none). */
export function userIdOf(ctx: AppContext): string {
  const userId = ctx.state.principal?.userId;
  if (!userId) throw new Forbidden('a user session is required');
  return userId;
}

/** The session (`sid`) of the caller's access token, for "this session" operations. */
export function sessionIdOf(ctx: AppContext): string | undefined {
  return ctx.state.principal?.sessionId;
}

/** The body as its JSON Schema (additionalProperties: false) already validated it. */
export function bodyOf<T>(ctx: AppContext): T {
  return (ctx.state.body ?? {}) as T;
}

export function paramOf(ctx: AppContext, name: string): string {
  return (ctx.params as Record<string, string | undefined>)[name] ?? '';
}

export function queryOf(ctx: AppContext): Record<string, string | undefined> {
  return ctx.query as Record<string, string | undefined>;
}

/** `?cancel=true` of a removal (schemas/requests/target-remove-query.json): cancel what uses the target first. */
export function cancelOf(ctx: AppContext): boolean {
  return queryOf(ctx).cancel === 'true';
}

export function pageOf(ctx: AppContext, pageMax: number): PageRequest {
  return pageRequestFrom(ctx.query, pageMax);
}

export function created(ctx: AppContext, body: unknown): void {
  ctx.status = 201;
  ctx.body = body;
}

export function noContent(ctx: AppContext): void {
  ctx.status = 204;
}

/** The client's Idempotency-Key header: a retried write with the same key does its work once. */
export function idempotencyKeyOf(ctx: AppContext): string | undefined {
  return ctx.get('Idempotency-Key') || undefined;
}
