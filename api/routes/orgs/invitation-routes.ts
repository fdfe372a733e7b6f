import type { InvitationCreateRequest } from '../../request-types.generated';
import type { InvitationService } from '../../../src/invitations/invitation-service';

import type { InvitationStatus } from '../../../src/invitations/invitation-workflow-contract';
import type { SessionService } from '../../../src/identity/session-service';
import type { RouteDef } from '../../route-def';
import { bodyOf, callerOf, orgCallerOf, pageOf, paramOf, queryOf, sessionIdOf, userIdOf } from '../../request';
import { organizationView } from '../auth/auth-http';

/** Invitations (spec state table): admin paths by id under the organization, public lookup and accept by token. */
export function invitationRoutes(
  invitations: InvitationService,
  pageMax: number,
  sessions: Pick<SessionService, 'switchOrganization'>,
): RouteDef[] {
  const base = '/api/v1/organizations/:slug/invitations';
  return [
    {
      method: 'post',
      path: base,
      summary:
        'Invite an email address with a role (owner and admin only); a retried identical send returns the pending one',
      tag: 'invitations',
      access: { kind: 'organization', action: 'org.invitations.create' },
      body: 'invitation-create',
      // 201 when created, 200 for a retried identical send (set by the handler, so no fixed `status` here).
      handler: async (ctx) => {
        const sent = await invitations.send(
          orgCallerOf(ctx),
          paramOf(ctx, 'slug'),
          bodyOf<InvitationCreateRequest>(ctx),
        );
        ctx.status = sent.created ? 201 : 200;
        ctx.body = sent.invitation;
      },
    },
    {
      method: 'get',
      path: base,
      summary: "List the organization's invitations, optionally by status",
      tag: 'invitations',
      access: { kind: 'organization', action: 'org.invitations.read' },
      query: 'invitation-list-query',
      handler: async (ctx) => {
        const status = queryOf(ctx).status as InvitationStatus | undefined;
        ctx.body = await invitations.list(orgCallerOf(ctx), paramOf(ctx, 'slug'), status, pageOf(ctx, pageMax));
      },
    },
    {
      method: 'get',
      path: `${base}/:id`,
      summary: 'One invitation',
      tag: 'invitations',
      access: { kind: 'organization', action: 'org.invitations.read' },
      handler: async (ctx) => {
        ctx.body = await invitations.get(orgCallerOf(ctx), paramOf(ctx, 'slug'), paramOf(ctx, 'id'));
      },
    },
    {
      method: 'post',
      path: `${base}/:id/reissue`,
      summary: 'Issue a new token, restart the expiry and send the email again (the old token stops working)',
      tag: 'invitations',
      access: { kind: 'organization', action: 'org.invitations.reissue' },
      handler: async (ctx) => {
        const sent = await invitations.reissue(orgCallerOf(ctx), paramOf(ctx, 'slug'), paramOf(ctx, 'id'));
        ctx.body = sent.invitation;
      },
    },
    {
      method: 'delete',
      path: `${base}/:id`,
      summary: 'Revoke (cancel) a pending invitation',
      tag: 'invitations',
      access: { kind: 'organization', action: 'org.invitations.revoke' },
      handler: async (ctx) => {
        ctx.body = await invitations.revoke(orgCallerOf(ctx), paramOf(ctx, 'slug'), paramOf(ctx, 'id'));
      },
    },
    {
      method: 'get',
      path: '/api/v1/invitations/:token',
      summary: 'Public lookup of a pending invitation by its token',
      tag: 'invitations',
      access: { kind: 'public' },
      handler: async (ctx) => {
        ctx.set('Cache-Control', 'no-store');
        ctx.body = await invitations.lookup(paramOf(ctx, 'token'));
      },
    },
    {
      method: 'post',
      path: '/api/v1/invitations/:token/accept',
      summary:
        "Accept: the signed-in user's verified email must be the invited one (403 invitation email mismatch); " +
        'answers an access token with the new organization active',
      tag: 'invitations',
      access: { kind: 'authenticated', action: 'invitations.accept' },
      handler: async (ctx) => {
        const accepted = await invitations.accept(callerOf(ctx), paramOf(ctx, 'token'));
        const sessionId = sessionIdOf(ctx);
        ctx.set('Cache-Control', 'no-store');
        if (sessionId === undefined) {
          ctx.body = accepted;
          return;
        }
        // The next call (an approval, a release) needs the new organization in the token: hand one over at once.
        const switched = await sessions.switchOrganization(userIdOf(ctx), sessionId, accepted.organization.id);
        ctx.body = {
          ...accepted,
          accessToken: switched.accessToken,
          tokenType: 'Bearer',
          expiresIn: switched.expiresIn,
          activeOrganization: organizationView(switched.organization),
        };
      },
    },
  ];
}
