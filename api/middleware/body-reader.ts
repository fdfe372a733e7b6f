import type { Next } from 'koa';
import getRawBody from 'raw-body';
import { InvalidInput, PayloadTooLarge } from '../../src/errors';
import { refuseIllFormedText, decodeWellFormed } from '../../src/http/text-guard';
import { parseJson } from '../../src/parse/bounded-parse';
import type { AppContext } from '../context';

const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Inbound webhooks: signed bodies are checked over their raw bytes before any parse, under their own small limit. */
const RAW_ONLY_PREFIX = '/api/v1/webhooks/';

/**
 * Reads the body as bytes with a hard limit before any parsing (413 past it), keeps the raw bytes for signature
 * checks, refuses ill-formed text (invalid UTF-8, NUL, lone surrogates: 400) and parses JSON with the bounded parse.
 * Other content types keep only the raw bytes; routes that accept them decode them.
 * Inbound webhook bodies are never parsed here: their routes verify the signature first (docs/webhooks.md).
 */
export function bodyReader(defaultLimitBytes: number, webhookLimitBytes: number) {
  return async (ctx: AppContext, next: Next): Promise<void> => {
    if (!METHODS_WITH_BODY.has(ctx.method)) return next();
    const rawOnly = ctx.path.startsWith(RAW_ONLY_PREFIX);
    const limitBytes = rawOnly ? webhookLimitBytes : defaultLimitBytes;
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
    if (raw.length === 0) return next();
    // The text guard (docs/security.md A-60), before any signature check or parse: bodies are UTF-8 text here.
    const text = decodeWellFormed(raw);
    if (!rawOnly && typeof ctx.is('application/json', '+json') === 'string') {
      try {
        ctx.state.body = parseJson(text, 'request body');
      } catch (err) {
        if (err instanceof PayloadTooLarge) throw err;
        throw new InvalidInput('malformed request body');
      }
      refuseIllFormedText({ body: ctx.state.body });
    }
    return next();
  };
}
