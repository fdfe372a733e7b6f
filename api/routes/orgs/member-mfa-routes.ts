import type { MemberMfaReset } from '../../../src/identity/member-mfa-reset';
import { orgCallerOf, paramOf } from '../../request';
import type { RouteDef } from '../../route-def';
import { requestMeta } from '../auth/auth-http';

/** An owner's reset of a member's MFA (lost authenticator, no recovery codes left). */
export function memberMfaRoutes(memberMfa: MemberMfaReset): RouteDef[] {
  return [
    {
      method: 'post',
      path: '/api/v1/organizations/:slug/members/:userId/mfa/reset',
      summary: "Owner only: remove a member's MFA and end their sessions (only for members of no other organization)",
      tag: 'auth',
      access: { kind: 'organization', action: 'org.members.mfa.reset' },
      handler: async (ctx) => {
        ctx.body = await memberMfa.reset(
          orgCallerOf(ctx),
          paramOf(ctx, 'slug'),
          paramOf(ctx, 'userId'),
          requestMeta(ctx),
        );
      },
    },
  ];
}
