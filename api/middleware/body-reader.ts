import type { Next } from 'koa';
import getRawBody from 'raw-body';
import { InvalidInput, PayloadTooLarge } from '../../src/errors';
import type { AppContext } from '../context';

const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Reads the body as bytes with a hard limit before any parsing (413 past it), keeps the raw bytes for signature
 * checks, and parses JSON. Other content types keep only the raw bytes; routes that accept them decode them.
 */
export function bodyReader(limitBytes: number) {
  return async (ctx: AppContext, next: Next): Promise<void> => {
    if (!METHODS_WITH_BODY.has(ctx.method)) return next();
    const declared = Number(ctx.get('Content-Length') || '0');
    if (declared > limitBytes) throw new PayloadTooLarge('request body too large');
    let raw: Buffer;
    try {
      raw = await getRawBody(ctx.req, { limit: limitBytes, length: ctx.get('Content-Length') || undefined });
    } catch (err: unknown) {
      const type = (err as { type?: string }).type;
      if (type === 'entity.too.large') throw new PayloadTooLarge('request body too large');
      throw new InvalidInput('malformed request body');
    }
    ctx.state.rawBody = raw;
    if (raw.length > 0 && typeof ctx.is('application/json', '+json') === 'string') {
      try {
        ctx.state.body = JSON.parse(raw.toString('utf8')) as unknown;
      } catch {
        throw new InvalidInput('malformed request body');
      }
    }
    return next();
  };
}
