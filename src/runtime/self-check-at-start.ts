import type { Logger } from '../logging/logger';
import type { PlatformRoles } from './platform-roles';
import { closeServices, type Services } from './services';

/** A worker whose settings disagree with the deployment's (a fatal start-up self-check): `serve` exits 78. */
export class SelfCheckFailed extends Error {
  override readonly name = 'SelfCheckFailed';
}

/**
 * The start-up self-checks (issue 43, M2), the readiness checks flagged `selfCheck` (src/http/readiness.ts): each
 * failure is logged at start naming its cause, and /readyz keeps answering 503 with it until it passes. A worker
 * that fails a fatal one (keys not the deployment's, no Temporal namespace or search attributes) cannot work at all
 * and readiness would not stop it polling: it closes what it opened and throws instead of taking tasks. An API stays
 * up, not ready, so its /readyz names the cause.
 */
export async function selfCheckAtStart(
  services: Services & { standing?: { close(): Promise<void> } },
  roles: PlatformRoles,
  log: Logger,
): Promise<void> {
  const { failed, fatal } = await services.readiness.selfCheck();
  for (const [check, reason] of Object.entries(failed)) log.error('start-up self-check failed', { check, reason });
  if (!roles.worker || Object.keys(fatal).length === 0) return;
  await closeServices(services);
  throw new SelfCheckFailed(
    Object.entries(fatal)
      .map(([check, reason]) => `${check}: ${reason}`)
      .join('; '),
  );
}
