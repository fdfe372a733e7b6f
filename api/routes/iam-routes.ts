import type { AuditService } from '../../src/audit/audit-service';
import { IAM_CATEGORIES, type AuditCategory } from '../../src/audit/types';
import type { Db } from '../../src/db/knex';
import { InvalidInput } from '../../src/errors';
import { accessOverview } from '../../src/iam/access-overview';
import { iamAuditReport, reportPeriod } from '../../src/iam/audit-report';
import type { AuthorizationChain } from '../../src/iam/authorization-chain';
import { createEffectivePermissions, type EffectivePermissionsQuery } from '../../src/iam/effective-permissions';
import type { AppContext } from '../context';
import type { RouteDef } from '../route-def';
import { auditQueryFrom } from './audit';
import { orgCallerOf, paramOf, queryOf } from './org-request';

export interface IamRouteDeps {
  db: Db;
  audit: AuditService;
  authorization: AuthorizationChain;
  auditPageMax: number;
}

function permissionsQuery(ctx: AppContext): EffectivePermissionsQuery {
  const { resourceType, resourceId, action } = queryOf(ctx);
  if ((resourceType === undefined) !== (resourceId === undefined)) {
    throw new InvalidInput('resourceType and resourceId go together');
  }
  return { resourceType: resourceType as EffectivePermissionsQuery['resourceType'], resourceId, action };
}

/** IAM center views: effective permissions, the access overview, IAM audit entries and their summary. */
export function iamRoutes(deps: IamRouteDeps): RouteDef[] {
  const permissions = createEffectivePermissions(deps);
  return [
    {
      method: 'get',
      path: '/api/v2/iam/me/permissions',
      summary: "The caller's effective permissions: role, teams, grants; optionally one resource and one action",
      tag: 'iam',
      access: { kind: 'organization', action: 'org.iam.self.read' },
      query: 'iam-permissions-query',
      handler: async (ctx) => {
        ctx.body = await permissions.mine(orgCallerOf(ctx), permissionsQuery(ctx));
      },
    },
    {
      method: 'get',
      path: '/api/v2/iam/users/:userId/permissions',
      summary: "Another member's effective permissions",
      tag: 'iam',
      access: { kind: 'organization', action: 'org.iam.read' },
      query: 'iam-permissions-query',
      handler: async (ctx) => {
        ctx.body = await permissions.ofMember(orgCallerOf(ctx), paramOf(ctx, 'userId'), permissionsQuery(ctx));
      },
    },
    {
      method: 'get',
      path: '/api/v2/iam/access-overview',
      summary: "The organization's access at a glance: roles, privileged members, teams, grants, open invitations",
      tag: 'iam',
      access: { kind: 'organization', action: 'org.iam.read' },
      handler: async (ctx) => {
        ctx.body = await accessOverview(deps.db, orgCallerOf(ctx));
      },
    },
    {
      method: 'get',
      path: '/api/v2/iam/audit-events',
      summary: 'Audit entries of the IAM categories only, with the audit-log filters and cursor pagination',
      tag: 'iam',
      access: { kind: 'organization', action: 'org.iam.audit.read' },
      query: 'audit-logs-query',
      handler: async (ctx) => {
        const { category, ...query } = auditQueryFrom(ctx, deps.auditPageMax);
        const iam = IAM_CATEGORIES as readonly AuditCategory[];
        if (category !== undefined && !iam.includes(category)) {
          throw new InvalidInput(`category must be one of ${IAM_CATEGORIES.join(', ')}`);
        }
        ctx.body = await deps.audit.list({ ...query, categories: category ? [category] : iam });
      },
    },
    {
      method: 'get',
      path: '/api/v2/iam/audit-report',
      summary: 'JSON summary of IAM audit entries over a period: counts by category, actor, outcome and action',
      tag: 'iam',
      access: { kind: 'organization', action: 'org.iam.audit.read' },
      query: 'iam-audit-report-query',
      handler: async (ctx) => {
        const caller = orgCallerOf(ctx);
        ctx.body = await iamAuditReport(deps.db, caller.organizationId, reportPeriod(queryOf(ctx)));
      },
    },
  ];
}
