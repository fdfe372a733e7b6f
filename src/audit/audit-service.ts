import type { Db, Tx } from '../db/knex';
import { InvalidInput } from '../errors';
import { decodeCursor, insertEntries, insertEntry, queryEntries, type AuditPage } from './audit-repository';
import { verifyOrganizationChain, type ChainVerificationPage } from './chain-verification';
import type { AuditEntry, AuditEntryInput, AuditQuery } from './types';

export interface AuditService {
  /** Appends inside the caller's transaction: the change and its audit entry commit or fail together. */
  append(trx: Tx, entry: AuditEntryInput): Promise<AuditEntry>;
  /** Several entries of one organization in one transaction, in order, written at once. */
  appendMany(trx: Tx, entries: AuditEntryInput[]): Promise<AuditEntry[]>;
  /** For outcomes whose business change rolled back (failed login, blocked action): its own transaction. */
  appendStandalone(entry: AuditEntryInput): Promise<AuditEntry>;
  list(query: AuditQuery): Promise<AuditPage>;
  /** Verifies the next `limit` entries of the organization's hash chain after `cursor`. */
  verify(organizationId: string, cursor: string | undefined, limit: number): Promise<ChainVerificationPage>;
}

export function createAuditService(db: Db): AuditService {
  return {
    append: (trx, entry) => insertEntry(trx, entry),
    appendMany: (trx, entries) => insertEntries(trx, entries),
    appendStandalone: (entry) => db.transaction((trx) => insertEntry(trx, entry)),
    list: async (query) => {
      const afterSeq = query.cursor === undefined ? null : decodeCursor(query.cursor);
      if (query.cursor !== undefined && afterSeq === null) throw new InvalidInput('invalid cursor');
      return queryEntries(db, query, afterSeq);
    },
    verify: (organizationId, cursor, limit) => verifyOrganizationChain(db, organizationId, cursor, limit),
  };
}
