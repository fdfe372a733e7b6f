import { DOMAIN_EVENT, type DomainEventType } from '../events/domain-event-repository';
import type { ReleaseKind } from './release-repository';

/** One record a release's creation writes beside its row: an audit action, the outbox event it raises, their extras. */
export interface CreationRecord {
  action: 'release.create' | 'rollback.initiate';
  event: DomainEventType;
  extra: Record<string, unknown>;
}

/**
 * What the creation of a release writes in its row's transaction: the `release.create` audit entry with its
 * `release.create` event, and for a rollback also `rollback.initiate` (naming the release it rolls back from).
 */
export function creationRecords(kind: ReleaseKind, rollbackOf: string | null): CreationRecord[] {
  const records: CreationRecord[] = [{ action: 'release.create', event: DOMAIN_EVENT.releaseCreated, extra: {} }];
  if (kind === 'rollback') {
    records.push({ action: 'rollback.initiate', event: DOMAIN_EVENT.rollbackInitiated, extra: { rollbackOf } });
  }
  return records;
}
