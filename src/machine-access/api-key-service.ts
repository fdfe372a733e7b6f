import { recordDomainEvent, DOMAIN_EVENT } from '../events/domain-event-repository';
import { NotFound } from '../errors';
import { orgEntry, uuidKey, type OrgCaller } from '../iam/caller';
import type { OrgDomainDeps } from '../iam/cross-org';
import type { PlanGate } from '../plans/plan-gate';
import type { ProjectService } from '../projects/project-service';
import { deleteApiKey, insertApiKey, listApiKeys, type ApiKey } from './api-key-repository';
import { requireSignedInUser } from './credential-managers';
import type { KeyScope } from './key-allowlist';
import { KEY_PREFIX, mintSecret, secretHash } from './secret-value';

export type ApiKeyService = ReturnType<typeof createApiKeyService>;

/** What creation answers, once: the metadata plus the value, which is never stored or shown again. */
export type CreatedApiKey = ApiKey & { projectSlug: string; key: string };

/** Project API keys (/api/v2/projects/{slug}/api-keys): created, listed and deleted by signed-in admins. */
export function createApiKeyService(deps: OrgDomainDeps & { projects: ProjectService; plans: PlanGate }) {
  const { db, audit } = deps;

  const entry = (caller: OrgCaller, action: string, key: ApiKey, details: Record<string, unknown>) =>
    orgEntry(caller, {
      action,
      category: 'api_keys',
      projectId: key.projectId,
      resourceType: 'api_key',
      resourceId: key.id,
      details: { name: key.name, scopes: key.scopes, ...details },
    });

  return {
    async create(caller: OrgCaller, slug: string, input: { name: string; scopes: KeyScope[] }): Promise<CreatedApiKey> {
      requireSignedInUser(caller);
      await deps.plans.require(caller.organizationId, 'api_keys');
      const project = await deps.projects.projectOf(caller, slug);
      const value = mintSecret(KEY_PREFIX);
      const scopes = [...new Set(input.scopes)];
      return db.transaction(async (trx) => {
        const key = await insertApiKey(trx, {
          organizationId: caller.organizationId,
          projectId: project.id,
          name: input.name,
          scopes,
          secretHash: secretHash(value),
          createdBy: caller.principal.userId,
        });
        await audit.append(trx, entry(caller, 'apikey.create', key, { project: project.slug }));
        await recordDomainEvent(trx, {
          organizationId: caller.organizationId,
          projectId: project.id,
          type: DOMAIN_EVENT.apiKeyCreated,
          payload: { keyId: key.id, name: key.name, scopes, project: project.slug, createdBy: caller.principal.actor },
        });
        return { ...key, projectSlug: project.slug, key: value };
      });
    },

    async list(caller: OrgCaller, slug: string): Promise<{ items: ApiKey[] }> {
      const project = await deps.projects.projectOf(caller, slug);
      return { items: await listApiKeys(db, caller.organizationId, project.id) };
    },

    /** Effective at once: the next request with the key finds no row. */
    async delete(caller: OrgCaller, slug: string, id: string): Promise<void> {
      requireSignedInUser(caller);
      const project = await deps.projects.projectOf(caller, slug);
      const keyId = uuidKey(id);
      await db.transaction(async (trx) => {
        const key = keyId === null ? null : await deleteApiKey(trx, caller.organizationId, project.id, keyId);
        if (!key) throw new NotFound('API key not found');
        await audit.append(trx, entry(caller, 'apikey.delete', key, { project: project.slug }));
      });
    },
  };
}
