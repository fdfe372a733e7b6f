import type { DeploymentStatus } from '../../../src/webhooks/deployment-status-repository';
import { targetVerdict } from '../../../src/webhooks/target-verdict';

const status = (service: string, revision: string, syncStatus: string, healthStatus: string): DeploymentStatus => ({
  organizationId: 'o',
  projectId: 'p',
  tenantId: 't',
  tenant: 'acme',
  environment: 'dev',
  service,
  syncStatus,
  healthStatus,
  revision,
  namespace: 'argocd',
  reportedAt: new Date(),
});

describe('targetVerdict', () => {
  it('is Healthy only when every service is Synced and Healthy at the revision', () => {
    expect(targetVerdict(['web', 'api'], [status('web', 'r1', 'Synced', 'Healthy')], 'r1')).toEqual({
      outcome: 'Waiting',
    });
    expect(
      targetVerdict(
        ['web', 'api'],
        [status('web', 'r1', 'Synced', 'Healthy'), status('api', 'r0', 'Synced', 'Healthy')],
        'r1',
      ),
    ).toEqual({ outcome: 'Waiting' });
    expect(
      targetVerdict(
        ['web', 'api'],
        [status('web', 'r1', 'Synced', 'Healthy'), status('api', 'r1', 'Synced', 'Healthy')],
        'r1',
      ),
    ).toEqual({ outcome: 'Healthy' });
  });

  it('is Failed as soon as one service at the revision degrades or errs', () => {
    expect(targetVerdict(['web', 'api'], [status('api', 'r1', 'Synced', 'Degraded')], 'r1')).toMatchObject({
      outcome: 'Failed',
      healthStatus: 'Degraded',
      message: 'service api',
    });
    expect(targetVerdict(['web'], [status('web', 'r1', 'Error', 'Progressing')], 'r1')).toMatchObject({
      outcome: 'Failed',
    });
    // Another revision's degradation is not this release's.
    expect(targetVerdict(['web'], [status('web', 'r0', 'Synced', 'Degraded')], 'r1')).toEqual({ outcome: 'Waiting' });
  });
});
