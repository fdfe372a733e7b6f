import type { Queryable } from '../db/knex';
import { chainRows, listChains, rowToEntry } from './audit-repository';
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

/**
 * Recomputes every hash. An edited row fails its own hash; a deleted or inserted row breaks the link of the row after
 * it (its prev_hash no longer equals the hash of the row before).
 */
export async function verifyChains(db: Queryable, onlyChain?: string): Promise<ChainReport> {
  const chains = onlyChain === undefined ? await listChains(db) : [onlyChain];
  const report: ChainReport = { chains: chains.length, entries: 0, ok: true, problems: [], heads: {} };
  for (const chain of chains) {
    let expectedPrev = GENESIS_HASH;
    for await (const row of chainRows(db, chain)) {
      report.entries += 1;
      if (row.prev_hash !== expectedPrev) {
        report.problems.push({ chain, entryId: row.id, seq: row.seq, problem: 'broken_link' });
      }
      if (entryHash(row.prev_hash, chain, rowToEntry(row)) !== row.hash) {
        report.problems.push({ chain, entryId: row.id, seq: row.seq, problem: 'hash_mismatch' });
      }
      expectedPrev = row.hash;
    }
    report.heads[chain] = expectedPrev;
  }
  report.ok = report.problems.length === 0;
  return report;
}
