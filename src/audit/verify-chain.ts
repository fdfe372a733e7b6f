import type { Queryable } from '../db/knex';
import { chainRows, chainSegmentRows, rowToEntry, listChains, type AuditRow } from './audit-repository';
import { GENESIS_HASH, entryHash } from './hash-chain';

export interface ChainProblem {
  chain: string;
  entryId: string;
  seq: string;
  problem: 'hash_mismatch' | 'broken_link';
}

export interface ChainReport {
  chains: number;
  entries: number;
  ok: boolean;
  problems: ChainProblem[];
  /** Head hash per chain: an operator can keep these off-database to detect truncation of the newest rows. */
  heads: Record<string, string>;
}

export interface SegmentResult {
  checked: number;
  problems: ChainProblem[];
  /** The seq and hash of the last row read: where the next segment continues from. */
  lastSeq: string | null;
  lastHash: string;
}

/**
 * Recomputes the hashes of consecutive rows of one chain, starting after the row whose hash is `prevHash`. An edited
 * row fails its own hash; a deleted or inserted row breaks the link of the row after it (its prev_hash no longer
 * equals the hash of the row before). `stopAtProblem` ends the segment at the first problem.
 */
export async function verifySegment(
  rows: AsyncIterable<AuditRow> | Iterable<AuditRow>,
  chain: string,
  prevHash: string,
  stopAtProblem = false,
): Promise<SegmentResult> {
  const result: SegmentResult = { checked: 0, problems: [], lastSeq: null, lastHash: prevHash };
  for await (const row of rows) {
    result.checked += 1;
    if (row.prev_hash !== result.lastHash) {
      result.problems.push({ chain, entryId: row.id, seq: row.seq, problem: 'broken_link' });
    }
    if (entryHash(row.prev_hash, chain, rowToEntry(row)) !== row.hash) {
      result.problems.push({ chain, entryId: row.id, seq: row.seq, problem: 'hash_mismatch' });
    }
    result.lastSeq = row.seq;
    result.lastHash = row.hash;
    if (stopAtProblem && result.problems.length > 0) break;
  }
  return result;
}

/** Every chain (or one), whole: what `verify-audit` runs. */
export async function verifyChains(db: Queryable, onlyChain?: string): Promise<ChainReport> {
  const chains = onlyChain === undefined ? await listChains(db) : [onlyChain];
  const report: ChainReport = { chains: chains.length, entries: 0, ok: true, problems: [], heads: {} };
  for (const chain of chains) {
    const segment = await verifySegment(chainRows(db, chain), chain, GENESIS_HASH);
    report.entries += segment.checked;
    report.problems.push(...segment.problems);
    report.heads[chain] = segment.lastHash;
  }
  report.ok = report.problems.length === 0;
  return report;
}

/** Where a segment starts: after the row `seq` whose hash is `hash` (both from the previous segment's cursor). */
export interface SegmentStart {
  seq: string;
  hash: string;
}

/** `limit` rows of one chain after `start` (from its genesis without one), stopping at the first problem. */
export async function verifyChainSegment(
  db: Queryable,
  chain: string,
  start: SegmentStart | null,
  limit: number,
): Promise<SegmentResult & { more: boolean }> {
  const rows = await chainSegmentRows(db, chain, start?.seq ?? '0', limit + 1);
  const segment = await verifySegment(rows.slice(0, limit), chain, start?.hash ?? GENESIS_HASH, true);
  return { ...segment, more: segment.problems.length === 0 && rows.length > limit };
}
