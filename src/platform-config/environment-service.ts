import type { Tx } from '../db/knex';
import { Conflict, InvalidInput } from '../errors';
import { orgEntry, type OrgCaller } from '../iam/caller';
import { orgResource, type OrgDomainDeps } from '../iam/cross-org';
import { SLUG_PATTERN } from '../orgs/org-repository';
import {
  MAX_ENVIRONMENTS,
  deleteEnvironment,
  findEnvironment,
  insertEnvironment,
  listEnvironments,
  lockCatalogue,
  shiftPositions,
  updateEnvironment,
  type Environment,
} from './environment-repository';
import { refuseWhileUsed } from './entry-uses';

export type EnvironmentService = ReturnType<typeof createEnvironmentService>;

/** The organization's ordered environment catalogue; projects (a later issue) pick their environments from it. */
export function createEnvironmentService(deps: OrgDomainDeps) {
  const { db, audit } = deps;

  const {
    lookup: environmentOf,
    record,
    found,
  } = orgResource(
    deps,
    {
      table: 'org_environments',
      column: 'slug',
      resourceType: 'environment',
      category: 'configuration',
      parse: (raw) => (SLUG_PATTERN.test(raw) ? raw : null),
    },
    findEnvironment,
  );

  /** Every catalogue change runs under one per-organization lock, so positions stay contiguous. */
  function change<T>(caller: OrgCaller, work: (trx: Tx) => Promise<T>): Promise<T> {
    return db.transaction(async (trx) => {
      await lockCatalogue(trx, caller.organizationId);
      return work(trx);
    });
  }

  return {
    list: (caller: OrgCaller) => listEnvironments(db, caller.organizationId),

    get: (caller: OrgCaller, slug: string) => environmentOf(caller, slug),

    /** Appends, or inserts at `position` (0-based) and moves the later ones down. */
    create(
      caller: OrgCaller,
      input: { slug: string; name?: string; production?: boolean; position?: number },
    ): Promise<Environment> {
      return change(caller, async (trx) => {
        const current = await listEnvironments(trx, caller.organizationId);
        if (current.length >= MAX_ENVIRONMENTS) {
          throw new Conflict(`an organization can have at most ${MAX_ENVIRONMENTS} environments`);
        }
        const position = Math.min(input.position ?? current.length, current.length);
        await shiftPositions(trx, caller.organizationId, position, 1);
        const env = await insertEnvironment(trx, caller.organizationId, {
          slug: input.slug,
          name: input.name ?? input.slug,
          production: input.production ?? false,
          position,
        });
        await record(trx, caller, 'environment.create', env, { production: env.production, position });
        return env;
      });
    },

    update(caller: OrgCaller, slug: string, changes: { name?: string; production?: boolean }): Promise<Environment> {
      return change(caller, async (trx) => {
        const env = await environmentOf(caller, slug, trx);
        found(await updateEnvironment(trx, caller.organizationId, env.id, changes));
        await record(trx, caller, 'environment.update', env, { changes });
        return { ...env, ...changes };
      });
    },

    /**
     * `clear` runs with the entry locked (entry-uses.ts): it refuses while a project uses the environment, or removes
     * those uses safely (src/environment-removal); the entry then goes, audited in the same transaction.
     */
    delete<T>(caller: OrgCaller, slug: string, clear: (env: Environment) => Promise<T>): Promise<T> {
      return change(caller, async (trx) => {
        const env = await environmentOf(caller, slug, trx);
        const entry = { table: 'org_environments' as const, organizationId: caller.organizationId, id: env.id };
        const cleared = await refuseWhileUsed(trx, entry, () => clear(env));
        found(await deleteEnvironment(trx, caller.organizationId, env.id));
        await shiftPositions(trx, caller.organizationId, env.position + 1, -1);
        await record(trx, caller, 'environment.delete', env, { name: env.name, production: env.production });
        return cleared;
      });
    },

    /** `order` must name every environment exactly once; positions follow it. */
    reorder(caller: OrgCaller, order: string[]): Promise<Environment[]> {
      return change(caller, async (trx) => {
        const current = await listEnvironments(trx, caller.organizationId);
        const known = new Set(current.map((e) => e.slug));
        if (
          order.length !== current.length ||
          new Set(order).size !== order.length ||
          !order.every((s) => known.has(s))
        ) {
          throw new InvalidInput('order must list every environment slug exactly once');
        }
        const bySlug = new Map(current.map((e) => [e.slug, e]));
        for (const [position, slug] of order.entries()) {
          const env = bySlug.get(slug);
          if (env && env.position !== position)
            await updateEnvironment(trx, caller.organizationId, env.id, { position });
        }
        const details = { from: current.map((e) => e.slug), to: order };
        await audit.append(
          trx,
          orgEntry(caller, {
            action: 'environment.reorder',
            category: 'configuration',
            resourceType: 'environment',
            details,
          }),
        );
        return listEnvironments(trx, caller.organizationId);
      });
    },
  };
}
