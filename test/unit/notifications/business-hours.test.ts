import { nextOpening, withinBusinessHours, type BusinessHours } from '../../../src/notifications/business-hours';

/** Escalation business-hours rules: pure functions of an instant and the policy's time zone. */
const berlin: BusinessHours = { timeZone: 'Europe/Berlin', days: [1, 2, 3, 4, 5], start: '09:00', end: '17:00' };

describe('withinBusinessHours', () => {
  it('reads the wall clock of the policy time zone', () => {
    // Monday 2026-11-23 08:30 UTC is 09:30 in Berlin (UTC+1 in November).
    expect(withinBusinessHours(berlin, new Date('2026-11-23T08:30:00Z'))).toBe(true);
    expect(withinBusinessHours(berlin, new Date('2026-11-23T07:59:00Z'))).toBe(false);
    expect(withinBusinessHours(berlin, new Date('2026-11-23T16:00:00Z'))).toBe(false); // 17:00 is the end, exclusive
    expect(withinBusinessHours({ ...berlin, timeZone: 'America/New_York' }, new Date('2026-11-23T08:30:00Z'))).toBe(
      false,
    );
  });

  it('weekends are outside', () => {
    expect(withinBusinessHours(berlin, new Date('2026-11-28T10:00:00Z'))).toBe(false); // Saturday
  });

  it('an overnight window belongs to the day it starts on', () => {
    const night: BusinessHours = { timeZone: 'UTC', days: [5], start: '22:00', end: '06:00' };
    expect(withinBusinessHours(night, new Date('2026-11-27T23:00:00Z'))).toBe(true); // Friday night
    expect(withinBusinessHours(night, new Date('2026-11-28T05:59:00Z'))).toBe(true); // Saturday early morning
    expect(withinBusinessHours(night, new Date('2026-11-28T23:00:00Z'))).toBe(false); // Saturday night
  });
});

describe('nextOpening', () => {
  it('is the instant itself inside hours', () => {
    const at = new Date('2026-11-23T10:00:00Z');
    expect(nextOpening(berlin, at)).toEqual(at);
  });

  it('is today’s start before it, and Monday’s start from Friday evening', () => {
    expect(nextOpening(berlin, new Date('2026-11-23T06:00:00Z'))).toEqual(new Date('2026-11-23T08:00:00Z'));
    expect(nextOpening(berlin, new Date('2026-11-27T18:00:00Z'))).toEqual(new Date('2026-11-30T08:00:00Z'));
  });

  it('follows daylight saving time (Berlin goes to UTC+2 on 2027-03-28)', () => {
    // Saturday 2027-03-27 -> Monday 2027-03-29 09:00 local = 07:00 UTC.
    expect(nextOpening(berlin, new Date('2027-03-27T12:00:00Z'))).toEqual(new Date('2027-03-29T07:00:00Z'));
  });

  it('never opens without days', () => {
    expect(nextOpening({ ...berlin, days: [] }, new Date('2026-11-23T06:00:00Z'))).toBeNull();
  });
});
