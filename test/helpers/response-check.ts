import type { Context, Next } from 'koa';
import { loadResponseSchemas, type ResponseSchemas } from '../../src/http/response-schemas';
import { isJsonBody, matchedRoute } from './matched-route';

let loaded: ResponseSchemas | undefined;

/** The JSON body as a value: an object Koa will serialize, or text a route serialized itself (a compiled serializer). */
function jsonOf(ctx: Context): unknown {
  if (isJsonBody(ctx.body)) return ctx.body;
  if (typeof ctx.body === 'string' && ctx.response.is('json')) return JSON.parse(ctx.body) as unknown;
  return undefined;
}

/**
 * Test-only: every 2xx answer of the route table must match what schemas/route-responses.json declares (status, and
 * the body's schema). A mismatch answers 500 with the reason, so the test that met it fails on its status, and is
 * kept in `mismatches` so the harness fails the test file even when that test does not look at the status.
 * On in the integration harness; off while responses are recorded to draft schemas (RECORD_RESPONSES).
 */
export function responseCheck(mismatches: string[]) {
  const on = !process.env.RECORD_RESPONSES;
  return async (ctx: Context, next: Next) => {
    await next();
    if (!on || ctx.status < 200 || ctx.status > 299) return;
    const route = matchedRoute(ctx);
    if (!route) return;
    loaded ??= loadResponseSchemas();
    const body = jsonOf(ctx);
    const mismatch = loaded.mismatch(route, ctx.status, body);
    if (!mismatch) return;
    mismatches.push(mismatch);
    ctx.status = 500;
    ctx.body = { error: `response check: ${mismatch}` };
  };
}
