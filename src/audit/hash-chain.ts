import { createHash } from 'node:crypto';
import type { AuditEntry } from './types';

export const GENESIS_HASH = '0'.repeat(64);

/** JSON with object keys sorted at every level, so the hash survives jsonb's key reordering. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** hash = SHA-256(prev_hash || canonical row): editing, inserting or deleting a row breaks every later link. */
export function entryHash(prevHash: string, chain: string, entry: AuditEntry): string {
  return createHash('sha256')
    .update(prevHash)
    .update('\n')
    .update(chain)
    .update('\n')
    .update(canonicalJson(entry))
    .digest('hex');
}
