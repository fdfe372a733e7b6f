import { targetChanges } from '../../../src/deployments/deployment-changes';
import type { ChangedTargetRow, WindowEventRow } from '../../../src/deployments/deployment-history-repository';
import { instantOf, windowOf } from '../../../src/deployments/deployment-history-service';
import { InvalidInput } from '../../../src/errors';

const now = new Date('2026-11-29T12:00:00.000Z');

describe('instants of the deployments history', () => {
  it.each([
    ['2026-11-29T11:00:00Z', '2026-11-29T11:00:00.000Z'],
    ['2026-11-29T13:30:00+02:00', '2026-11-29T11:30:00.000Z'],
    ['2026-11-29T11:59:59.123Z', '2026-11-29T11:59:59.123Z'],
    ['2026-11-29T12:00:00Z', '2026-11-29T12:00:00.000Z'],
  ])('reads %s', (text, iso) => {
    expect(instantOf('at', text, now).toISOString()).toBe(iso);
  });

  it.each(['yesterday', '2026-11-29T11:00:00', '2026-11-29', '2026-11-29T25:00:00Z', '2026-02-30T22:00:00Z', ''])(
    'refuses %j',
    (text) => {
      expect(() => instantOf('at', text, now)).toThrow(
        new InvalidInput('at must be an ISO 8601 instant with a time zone, for example 2026-11-29T12:00:00Z'),
      );
    },
  );

  it('refuses an instant after now', () => {
    expect(() => instantOf('at', '2026-11-29T12:00:01Z', now)).toThrow(
      new InvalidInput('at is in the future (now is 2026-11-29T12:00:00.000Z)'),
    );
  });

  it('takes a window of at most 31 days that does not run backwards, to now by default', () => {
    expect(windowOf({ from: '2026-10-29T12:00:00Z' }, now)).toEqual({
      from: new Date('2026-10-29T12:00:00Z'),
      to: now,
    });
    expect(() => windowOf({ from: '2026-10-29T11:59:59Z' }, now)).toThrow(
      new InvalidInput('the window from .. to must not be longer than 31 days'),
    );
    expect(() => windowOf({ from: '2026-11-29T11:00:00Z', to: '2026-11-29T10:00:00Z' }, now)).toThrow(
      new InvalidInput('from must not be after to'),
    );
    expect(() => windowOf({ to: '2026-11-29T10:00:00Z' }, now)).toThrow(InvalidInput);
  });
});

describe('what changed for one Application', () => {
  const base: ChangedTargetRow = {
    tenant_id: 't',
    tenant_slug: 'acme',
    environment: 'prod',
    service: 'web',
    target_key: 'acme/prod/web',
    base_version: '1.1.0',
    base_revision: 'a1',
    base_live_version: '1.1.0',
    base_sync_status: 'Synced',
    base_health_status: 'Healthy',
  };
  let id = 0;
  const event = (e: Partial<WindowEventRow>): WindowEventRow => ({
    id: String((id += 1)),
    tenant_id: 't',
    environment: 'prod',
    service: 'web',
    kind: 'report',
    revision: 'a1',
    version: null,
    live_version: null,
    source_kind: null,
    source_id: null,
    actor: null,
    audit_ids: null,
    sync_status: null,
    health_status: null,
    reported_at: null,
    at: new Date(`2026-11-29T10:00:${String(id).padStart(2, '0')}Z`),
    ...e,
  });

  it('names a rollback, chains versions and keeps only health changes', () => {
    const events = [
      event({
        kind: 'commit',
        revision: 'b2',
        version: '1.3.0',
        source_kind: 'webhook',
        source_id: 'req',
        actor: 'hook',
      }),
      event({ revision: 'b2', live_version: '1.3.0', sync_status: 'Synced', health_status: 'Progressing' }),
      event({ revision: 'b2', live_version: '1.3.0', sync_status: 'OutOfSync', health_status: 'Progressing' }),
      event({ revision: 'b2', live_version: '1.3.0', sync_status: 'Synced', health_status: 'Degraded' }),
      event({
        kind: 'commit',
        revision: 'c3',
        version: '1.1.0',
        source_kind: 'release',
        source_id: 'r9',
        actor: 'ann@example.com',
        audit_ids: ['9', '10'],
      }),
    ];
    const releases = new Map([['r9', { kind: 'rollback', title: 'Rollback to web 1.1.0: bad image' }]]);
    const out = targetChanges(base, events, (rid) => releases.get(rid));
    expect(out.changes.map((c) => [c.revision, c.from, c.to, c.cause, c.by.actor, c.by.title, c.auditIds])).toEqual([
      ['b2', '1.1.0', '1.3.0', 'webhook', 'hook', null, []],
      ['c3', '1.3.0', '1.1.0', 'rollback', 'ann@example.com', 'Rollback to web 1.1.0: bad image', ['9', '10']],
    ]);
    expect(out.health.map((h) => [h.from, h.to, h.version])).toEqual([
      ['Healthy', 'Progressing', '1.3.0'],
      ['Progressing', 'Degraded', '1.3.0'],
    ]);
    expect(out.from).toEqual({ version: '1.1.0', liveVersion: '1.1.0', syncStatus: 'Synced', healthStatus: 'Healthy' });
    expect(out.to).toEqual({ version: '1.1.0', liveVersion: '1.3.0', syncStatus: 'Synced', healthStatus: 'Degraded' });
  });
});
