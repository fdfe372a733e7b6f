import {
  applicablePolicies,
  canApprove,
  quorum,
  type ApprovalPolicySnapshot,
  type Approver,
} from '../../../src/approval-policies/approval-decision';

function policy(overrides: Partial<ApprovalPolicySnapshot> = {}): ApprovalPolicySnapshot {
  return {
    id: 'p1',
    name: 'prod gate',
    projectId: 'proj',
    environments: ['prod'],
    tenantIds: null,
    requiredApprovals: 1,
    eligibleApprovers: { roles: ['admin'], teams: [], users: [] },
    allowSelfApproval: false,
    expiresAfterMinutes: null,
    enabled: true,
    ...overrides,
  };
}

const target = { projectId: 'proj', environment: 'prod', tenantId: 't1' };
const admin: Approver = { userId: 'u-admin', role: 'admin', teamIds: [] };
const owner: Approver = { userId: 'u-owner', role: 'owner', teamIds: [] };
const member: Approver = { userId: 'u-member', role: 'member', teamIds: ['team-sre'] };

describe('applicablePolicies', () => {
  it('keeps enabled policies of the project whose environments and tenants cover the target', () => {
    const all = [
      policy({ id: 'env' }),
      policy({ id: 'every-env', environments: [] }),
      policy({ id: 'other-env', environments: ['dev'] }),
      policy({ id: 'tenant', tenantIds: ['t1'] }),
      policy({ id: 'other-tenant', tenantIds: ['t2'] }),
      policy({ id: 'disabled', enabled: false }),
      policy({ id: 'other-project', projectId: 'x' }),
    ];
    expect(applicablePolicies(all, target).map((p) => p.id)).toEqual(['env', 'every-env', 'tenant']);
  });
});

describe('canApprove', () => {
  const gate = [policy({ eligibleApprovers: { roles: ['admin'], teams: ['team-sre'], users: ['u-named'] } })];

  it('accepts eligible approvers by role floor, team or user id', () => {
    expect(canApprove(gate, admin, 'u-req', [])).toEqual({ ok: true });
    expect(canApprove(gate, owner, 'u-req', [])).toEqual({ ok: true });
    expect(canApprove(gate, member, 'u-req', [])).toEqual({ ok: true });
    expect(canApprove(gate, { userId: 'u-named', role: 'viewer', teamIds: [] }, 'u-req', [])).toEqual({ ok: true });
  });

  it('refuses a second approval, self-approval and people no policy names', () => {
    expect(canApprove(gate, admin, 'u-req', [{ userId: 'u-admin' }])).toMatchObject({
      ok: false,
      reason: 'already-approved',
    });
    expect(canApprove(gate, admin, 'u-admin', [])).toMatchObject({ ok: false, reason: 'self-approval' });
    const viewer = { userId: 'u-v', role: 'viewer' as const, teamIds: ['team-x'] };
    expect(canApprove(gate, viewer, 'u-req', [])).toEqual({
      ok: false,
      reason: 'not-eligible',
      message: 'you are not an eligible approver of the approval policy "prod gate"',
    });
    expect(canApprove([], admin, 'u-req', [])).toMatchObject({ ok: false, reason: 'not-eligible' });
    // Named by id but removed from the organization since: no longer eligible.
    const former = { userId: 'u-named', role: null, teamIds: ['team-sre'] };
    expect(canApprove(gate, former, 'u-req', [])).toMatchObject({ ok: false, reason: 'not-eligible' });
  });

  it('lets the requester approve when a policy they are eligible for allows it', () => {
    expect(canApprove([policy({ allowSelfApproval: true })], admin, 'u-admin', [])).toEqual({ ok: true });
    expect(
      canApprove(
        [policy({ allowSelfApproval: true, eligibleApprovers: { roles: ['owner'], teams: [], users: [] } })],
        admin,
        'u-admin',
        [],
      ),
    ).toMatchObject({ reason: 'self-approval' });
  });
});

describe('quorum', () => {
  it('needs every policy to reach its own count from its own eligible approvers', () => {
    const twoAdmins = policy({ id: 'a', requiredApprovals: 2 });
    const sre = policy({ id: 's', name: 'sre', eligibleApprovers: { roles: [], teams: ['team-sre'], users: [] } });
    expect(quorum([twoAdmins, sre], [admin])).toMatchObject({ met: false, required: 3, received: 1 });
    expect(quorum([twoAdmins, sre], [admin, owner])).toMatchObject({ met: false, required: 3, received: 2 });
    const done = quorum([twoAdmins, sre], [admin, owner, member]);
    expect(done).toMatchObject({ met: true, required: 3, received: 3 });
    expect(done.perPolicy).toEqual([
      { policyId: 'a', name: 'prod gate', required: 2, received: 2, met: true },
      { policyId: 's', name: 'sre', required: 1, received: 1, met: true },
    ]);
  });

  it('counts one person once per policy and is met with no policy at all', () => {
    expect(quorum([policy({ requiredApprovals: 2 })], [admin, admin])).toMatchObject({ met: false, received: 1 });
    expect(quorum([], [])).toEqual({ met: true, required: 0, received: 0, perPolicy: [] });
  });
});
