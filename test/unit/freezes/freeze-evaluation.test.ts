import { activeFreezes, windowsWithin, type FreezeDefinition } from '../../../src/freezes/freeze-evaluation';
import { parseRule } from '../../../src/freezes/recurrence';
import { instantOf, isTimeZone } from '../../../src/freezes/zoned-time';

/** Fridays from 16:00 Berlin time for three days (72 hours), anchored before the spring DST change of 2026. */
const fridays: FreezeDefinition = {
  id: 'f1',
  name: 'weekend',
  reason: 'no weekend deploys',
  scope: 'project',
  projectIds: ['p1'],
  environments: ['production'],
  tenants: [],
  window: {
    kind: 'recurring',
    rrule: 'FREQ=WEEKLY;BYDAY=FR;BYHOUR=16',
    timeZone: 'Europe/Berlin',
    durationMinutes: 3 * 24 * 60,
    anchor: new Date('2026-03-01T12:00:00Z'),
  },
};
const production = { projectId: 'p1', environment: 'production', tenants: [] };
const activeAt = (iso: string, target = production) => activeFreezes([fridays], target, new Date(iso));

describe('activeFreezes with a recurring freeze in Europe/Berlin (fixed clock)', () => {
  test('blocks from Friday 16:00 winter time (15:00 UTC) and not a minute before', () => {
    expect(activeAt('2026-03-27T14:59:59Z')).toEqual([]);
    const [hit] = activeAt('2026-03-27T15:00:00Z');
    expect(hit?.occurrence.start.toISOString()).toBe('2026-03-27T15:00:00.000Z');
    expect(hit?.occurrence.end.toISOString()).toBe('2026-03-30T15:00:00.000Z');
  });

  test('the window spans the DST change of 29 March and ends after 72 hours', () => {
    expect(activeAt('2026-03-29T12:00:00Z')).toHaveLength(1);
    expect(activeAt('2026-03-30T14:59:59Z')).toHaveLength(1);
    expect(activeAt('2026-03-30T15:00:00Z')).toEqual([]);
    expect(activeAt('2026-04-01T10:00:00Z')).toEqual([]);
  });

  test('after the change the window follows the wall clock: 16:00 summer time is 14:00 UTC', () => {
    expect(activeAt('2026-04-03T13:59:59Z')).toEqual([]);
    expect(activeAt('2026-04-03T14:00:00Z')[0]?.occurrence.start.toISOString()).toBe('2026-04-03T14:00:00.000Z');
  });

  test('autumn change: Friday 23 October is 14:00 UTC, Friday 30 October is 15:00 UTC', () => {
    expect(activeAt('2026-10-23T14:00:00Z')).toHaveLength(1);
    expect(activeAt('2026-10-30T14:30:00Z')).toEqual([]);
    expect(activeAt('2026-10-30T15:00:00Z')).toHaveLength(1);
  });

  test('scope: another environment or project is not frozen; a named tenant list must overlap', () => {
    expect(activeAt('2026-03-28T10:00:00Z', { ...production, environment: 'staging' })).toEqual([]);
    expect(activeAt('2026-03-28T10:00:00Z', { ...production, projectId: 'p2' })).toEqual([]);
    const acme = { ...fridays, tenants: ['acme'] };
    const at = new Date('2026-03-28T10:00:00Z');
    expect(activeFreezes([acme], { ...production, tenants: ['globex'] }, at)).toEqual([]);
    expect(activeFreezes([acme], { ...production, tenants: ['globex', 'acme'] }, at)).toHaveLength(1);
    expect(activeFreezes([acme], production, at)).toHaveLength(1);
  });

  test('a one-off window is half open: [startsAt, endsAt)', () => {
    const once: FreezeDefinition = {
      ...fridays,
      window: { kind: 'one-off', startsAt: new Date('2026-12-20T00:00:00Z'), endsAt: new Date('2027-01-02T00:00:00Z') },
    };
    const at = (iso: string) => activeFreezes([once], production, new Date(iso)).length;
    expect([at('2026-12-19T23:59:59Z'), at('2026-12-20T00:00:00Z'), at('2027-01-02T00:00:00Z')]).toEqual([0, 1, 0]);
  });

  test('upcoming windows within a horizon: the current one first, then the next Fridays', () => {
    const windows = windowsWithin(fridays, new Date('2026-03-28T10:00:00Z'), 30 * 86_400_000, 10);
    expect(windows.map((w) => w.start.toISOString())).toEqual([
      '2026-03-27T15:00:00.000Z',
      '2026-04-03T14:00:00.000Z',
      '2026-04-10T14:00:00.000Z',
      '2026-04-17T14:00:00.000Z',
      '2026-04-24T14:00:00.000Z',
    ]);
  });
});

describe('rule and time zone checks', () => {
  test('parseRule refuses what a freeze cannot use, with a reason', () => {
    expect(parseRule('FREQ=WEEKLY;BYDAY=FR;BYHOUR=16')).toMatchObject({ byhour: 16 });
    expect(parseRule('FREQ=SOMETIMES')).toEqual(expect.stringContaining('not a valid'));
    expect(parseRule('BYDAY=FR')).toBe('rrule must name FREQ');
    expect(parseRule('FREQ=DAILY;COLOR=RED')).toEqual(expect.stringContaining('unknown part COLOR'));
    expect(parseRule('FREQ=MINUTELY')).toBe('rrule FREQ must be DAILY, WEEKLY, MONTHLY or YEARLY');
    expect(parseRule('DTSTART:20260101T000000Z\nRRULE:FREQ=DAILY')).toEqual(expect.stringContaining('DTSTART'));
    expect(parseRule('x'.repeat(501))).toEqual(expect.stringContaining('500'));
  });

  test('isTimeZone knows IANA names only', () => {
    expect(isTimeZone('Europe/Berlin')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Mars/Olympus_Mons')).toBe(false);
    expect(isTimeZone('+01:00')).toBe(false);
  });

  test('a wall time the clock skips maps to the instant after the gap', () => {
    expect(instantOf(new Date('2026-03-29T02:30:00Z'), 'Europe/Berlin').toISOString()).toBe('2026-03-29T01:30:00.000Z');
  });
});
