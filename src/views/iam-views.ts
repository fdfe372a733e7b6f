import type { Db } from '../db/knex';
import { accessOverview } from './access-overview';
import { iamAuditReport } from '../audit/audit-report';
import type { AuthorizationChain } from '../iam/authorization-chain';
import type { OrgCaller } from '../iam/caller';
import { createEffectivePermissions } from './effective-permissions';

export type IamViews = ReturnType<typeof createIamViews>;

/** The IAM center's read-only views of the caller's organization, shown instead of enforced. */
export function createIamViews(deps: { db: Db; authorization: AuthorizationChain }) {
  const permissions = createEffectivePermissions(deps);
  return {
    myPermissions: permissions.mine,
    memberPermissions: permissions.ofMember,
    accessOverview: (caller: OrgCaller) => accessOverview(deps.db, caller),
    auditReport: (caller: OrgCaller, period: { from: Date; to: Date }) =>
      iamAuditReport(deps.db, caller.organizationId, period),
  };
}
