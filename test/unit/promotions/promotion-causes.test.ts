import type { FreezeHit } from '../../../src/governance/governance-verdict';
import { promotionCauses, type PromotionFacts } from '../../../src/promotions/promotion-causes';

/** The block causes of a promotion, decided from what the evaluation read: no database, no Temporal. */

const CLEAR: PromotionFacts = {
  sourceEnvironment: 'staging',
  targetEnvironment: 'production',
  freezes: [],
  breakGlass: false,
  approvals: null,
  policy: { blocked: false, failedEnforced: [] },
  unhealthy: [],
  unverified: [],
  soakEndsAt: null,
  busy: [],
};

const freeze = (name: string, endsAt: string | null): FreezeHit => ({
  id: `f-${name}`,
  name,
  reason: 'launch',
  scope: 'project',
  stopTheLine: false,
  startsAt: '2026-11-27T18:00:00.000Z',
  endsAt,
});

const quorum = (received: number, required: number) => ({
  met: received >= required,
  required,
  received,
  perPolicy: [{ policyId: 'p1', name: 'prod-gate', required, received, met: received >= required }],
});

const unverified = [{ tenant: 'eu', service: 'web', version: '1.2.0', reason: 'soaking' as const }];

describe('promotion causes', () => {
  it('answers no cause and no wake-up time when nothing holds the promotion', () => {
    expect(promotionCauses(CLEAR)).toEqual({ causes: [], clearsAt: null });
  });

  it('names the freeze and clears when the last freeze ends, or never for an open-ended one', () => {
    const ended = promotionCauses({
      ...CLEAR,
      freezes: [freeze('weekend', '2026-11-30T06:00:00.000Z'), freeze('launch', '2026-11-29T06:00:00.000Z')],
    });
    expect(ended.causes.map((c) => c.cause)).toEqual(['freeze']);
    expect(ended.causes[0]?.message).toBe('the target environment is frozen by weekend (launch), launch (launch)');
    expect(ended.clearsAt).toBe(Date.parse('2026-11-30T06:00:00.000Z'));
    expect(promotionCauses({ ...CLEAR, freezes: [freeze('hold', null)] }).clearsAt).toBeNull();
  });

  it('waits for approvals until the quorum is met, and not under break-glass', () => {
    const waiting = promotionCauses({ ...CLEAR, approvals: quorum(1, 2) });
    expect(waiting.causes).toEqual([
      {
        cause: 'approvals',
        message: 'waiting for approvals: 1 of 2',
        details: { perPolicy: quorum(1, 2).perPolicy },
      },
    ]);
    expect(promotionCauses({ ...CLEAR, approvals: quorum(2, 2) }).causes).toEqual([]);
    expect(promotionCauses({ ...CLEAR, approvals: quorum(0, 2), breakGlass: true }).causes).toEqual([]);
  });

  it('blocks on enforced policy rules only when the check blocks', () => {
    const failed = { blocked: true, failedEnforced: ['baseline/no-latest'] };
    expect(promotionCauses({ ...CLEAR, policy: failed }).causes[0]?.message).toBe(
      'enforced policy rules fail: baseline/no-latest',
    );
    expect(promotionCauses({ ...CLEAR, policy: { blocked: false, failedEnforced: [] } }).causes).toEqual([]);
  });

  it('holds an unverified source until its soak ends, which break-glass waives', () => {
    const soakEndsAt = Date.parse('2026-11-28T10:00:00.000Z');
    const soaking = promotionCauses({ ...CLEAR, unverified, soakEndsAt });
    expect(soaking.causes.map((c) => c.message)).toEqual(['staging has not verified eu/web 1.2.0 (soaking)']);
    expect(soaking.clearsAt).toBe(soakEndsAt);
    expect(promotionCauses({ ...CLEAR, unverified, soakEndsAt, breakGlass: true })).toEqual({
      causes: [],
      clearsAt: null,
    });
  });

  it('wakes at the earlier of a freeze end and a soak end', () => {
    const freezeEnd = '2026-11-28T06:00:00.000Z';
    const both = promotionCauses({
      ...CLEAR,
      freezes: [freeze('weekend', freezeEnd)],
      unverified,
      soakEndsAt: Date.parse('2026-11-28T10:00:00.000Z'),
    });
    expect(both.clearsAt).toBe(Date.parse(freezeEnd));
    const openFreeze = promotionCauses({ ...CLEAR, freezes: [freeze('hold', null)], unverified, soakEndsAt: 5 });
    expect(openFreeze.clearsAt).toBe(5);
  });

  it('lists every cause that holds, in a fixed order', () => {
    const all = promotionCauses({
      ...CLEAR,
      freezes: [freeze('weekend', null)],
      approvals: quorum(0, 1),
      policy: { blocked: true, failedEnforced: ['baseline/limits'] },
      unhealthy: [{ tenant: 'eu', releaseId: 'r1', status: 'Failed' }],
      unverified,
      busy: [{ id: 'r2' }],
    });
    expect(all.causes.map((c) => c.cause)).toEqual([
      'freeze',
      'approvals',
      'policy',
      'sourceUnhealthy',
      'sourceUnverified',
      'targetBusy',
    ]);
    expect(all.causes.map((c) => c.message).slice(3)).toEqual([
      'staging is not healthy for eu',
      'staging has not verified eu/web 1.2.0 (soaking)',
      'another release is deploying to production: r2',
    ]);
  });
});
