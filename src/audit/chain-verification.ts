import type { Queryable } from '../db/knex';
import { InvalidInput } from '../errors';
import { chainOf, chainRowHash } from './audit-repository';
import { verifyChainSegment, type SegmentStart } from './verify-chain';

/** One bounded step of an organization's chain verification (GET /api/v2/audit-logs/verification). */
export interface ChainVerificationPage {
  ok: boolean;
  checked: number;
  /** Where the next call continues; null at the chain's head or at a break. */
  nextCursor: string | null;
  brokenAt?: { entryId: string; seq: string; problem: 'hash_mismatch' | 'broken_link' };
}

const CURSOR = /^v:(\d{1,19}):([0-9a-f]{64})$/;

export function encodeVerificationCursor(start: SegmentStart): string {
  return Buffer.from(`v:${start.seq}:${start.hash}`).toString('base64url');
}

/**
 * The cursor names the last verified row by seq and hash; a cursor whose row is not in this organization's chain
 * with that hash (forged, from another organization, or from before a rewrite) is refused, never trusted.
 */
async function startOf(db: Queryable, chain: string, cursor: string | undefined): Promise<SegmentStart | null> {
  if (cursor === undefined) return null;
  const match = CURSOR.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  const [, seq, hash] = match ?? [];
  if (seq === undefined || hash === undefined || BigInt(seq) > 2n ** 63n - 1n) throw new InvalidInput('invalid cursor');
  if ((await chainRowHash(db, chain, seq)) !== hash) throw new InvalidInput('invalid cursor');
  return { seq, hash };
}

export async function verifyOrganizationChain(
  db: Queryable,
  organizationId: string,
  cursor: string | undefined,
  limit: number,
): Promise<ChainVerificationPage> {
  const chain = chainOf(organizationId);
  const start = await startOf(db, chain, cursor);
  const segment = await verifyChainSegment(db, chain, start, limit);
  const problem = segment.problems[0];
  const page: ChainVerificationPage = {
    ok: problem === undefined,
    checked: segment.checked,
    nextCursor:
      segment.more && segment.lastSeq !== null
        ? encodeVerificationCursor({ seq: segment.lastSeq, hash: segment.lastHash })
        : null,
  };
  if (problem) page.brokenAt = { entryId: problem.entryId, seq: problem.seq, problem: problem.problem };
  return page;
}
