import type { DeploymentStatus } from './deployment-status-repository';

export type Verdict =
  | { outcome: 'Healthy' }
  | { outcome: 'Failed'; syncStatus: string; healthStatus: string; message: string }
  | { outcome: 'Waiting' };

const FAILING_HEALTH = ['Degraded', 'Missing'];

/**
 * What the controller's reports at one revision say about a target (a tenant and environment): Failed as soon as one
 * service's sync errs or its health is Degraded or Missing; Healthy once every service of the target is Synced and
 * Healthy at that revision; otherwise it waits for more reports.
 */
export function targetVerdict(services: string[], statuses: DeploymentStatus[], revision: string): Verdict {
  const atRevision = new Map(statuses.filter((s) => s.revision === revision).map((s) => [s.service, s]));
  for (const s of atRevision.values()) {
    if (s.syncStatus === 'Error' || FAILING_HEALTH.includes(s.healthStatus)) {
      return {
        outcome: 'Failed',
        syncStatus: s.syncStatus,
        healthStatus: s.healthStatus,
        message: `service ${s.service}`,
      };
    }
  }
  const healthy = services.every((name) => {
    const s = atRevision.get(name);
    return s?.syncStatus === 'Synced' && s.healthStatus === 'Healthy';
  });
  return healthy ? { outcome: 'Healthy' } : { outcome: 'Waiting' };
}
