import type { EscalationPolicyCreateRequest, EscalationPolicyUpdateRequest } from '../../request-types.generated';
import type { EscalationService } from '../../../src/notifications/escalation-service';
import type { RouteDef } from '../../route-def';
import { bodyOf, created, noContent, orgCallerOf, pageOf, paramOf, queryOf } from '../../request';

const POLICIES = '/api/v2/notifications/escalation-policies';
const INCIDENTS = '/api/v2/notifications/incidents';

/** The page the signed link opens: a form that POSTs the token, so link scanners that prefetch GETs acknowledge nothing. */
function confirmPage(token: string): string {
  // The query schema allows only [0-9a-f.-] in the token: nothing in it can break out of the attribute.
  return `<!doctype html><meta charset="utf-8"><title>Acknowledge incident</title>
<form method="post" action="${INCIDENTS}/acknowledge?token=${token}">
<button type="submit">Acknowledge incident</button></form>`;
}

/** Escalation policies (Pro and Enterprise) and their incidents: acknowledge (API or signed link) and resolve. */
export function escalationRoutes(escalations: EscalationService, pageMax: number): RouteDef[] {
  const policy = `${POLICIES}/:id`;
  const incident = `${INCIDENTS}/:id`;
  return [
    {
      method: 'get',
      path: POLICIES,
      summary: 'Escalation policies, by name',
      tag: 'notifications',
      access: { kind: 'organization', action: 'org.notifications.escalations.read' },
      query: 'org-page-query',
      handler: async (ctx) => {
        ctx.body = await escalations.list(orgCallerOf(ctx), pageOf(ctx, pageMax));
      },
    },
    {
      method: 'post',
      path: POLICIES,
      summary:
        'Create an escalation policy: trigger events, tiers, timeout, repeat, aggregation, cooldown, business hours',
      tag: 'notifications',
      access: { kind: 'organization', action: 'org.notifications.escalations.create' },
      body: 'escalation-policy-create',
      status: 201,
      handler: async (ctx) =>
        created(ctx, await escalations.create(orgCallerOf(ctx), bodyOf<EscalationPolicyCreateRequest>(ctx))),
    },
    {
      method: 'get',
      path: policy,
      summary: 'One escalation policy (`notification policy not found` otherwise)',
      tag: 'notifications',
      access: { kind: 'organization', action: 'org.notifications.escalations.read' },
      handler: async (ctx) => {
        ctx.body = await escalations.get(orgCallerOf(ctx), paramOf(ctx, 'id'));
      },
    },
    {
      method: 'patch',
      path: policy,
      summary: 'Change an escalation policy (running incidents keep the policy they opened with)',
      tag: 'notifications',
      access: { kind: 'organization', action: 'org.notifications.escalations.update' },
      body: 'escalation-policy-update',
      handler: async (ctx) => {
        ctx.body = await escalations.update(
          orgCallerOf(ctx),
          paramOf(ctx, 'id'),
          bodyOf<EscalationPolicyUpdateRequest>(ctx),
        );
      },
    },
    {
      method: 'delete',
      path: policy,
      summary: 'Delete an escalation policy with its incidents',
      tag: 'notifications',
      access: { kind: 'organization', action: 'org.notifications.escalations.delete' },
      handler: async (ctx) => {
        await escalations.delete(orgCallerOf(ctx), paramOf(ctx, 'id'));
        noContent(ctx);
      },
    },
    {
      method: 'get',
      path: INCIDENTS,
      summary: 'Escalation incidents, newest first',
      tag: 'notifications',
      access: { kind: 'organization', action: 'org.notifications.incidents.read' },
      query: 'org-page-query',
      handler: async (ctx) => {
        ctx.body = await escalations.incidents(orgCallerOf(ctx), pageOf(ctx, pageMax));
      },
    },
    {
      method: 'get',
      path: `${INCIDENTS}/acknowledge`,
      summary: 'The signed acknowledge link: a confirmation form (acknowledges nothing by itself)',
      tag: 'notifications',
      access: { kind: 'public' },
      query: 'incident-link-query',
      handler: async (ctx) => {
        ctx.type = 'html';
        ctx.body = confirmPage(queryOf(ctx).token ?? '');
      },
    },
    {
      method: 'post',
      path: `${INCIDENTS}/acknowledge`,
      summary: 'Acknowledge through the signed single-use link (no session)',
      tag: 'notifications',
      access: { kind: 'public' },
      query: 'incident-link-query',
      handler: async (ctx) => {
        ctx.body = await escalations.acknowledgeByLink(queryOf(ctx).token ?? '');
      },
    },
    {
      method: 'get',
      path: incident,
      summary: 'One incident: status, event count, acknowledgement',
      tag: 'notifications',
      access: { kind: 'organization', action: 'org.notifications.incidents.read' },
      handler: async (ctx) => {
        ctx.body = await escalations.incident(orgCallerOf(ctx), paramOf(ctx, 'id'));
      },
    },
    {
      method: 'post',
      path: `${incident}/acknowledge`,
      summary: 'Acknowledge an incident: its escalation stops (Workflow Update)',
      tag: 'notifications',
      access: { kind: 'organization', action: 'org.notifications.incidents.acknowledge' },
      handler: async (ctx) => {
        ctx.body = await escalations.acknowledge(orgCallerOf(ctx), paramOf(ctx, 'id'));
      },
    },
    {
      method: 'post',
      path: `${incident}/resolve`,
      summary: 'Resolve an incident: closes it and resolves its paging and alert notifications',
      tag: 'notifications',
      access: { kind: 'organization', action: 'org.notifications.incidents.resolve' },
      handler: async (ctx) => {
        ctx.body = await escalations.resolve(orgCallerOf(ctx), paramOf(ctx, 'id'));
      },
    },
  ];
}
