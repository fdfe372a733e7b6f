import type { AuditService } from '../audit/audit-service';
import type { AuditEntryInput } from '../audit/types';
import type { Tx } from '../db/knex';
import { listMemberships } from '../orgs/membership-lookup';

/**
 * An event of the account itself (logout, a session revoked, password or MFA changed, MFA reset): it changes how the
 * user reaches every organization they belong to, so each of those organizations' audit views shows it. One entry per
 * organization, each appended to that organization's own chain (docs/decisions/0004), in slug order so that two such
 * transactions lock the chains in the same order; a user of no organization (or of none any more) gets one entry in
 * `fallbackOrganizationId`'s chain, the instance chain by default.
 */
export async function appendAccountEntry(
  audit: Pick<AuditService, 'append'>,
  trx: Tx,
  accountUserId: string,
  entry: AuditEntryInput,
  fallbackOrganizationId: string | null = null,
): Promise<void> {
  const organizations = (await listMemberships(trx, accountUserId)).map((m) => m.organizationId);
  const chains = organizations.length > 0 ? organizations : [fallbackOrganizationId];
  for (const organizationId of chains) await audit.append(trx, { ...entry, organizationId });
}
