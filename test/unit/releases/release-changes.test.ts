import { InvalidInput } from '../../../src/errors';
import type { DeliveryModel } from '../../../src/gitops/manifests';
import { effectiveSpec, withDefaults } from '../../../src/projects/workload-spec';
import { approvalDeadline } from '../../../src/approval-policies/approval-decision';
import { checkReleaseChanges, withReleaseChanges } from '../../../src/releases/release-changes';
import type { ApprovalPolicySnapshot } from '../../../src/releases/release-workflow-contract';

const model: DeliveryModel = {
  project: 'shop',
  repoUrl: 'http://example.test/git/r/o/shop.git',
  tenants: ['acme', 'globex'],
  environments: [{ slug: 'prod', kubernetesVersion: '1.31' }],
  workloads: [
    {
      name: 'web',
      spec: withDefaults({ image: { repository: 'r.example.com/web', tag: '1.0.0' }, variables: { A: '1', B: '2' } }),
      overrides: { tenants: { acme: { prod: { variables: { B: 'tenant' }, replicas: 3 } } } },
    },
    { name: 'api', spec: withDefaults({ image: { repository: 'r.example.com/api', tag: '2.0.0' } }), overrides: {} },
  ],
};

describe('withReleaseChanges', () => {
  it('sets tag and replicas and merges variables into the tenant-and-environment override only', () => {
    const changed = withReleaseChanges(model, 'acme', 'prod', [
      { workload: 'web', tag: '1.1.0', variables: { C: '3' } },
    ]);
    const web = changed.workloads[0]!;
    const acme = effectiveSpec(web.spec, web.overrides, 'acme', 'prod');
    expect(acme.image.tag).toBe('1.1.0');
    expect(acme.replicas).toBe(3);
    expect(acme.variables).toEqual({ A: '1', B: 'tenant', C: '3' });
    expect(effectiveSpec(web.spec, web.overrides, 'globex', 'prod').image.tag).toBe('1.0.0');
    expect(changed.workloads[1]).toBe(model.workloads[1]);
    expect(model.workloads[0]!.overrides.tenants?.acme?.prod?.variables).toEqual({ B: 'tenant' });
  });
});

describe('checkReleaseChanges', () => {
  it('accepts changes of known workloads and refuses unknown, repeated and empty ones', () => {
    expect(() => checkReleaseChanges(['web', 'api'], [{ workload: 'web', replicas: 0 }])).not.toThrow();
    expect(() => checkReleaseChanges(['web'], [{ workload: 'api', tag: '1' }])).toThrow(
      new InvalidInput('workload api not found in this project'),
    );
    expect(() =>
      checkReleaseChanges(
        ['web'],
        [
          { workload: 'web', tag: '1' },
          { workload: 'web', tag: '2' },
        ],
      ),
    ).toThrow('workload web is changed twice');
    expect(() => checkReleaseChanges(['web'], [{ workload: 'web' }])).toThrow('changes nothing');
  });
});

describe('approvalDeadline', () => {
  const policy = (expiresAfterMinutes: number | null): ApprovalPolicySnapshot => ({
    id: 'p',
    name: 'p',
    projectId: 'x',
    environments: [],
    tenantIds: null,
    requiredApprovals: 1,
    eligibleApprovers: { roles: ['admin'], teams: [], users: [] },
    allowSelfApproval: false,
    expiresAfterMinutes,
    enabled: true,
  });

  it('is the earliest expiry of the policies, or none', () => {
    expect(approvalDeadline([policy(null)], 1000)).toBeNull();
    expect(approvalDeadline([policy(30), policy(null), policy(10)], 1000)).toBe(1000 + 10 * 60_000);
  });
});
