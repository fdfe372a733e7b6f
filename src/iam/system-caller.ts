import type { OrgCaller } from './caller';

/**
 * The caller a subsystem acts as (a webhook once its signature or token verified): the system, named by its
 * subsystem, inside the organization the credential belongs to, for one request id. It reaches services that scope
 * by organization.
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
