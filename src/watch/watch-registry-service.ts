import { randomUUID } from 'node:crypto';
import type { AuditService } from '../audit/audit-service';
import type { WatchConfig } from '../config/watch';
import type { Db } from '../db/knex';
import { isUuid } from '../db/uuid';
import { Conflict, InvalidInput, NotFound } from '../errors';
import type { OrgCaller } from '../iam/caller';
import { resourceAuditor } from '../iam/cross-org';
import type { SecretBox } from '../identity/mfa/secret-box';
import { checkUrlShape, TargetRefused, type OutboundPolicy } from '../net/outbound-policy';
import type { WorkflowStarter } from '../temporal/start-workflow';
import { registryPasswordAad } from './registry-poller';
import { watchRegistryWorkflowId, watchRegistryWorkflowType } from './watch-registry-contract';
import {
  allRegistries,
  deleteRegistry,
  findRegistry,
  insertRegistry,
  listRegistries,
  type RegistryRow,
} from './watch-registry-repository';

export interface RegistryInput {
  name: string;
  url: string;
  username?: string;
  password?: string;
}

/** The API's view of a registry: never its password, only whether it has credentials. */
export interface WatchRegistry {
  id: string;
  name: string;
  url: string;
  username: string | null;
  hasCredentials: boolean;
  workflowId: string;
  createdAt: string;
}

const toRegistry = (r: RegistryRow): WatchRegistry => ({
  id: r.id,
  name: r.name,
  url: r.url,
  username: r.username,
  hasCredentials: r.password_sealed !== null,
  workflowId: watchRegistryWorkflowId(r.id),
  createdAt: r.created_at.toISOString(),
});

export type WatchRegistryService = ReturnType<typeof createWatchRegistryService>;

/**
 * External registries of an organization (docs/automation.md): admins add and remove them, members read them. The
 * URL follows the outbound address policy of notification targets (checked again at every request); the password is
 * sealed at rest, bound to the registry's id. Each registry has one poll workflow, started after its row commits and
 * kept running by the worker's reconciler (a crash between the two leaves the row, which the reconciler starts).
 */
export function createWatchRegistryService(deps: {
  db: Db;
  audit: AuditService;
  secrets: SecretBox;
  outbound: OutboundPolicy;
  workflows: Pick<WorkflowStarter, 'start'>;
  config: WatchConfig;
}) {
  const { db } = deps;
  const record = resourceAuditor(deps.audit, 'configuration', 'watch_registry');

  async function startPolling(row: Pick<RegistryRow, 'id' | 'organization_id' | 'name'>) {
    await deps.workflows.start(watchRegistryWorkflowType, {
      workflowId: watchRegistryWorkflowId(row.id),
      args: [
        {
          organizationId: row.organization_id,
          registryId: row.id,
          name: row.name,
          intervalMs: deps.config.pollIntervalMs,
          backoffInitialMs: deps.config.backoffInitialMs,
          backoffMaxMs: deps.config.backoffMaxMs,
          pollsPerRun: deps.config.pollsPerRun,
        },
      ],
      labels: { organizationId: row.organization_id },
      summary: `polls registry ${row.name} for watch subscriptions`,
      details: `Registry \`${row.name}\` (id ${row.id}): GET /api/v2/watch/registries`,
    });
  }

  return {
    async list(caller: OrgCaller): Promise<{ items: WatchRegistry[] }> {
      return { items: (await listRegistries(db, caller.organizationId)).map(toRegistry) };
    },

    async create(caller: OrgCaller, input: RegistryInput): Promise<WatchRegistry> {
      try {
        checkUrlShape(input.url, deps.outbound);
      } catch (err) {
        if (err instanceof TargetRefused) throw new InvalidInput(`url: ${err.message}`);
        throw err;
      }
      if ((input.username === undefined) !== (input.password === undefined)) {
        throw new InvalidInput('username and password: give both or neither');
      }
      const url = input.url.replace(/\/+$/, '');
      const id = randomUUID();
      const row = await db.transaction(async (trx) => {
        await insertRegistry(trx, caller.organizationId, {
          id,
          name: input.name,
          url,
          username: input.username ?? null,
          passwordSealed:
            input.password === undefined ? null : deps.secrets.seal(input.password, registryPasswordAad(id)),
        });
        const created = await findRegistry(trx, caller.organizationId, { id });
        if (!created) throw new NotFound('watch registry not found');
        await record(
          trx,
          caller,
          'watch.registry.create',
          { id, slug: input.name },
          { url, username: created.username },
        );
        return created;
      });
      // After the commit; when Temporal cannot be reached now, the reconciler starts it.
      await startPolling(row).catch(() => undefined);
      return toRegistry(row);
    },

    async delete(caller: OrgCaller, id: string): Promise<void> {
      if (!isUuid(id)) throw new NotFound('watch registry not found');
      await db.transaction(async (trx) => {
        const found = await findRegistry(trx, caller.organizationId, { id });
        if (!found) throw new NotFound('watch registry not found');
        const used = await trx('watch_subscriptions')
          .where({ organization_id: caller.organizationId, registry_id: id })
          .first('id');
        if (used) throw new Conflict(`registry ${found.name} has watch subscriptions: delete them first`);
        await deleteRegistry(trx, caller.organizationId, id);
        await record(trx, caller, 'watch.registry.delete', { id, slug: found.name }, { url: found.url });
      });
      // Its workflow ends at its next poll (the registry is gone).
    },

    /**
     * Starts the poll workflow of every registry that lacks one (USE_EXISTING: a running one is left alone, so the
     * start cannot tell repairs from no-ops and none are counted).
     */
    async reconcile(): Promise<number> {
      for (const row of await allRegistries(db)) await startPolling(row);
      return 0;
    },
  };
}
