import { DOMAIN_EVENT } from '../../../src/events/domain-event-repository';
import { creationRecords } from '../../../src/releases/creation-records';

/** What a release's creation writes beside its row (src/releases/release-service.ts writes each in one transaction). */
describe("a release's creation records", () => {
  it('a release: the release.create audit entry with its event', () => {
    expect(creationRecords('release', null)).toEqual([
      { action: 'release.create', event: DOMAIN_EVENT.releaseCreated, extra: {} },
    ]);
  });

  it('a rollback: release.create, then rollback.initiate naming what it rolls back from', () => {
    expect(creationRecords('rollback', 'r-1').map((r) => [r.action, r.event, r.extra])).toEqual([
      ['release.create', DOMAIN_EVENT.releaseCreated, {}],
      ['rollback.initiate', DOMAIN_EVENT.rollbackInitiated, { rollbackOf: 'r-1' }],
    ]);
  });
});
