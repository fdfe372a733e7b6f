import type { OrgCaller } from '../iam/caller';

/** Names of the subsystems that act on their own (audit entries of system actions name their subsystem). */
export const SUBSYSTEM = { imageWebhook: 'image-update-webhook', controllerWebhook: 'cdcontroller-webhook' } as const;

/**
 * The caller a webhook acts as once its signature or token verified: the system, named by its subsystem, inside the
 * organization the credential belongs to, for one request id. It reaches services that scope by organization.
 */
export function systemCaller(subsystem: string, organizationId: string, requestId: string): OrgCaller {
  return {
    principal: {
      kind: 'service_account',
      actorType: 'system',
      actor: subsystem,
      userId: null,
      email: null,
      organizationId,
      role: 'admin',
      credentialId: subsystem,
      isInstanceAdmin: false,
    },
    requestId,
    organizationId,
    role: 'admin',
  };
}
