import { Forbidden, InvalidInput, NotFound } from '../errors';
import { isUuid } from '../db/uuid';
import { type OrgCaller } from '../iam/caller';
import type { CrossOrgDeps } from '../iam/cross-org';
import type { RequestMeta } from './auth-audit';
import type { MfaSettings } from './mfa/mfa-settings';
import { resolveActiveOrg } from '../orgs/active-org';
import { countMembershipsOf, findMember } from '../orgs/membership-repository';

export type MemberMfaReset = ReturnType<typeof createMemberMfaReset>;

/**
 * An owner's way out for a member who lost every second factor. An owner speaks for one organization only, so the
 * reset is allowed only when the member belongs to no other organization: otherwise it would silently weaken the
 * protection of organizations whose owners never agreed (the instance operator's `reset-mfa` command remains).
 */
export function createMemberMfaReset(deps: CrossOrgDeps & { mfa: Pick<MfaSettings, 'reset'> }) {
  return {
    async reset(caller: OrgCaller, slug: string, targetUserId: string, meta: RequestMeta) {
      const org = await resolveActiveOrg(deps, caller, slug);
      if (!isUuid(targetUserId) || !(await findMember(deps.db, org.id, targetUserId))) {
        throw new NotFound('member not found');
      }
      if (targetUserId === caller.principal.userId) {
        throw new InvalidInput('use POST /api/v1/auth/mfa/disable for your own account');
      }
      if ((await countMembershipsOf(deps.db, targetUserId)) > 1) {
        throw new Forbidden(
          'this member also belongs to other organizations: only the instance operator can reset their MFA',
        );
      }
      return deps.mfa.reset(
        targetUserId,
        { actorType: 'user', actor: caller.principal.actor, userId: caller.principal.userId, organizationId: org.id },
        meta,
      );
    },
  };
}
