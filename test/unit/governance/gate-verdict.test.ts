import { STOP_THE_LINE_ID, verdictOf, type FreezeHit } from '../../../src/governance/governance-verdict';

/** The governance gate's decision (src/governance/governance-gate.ts asks the database, then decides here). */
const freeze = (id: string, stopTheLine = false): FreezeHit => ({
  id,
  name: stopTheLine ? 'Stop the line' : 'Sale weekend',
  reason: 'reason',
  scope: stopTheLine ? 'organization' : 'project',
  stopTheLine,
  startsAt: '2026-11-28T00:00:00.000Z',
  endsAt: stopTheLine ? null : '2026-11-30T00:00:00.000Z',
});
const session = {
  sessionId: 's-1',
  justification: 'prod is down',
  userId: 'u-1',
  endsAt: '2026-11-29T01:00:00.000Z',
};

describe('the governance gate decides', () => {
  it('blocks while a freeze or the stop-the-line switch is in force', () => {
    expect(verdictOf([freeze('window')], null).blocked).toBe(true);
    expect(verdictOf([freeze(STOP_THE_LINE_ID, true)], null).blocked).toBe(true);
    expect(verdictOf([freeze('a'), freeze('b')], null)).toEqual({
      freezes: [freeze('a'), freeze('b')],
      breakGlass: null,
      blocked: true,
    });
  });

  it('lets a covering break-glass session through, and names it; nothing frozen blocks nothing', () => {
    expect(verdictOf([freeze('window')], session)).toEqual({
      freezes: [freeze('window')],
      breakGlass: session,
      blocked: false,
    });
    expect(verdictOf([], null).blocked).toBe(false);
    expect(verdictOf([], session).blocked).toBe(false);
  });
});
