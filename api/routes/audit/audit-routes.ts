import type { AuditService } from '../../../src/audit/audit-service';
import { AUDIT_CATEGORIES, type AuditCategory, type AuditQuery } from '../../../src/audit/types';
import { InvalidInput } from '../../../src/errors';
import type { AppContext } from '../../context';
import type { RouteDef } from '../../route-def';

type Filters = Omit<AuditQuery, 'organizationId' | 'limit' | 'categories'>;

/** Reads the validated query string into typed filters; shared with the IAM audit views. */
export function auditQueryFrom(
  ctx: AppContext,
  pageMax: number,
): Omit<AuditQuery, 'categories'> & { category?: AuditCategory } {
  const q = ctx.query as Record<string, string | undefined>;
  const limit = q.limit === undefined ? 50 : Number(q.limit);
  if (limit < 1 || limit > pageMax) throw new InvalidInput(`limit must be between 1 and ${pageMax}`);
  if (q.category !== undefined && !(AUDIT_CATEGORIES as readonly string[]).includes(q.category)) {
    throw new InvalidInput(`category must be one of ${AUDIT_CATEGORIES.join(', ')}`);
  }
  const from = q.from ? new Date(q.from) : undefined;
  const to = q.to ? new Date(q.to) : undefined;
  // The date-time format admits instants Date cannot hold (a leap second): 400, never 500.
  if ((from && Number.isNaN(from.getTime())) || (to && Number.isNaN(to.getTime()))) {
    throw new InvalidInput('from and to must be valid instants');
  }
  const filters: Filters = {
    from,
    to,
    action: q.action,
    actor: q.actor,
    actorType: q.actorType as AuditQuery['actorType'],
    resourceType: q.resourceType,
    resourceId: q.resourceId,
    projectId: q.projectId,
    status: q.status as AuditQuery['status'],
    breakGlassSessionId: q.breakGlassSessionId,
    cursor: q.cursor,
  };
  const organizationId = ctx.state.principal?.organizationId;
  if (!organizationId) throw new InvalidInput('missing organization context');
  return { ...filters, organizationId, limit, category: q.category as AuditCategory | undefined };
}

const VERIFY_MAX = 1000;

export function auditRoutes(audit: AuditService, pageMax: number): RouteDef[] {
  return [
    {
      method: 'get',
      path: '/api/v2/audit-logs/verification',
      summary:
        "Verify the next bounded segment of the organization's audit hash chain; repeat with nextCursor to the head",
      tag: 'audit',
      access: { kind: 'organization', action: 'org.audit.verify' },
      query: 'audit-verification-query',
      handler: async (ctx) => {
        const q = ctx.query as Record<string, string | undefined>;
        const limit = q.limit === undefined ? 500 : Number(q.limit);
        if (limit < 1 || limit > VERIFY_MAX) throw new InvalidInput(`limit must be between 1 and ${VERIFY_MAX}`);
        const organizationId = ctx.state.principal?.organizationId;
        if (!organizationId) throw new InvalidInput('missing organization context');
        ctx.body = await audit.verify(organizationId, q.cursor, limit);
      },
    },
    {
      method: 'get',
      path: '/api/v2/audit-logs',
      summary: "List the active organization's audit entries, newest first, with filters and cursor pagination",
      tag: 'audit',
      access: { kind: 'organization', action: 'org.audit.read' },
      query: 'audit-logs-query',
      handler: async (ctx) => {
        const { category, ...query } = auditQueryFrom(ctx, pageMax);
        ctx.body = await audit.list({ ...query, categories: category ? [category] : undefined });
      },
    },
  ];
}
