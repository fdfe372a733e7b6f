import { InvalidInput, NotFound } from '../errors';
import type { Tx } from '../db/knex';
import { isActionPattern } from '../iam/action-glob';
import { holderOf, orgEntry, uuidKey, type OrgCaller } from '../iam/caller';
import { assertMayConfer } from '../iam/conferred-role';
import { orgResource, type OrgDomainDeps } from '../iam/cross-org';
import type { PlanGate } from '../plans/plan-gate';
import { requireSignedInUser } from './credential-managers';
import type { TokenScope } from './machine-authenticators';
import { TOKEN_PREFIX, mintSecret, secretHash } from './secret-value';
import {
  deleteAccountToken,
  deleteServiceAccount,
  findServiceAccount,
  insertAccountToken,
  insertServiceAccount,
  listAccountTokens,
  listServiceAccounts,
  updateServiceAccount,
  type AccountRole,
  type AccountToken,
  type ServiceAccount,
} from './service-account-repository';

export type ServiceAccountService = ReturnType<typeof createServiceAccountService>;

export interface AccountInput {
  name: string;
  description?: string;
  role: AccountRole;
}

export interface TokenInput {
  description?: string;
  scopes: TokenScope[];
  allowedActions: string[];
  /** Lifetime in seconds. */
  expiresIn?: number;
}

const DEFAULT_TOKEN_LIFETIME_SECONDS = 90 * 86_400;

/**
 * Service accounts of the organization (Enterprise plan) and their tokens. Every call checks the plan first, so a
 * Free or Pro organization learns which plan it needs and nothing else.
 */
export function createServiceAccountService(deps: OrgDomainDeps & { plans: PlanGate }) {
  const { db } = deps;
  const { lookup, record, found } = orgResource(
    deps,
    { table: 'service_accounts', resourceType: 'service account', category: 'service_accounts' },
    findServiceAccount,
  );
  const gate = (caller: OrgCaller) => deps.plans.require(caller.organizationId, 'service_accounts');
  const accountOf = async (caller: OrgCaller, id: string, trx?: Tx) => {
    await gate(caller);
    return lookup(caller, id, trx);
  };
  const audited = (trx: Tx, caller: OrgCaller, action: string, a: ServiceAccount, details: Record<string, unknown>) =>
    record(trx, caller, action, { id: a.id, slug: a.name }, details);

  function tokenEntry(caller: OrgCaller, action: string, account: ServiceAccount, token: AccountToken) {
    return orgEntry(caller, {
      action,
      category: 'service_accounts',
      resourceType: 'service_account_token',
      resourceId: token.id,
      details: {
        serviceAccountId: account.id,
        serviceAccount: account.name,
        scopes: token.scopes,
        allowedActions: token.allowedActions,
        expiresAt: token.expiresAt,
      },
    });
  }

  return {
    async list(caller: OrgCaller): Promise<{ items: ServiceAccount[] }> {
      await gate(caller);
      return { items: await listServiceAccounts(db, caller.organizationId) };
    },

    get: (caller: OrgCaller, id: string) => accountOf(caller, id),

    async create(caller: OrgCaller, input: AccountInput): Promise<ServiceAccount> {
      await gate(caller);
      assertMayConfer(holderOf(caller), input.role, 'a service account');
      return db.transaction(async (trx) => {
        const account = await insertServiceAccount(
          trx,
          caller.organizationId,
          { name: input.name, description: input.description ?? '', role: input.role },
          caller.principal.userId,
        );
        await audited(trx, caller, 'service_account.create', account, { role: account.role });
        return account;
      });
    },

    /** A role change applies to every token of the account on its next request (tokens read the role live). */
    update(caller: OrgCaller, id: string, changes: Partial<AccountInput>): Promise<ServiceAccount> {
      return db.transaction(async (trx) => {
        const account = await accountOf(caller, id, trx);
        if (changes.role !== undefined) assertMayConfer(holderOf(caller), changes.role, 'a service account');
        found(await updateServiceAccount(trx, caller.organizationId, account.id, changes));
        await audited(trx, caller, 'service_account.update', account, { changes, from: { role: account.role } });
        return (await findServiceAccount(trx, caller.organizationId, account.id)) ?? account;
      });
    },

    delete(caller: OrgCaller, id: string): Promise<void> {
      return db.transaction(async (trx) => {
        const account = await accountOf(caller, id, trx);
        found(await deleteServiceAccount(trx, caller.organizationId, account.id));
        await audited(trx, caller, 'service_account.delete', account, { role: account.role });
      });
    },

    async listTokens(caller: OrgCaller, id: string): Promise<{ items: AccountToken[] }> {
      const account = await accountOf(caller, id);
      return { items: await listAccountTokens(db, caller.organizationId, account.id) };
    },

    async createToken(caller: OrgCaller, id: string, input: TokenInput): Promise<AccountToken & { token: string }> {
      requireSignedInUser(caller);
      const bad = input.allowedActions.find((p) => !isActionPattern(p));
      if (bad !== undefined) throw new InvalidInput(`allowedActions: ${JSON.stringify(bad)} is not an action pattern`);
      const value = mintSecret(TOKEN_PREFIX);
      return db.transaction(async (trx) => {
        const account = await accountOf(caller, id, trx);
        const token = await insertAccountToken(trx, {
          organizationId: caller.organizationId,
          serviceAccountId: account.id,
          description: input.description ?? '',
          scopes: [...new Set(input.scopes)],
          allowedActions: [...new Set(input.allowedActions)],
          expiresInSeconds: input.expiresIn ?? DEFAULT_TOKEN_LIFETIME_SECONDS,
          secretHash: secretHash(value),
          createdBy: caller.principal.userId,
        });
        await deps.audit.append(trx, tokenEntry(caller, 'service_account.token.create', account, token));
        return { ...token, token: value };
      });
    },

    deleteToken(caller: OrgCaller, id: string, tokenId: string): Promise<void> {
      requireSignedInUser(caller);
      return db.transaction(async (trx) => {
        const account = await accountOf(caller, id, trx);
        const key = uuidKey(tokenId);
        const token = key === null ? null : await deleteAccountToken(trx, caller.organizationId, account.id, key);
        if (!token) throw new NotFound('token not found');
        await deps.audit.append(trx, tokenEntry(caller, 'service_account.token.delete', account, token));
      });
    },
  };
}
