import type { Queryable } from '../db/knex';
import { anyPatternMatches } from '../iam/action-glob';
import { actionVocabulary } from '../iam/action-vocabulary';
import { conferRefusal, heldRole, type Holder } from '../iam/conferred-role';
import { atLeast, minimumRole } from '../iam/role-authorizer';
import { tokenRestriction } from '../machine-access/machine-authenticators';
import { findLiveTokenById } from '../machine-access/service-account-repository';
import { findMember } from '../orgs/membership-repository';
import type { InvitationRow } from './invitation-repository';

const SEND = 'org.invitations.create';

/** What the sender holds now: a member's current role, or a service account token as it is now (null once gone). */
async function senderNow(db: Queryable, row: InvitationRow): Promise<Holder | null | 'nobody'> {
  if (row.invited_by_token_id) {
    const token = await findLiveTokenById(db, row.organization_id, row.invited_by_token_id);
    return token ? { role: token.role, restriction: tokenRestriction(token) } : null;
  }
  if (row.invited_by) {
    const member = await findMember(db, row.organization_id, row.invited_by);
    return member ? { role: member.role } : null;
  }
  return 'nobody';
}

/**
 * An invitation lives only while its sender could still send it (docs/security.md A-81): the member still holds a
 * role that may invite and confer the invited role; a service account token is still live, still allowed to invite,
 * and still covers the role. Rows without a sender (operator tools) have nobody to lose rights.
 */
export async function senderStillHolds(db: Queryable, row: InvitationRow): Promise<boolean> {
  const sender = await senderNow(db, row);
  if (sender === 'nobody') return true;
  if (sender === null) return false;
  const floor = minimumRole(actionVocabulary(), SEND) ?? 'owner';
  const allowed = sender.restriction ? anyPatternMatches(sender.restriction.allowedActions, SEND) : true;
  return allowed && atLeast(heldRole(sender), floor) && conferRefusal(sender, row.role, 'an invitation') === null;
}
