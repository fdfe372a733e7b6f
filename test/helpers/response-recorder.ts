import fs from 'node:fs';
import type { Context, Next } from 'koa';
import { isJsonBody, matchedRoute } from './matched-route';

/** Samples kept per route and test file: enough variety to draft a schema, small enough to read. */
const PER_ROUTE = 12;
const counts = new Map<string, number>();

/**
 * With RECORD_RESPONSES=<file>, appends every 2xx answer of the route table (route, status, JSON body) as one JSON
 * line to that file; scripts/infer-response-schemas.ts drafts response schemas from it. Off otherwise.
 */
export function responseRecorder(file = process.env.RECORD_RESPONSES) {
  return async (ctx: Context, next: Next) => {
    await next();
    if (!file || ctx.status < 200 || ctx.status > 299) return;
    const route = matchedRoute(ctx);
    if (!route) return;
    const seen = counts.get(route) ?? 0;
    if (seen >= PER_ROUTE) return;
    counts.set(route, seen + 1);
    const body = ctx.status === 204 || ctx.body === undefined || ctx.body === null ? null : ctx.body;
    const sample = isJsonBody(body) ? body : body === null ? null : { nonJson: String(ctx.type) };
    fs.appendFileSync(file, `${JSON.stringify({ route, status: ctx.status, json: isJsonBody(body), body: sample })}\n`);
  };
}
