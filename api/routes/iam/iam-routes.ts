import type { AuditService } from '../../../src/audit/audit-service';
import { IAM_CATEGORIES, type AuditCategory } from '../../../src/audit/types';
import { InvalidInput } from '../../../src/errors';
import { reportPeriod } from '../../../src/audit/audit-report';
import type { EffectivePermissionsQuery } from '../../../src/views/effective-permissions';
import type { IamViews } from '../../../src/views/iam-views';
import type { AppContext } from '../../context';
import { orgCallerOf, paramOf, queryOf } from '../../request';
import type { RouteDef } from '../../route-def';
import { auditQueryFrom } from '../audit/audit-routes';

export interface IamRouteDeps {
  iam: IamViews;
  audit: Pick<AuditService, 'list'>;
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
  const { iam } = deps;
  return [
    {
      method: 'get',
      path: '/api/v2/iam/me/permissions',
      summary: "The caller's effective permissions: role, teams, grants; optionally one resource and one action",
      tag: 'iam',
      access: { kind: 'organization', action: 'org.iam.self.read' },
      query: 'iam-permissions-query',
      handler: async (ctx) => {
        ctx.body = await iam.myPermissions(orgCallerOf(ctx), permissionsQuery(ctx));
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
        ctx.body = await iam.memberPermissions(orgCallerOf(ctx), paramOf(ctx, 'userId'), permissionsQuery(ctx));
      },
    },
    {
      method: 'get',
      path: '/api/v2/iam/access-overview',
      summary: "The organization's access at a glance: roles, privileged members, teams, grants, open invitations",
      tag: 'iam',
      access: { kind: 'organization', action: 'org.iam.read' },
      handler: async (ctx) => {
        ctx.body = await iam.accessOverview(orgCallerOf(ctx));
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
        ctx.body = await iam.auditReport(orgCallerOf(ctx), reportPeriod(queryOf(ctx)));
      },
    },
  ];
}
