import { InvalidInput } from '../errors';
import type { HistoryPosition } from './history-reader';

/** Where the next page of a timeline starts: the reverse read's position and what the walk carries past it. */
export interface TimelineCursor extends HistoryPosition {
  /** Only events older than this id on the position's page; null for the whole page. */
  before: number | null;
  /** The commit SHA the entries at this point carry. */
  sha: string | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const SHA = /^[0-9a-f]{7,64}$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
/** Temporal's page tokens are a few hundred bytes; the route's query schema caps the whole cursor as well. */
const TOKEN_MAX = 1_500;

export function encodeTimelineCursor(c: TimelineCursor): string {
  const token = c.token ? Buffer.from(c.token).toString('base64') : '';
  return Buffer.from(JSON.stringify(['t1', c.runId, token, c.before ?? 0, c.sha ?? ''])).toString('base64url');
}

/** A cursor we made, checked field by field; anything else is a clear 400 (the server checks the token itself). */
export function decodeTimelineCursor(cursor: string): TimelineCursor {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new InvalidInput('invalid cursor');
  }
  if (Array.isArray(value) && value.length === 5 && value[0] === 't1') {
    const [, runId, token, before, sha] = value as unknown[];
    const valid =
      typeof runId === 'string' &&
      UUID.test(runId) &&
      typeof token === 'string' &&
      token.length <= TOKEN_MAX &&
      BASE64.test(token) &&
      Number.isSafeInteger(before) &&
      (before as number) >= 0 &&
      typeof sha === 'string' &&
      (sha === '' || SHA.test(sha));
    if (valid) {
      return {
        runId,
        token: token === '' ? null : new Uint8Array(Buffer.from(token, 'base64')),
        before: before === 0 ? null : (before as number),
        sha: sha === '' ? null : sha,
      };
    }
  }
  throw new InvalidInput('invalid cursor');
}
