import type { Queryable, Tx } from '../db/knex';
import { Unprocessable } from '../errors';
import { orgEntry, uuidKey, type OrgCaller } from '../iam/caller';
import { scopedLookup, type OrgDomainDeps } from '../iam/cross-org';
import { listProjectEnvironments } from '../projects/project-environment-repository';
import { findProjectBySlug, findProjectsByIds, type Project } from '../projects/project-repository';
import type { ProjectService } from '../projects/project-service';
import { listProjectTenants } from '../projects/project-tenant-repository';
import { tenantSlugsOf } from '../projects/tenant-ref';
import type { Plan } from '../orgs/org-repository';
import type { PlanGate } from '../plans/plan-gate';
import type { RateLimiter } from '../rate-limit/fixed-window-limiter';
import { checkFreezeFields } from './freeze-errors';
import { checkRecurrenceBudget } from './recurrence-budget';
import { currentOccurrence, windowsWithin } from './freeze-evaluation';
import {
  MAX_FREEZES_PER_ORGANIZATION,
  countFreezes,
  definitionOf,
  deleteFreeze,
  findFreeze,
  findStopTheLine,
  freezesFor,
  insertFreeze,
  storeStopTheLine,
  updateFreeze,
  type FreezeFields,
  type FreezeRecord,
  type StopTheLine,
} from './freeze-repository';

/** What a request may send (create: name, reason and one window shape; update: any of them, null clears). */
export interface FreezeInput {
  name?: string;
  reason?: string;
  startsAt?: string | null;
  endsAt?: string | null;
  rrule?: string | null;
  timeZone?: string | null;
  durationMinutes?: number | null;
  environments?: string[];
  tenants?: string[];
  /** Organization-wide freezes only: project slugs. */
  projects?: string[];
}

export interface FreezeView extends Omit<FreezeRecord, 'projectIds'> {
  scope: 'organization' | 'project';
  /** Slugs of the projects an organization-wide freeze names (empty = every project). */
  projects: string[];
  active: boolean;
  /** The occurrence running now (a one-off freeze's whole window), else null. */
  current: { startsAt: string; endsAt: string } | null;
  /** The windows starting within the listing horizon after now. */
  upcoming: { startsAt: string; endsAt: string }[];
}

export type FreezeService = ReturnType<typeof createFreezeService>;

const window = (o: { start: Date; end: Date }) => ({ startsAt: o.start.toISOString(), endsAt: o.end.toISOString() });

/** Freeze windows an organization keeps, by plan (each is evaluated on every gated action and listing). */
export const FREEZES_PER_PLAN: Readonly<Record<Plan, number>> = {
  free: 25,
  pro: 100,
  enterprise: MAX_FREEZES_PER_ORGANIZATION,
};
/** Freeze creations and updates per organization per window. */
export const FREEZE_WRITES_PER_WINDOW = 30;
export const FREEZE_WRITE_WINDOW_MS = 60_000;

export function createFreezeService(
  deps: OrgDomainDeps & {
    projects: ProjectService;
    horizonMs: number;
    clock?: () => Date;
    plans: Pick<PlanGate, 'planOf'>;
    limiter: RateLimiter;
  },
) {
  const { db, audit } = deps;
  const now = deps.clock ?? (() => new Date());

  /** A project's freeze by id (`project` null: an organization-wide one); another organization's id answers 404. */
  const freezeOf = (caller: OrgCaller, project: Project | null, id: string, trx: Queryable = db) =>
    scopedLookup(
      { db: trx, misses: deps.misses },
      { table: 'freeze_windows', column: 'id', parse: uuidKey, resourceType: 'freeze', category: 'configuration' },
      (q, org, key) => findFreeze(q, org, project?.id ?? null, key),
    )(caller, id, trx);

  const projectOrNull = (caller: OrgCaller, slug: string | null) =>
    slug === null ? Promise.resolve(null) : deps.projects.projectOf(caller, slug);

  async function views(caller: OrgCaller, records: FreezeRecord[]): Promise<FreezeView[]> {
    const at = now();
    const ids = records.flatMap((r) => r.projectIds);
    const slugs = ids.length > 0 ? await findProjectsByIds(db, caller.organizationId, ids) : new Map<string, Project>();
    return records.map((r) => {
      const def = definitionOf(r);
      const current = currentOccurrence(def, at);
      const upcoming = windowsWithin(def, at, deps.horizonMs, 20).filter(
        (o) => o.start.getTime() !== current?.start.getTime(),
      );
      const { projectIds, ...rest } = r;
      return {
        ...rest,
        scope: def.scope,
        projects: projectIds.map((id) => slugs.get(id)?.slug ?? id),
        active: current !== null,
        current: current ? window(current) : null,
        upcoming: upcoming.map(window),
      };
    });
  }

  /**
   * Names the request's scope lists refer to must exist: the project's environments and tenants, the org's projects.
   * Tenants may be named by slug, id or catalogue id (as on every route) and are kept by slug.
   */
  async function checkScope(
    caller: OrgCaller,
    project: Project | null,
    input: FreezeInput,
    trx: Queryable,
  ): Promise<{ input: FreezeInput; projectIds: string[] | undefined }> {
    if (project) {
      if (input.projects !== undefined) throw new Unprocessable('projects is for organization-wide freezes only');
      const envs = new Set((await listProjectEnvironments(trx, project.id)).map((e) => e.environment));
      const unknownEnvs = (input.environments ?? []).filter((e) => !envs.has(e));
      if (unknownEnvs.length > 0)
        throw new Unprocessable(`unknown environment(s) of the project: ${unknownEnvs.join(', ')}`);
      const known = await listProjectTenants(trx, caller.organizationId, project.id);
      const tenants = input.tenants && tenantSlugsOf(known, input.tenants);
      const slugs = new Set(known.map((t) => t.slug));
      const unknownTenants = (tenants ?? []).filter((t) => !slugs.has(t));
      if (unknownTenants.length > 0) {
        throw new Unprocessable(`unknown tenant(s) of the project: ${unknownTenants.join(', ')}`);
      }
      return { input: tenants ? { ...input, tenants } : input, projectIds: undefined };
    }
    if (input.projects === undefined) return { input, projectIds: undefined };
    const ids: string[] = [];
    for (const slug of input.projects) {
      const found = await findProjectBySlug(trx, caller.organizationId, slug);
      if (!found) throw new Unprocessable(`unknown project ${slug}`);
      ids.push(found.id);
    }
    return { input, projectIds: ids };
  }

  const entry = (caller: OrgCaller, action: string, f: FreezeRecord, details: Record<string, unknown>) =>
    orgEntry(caller, {
      action,
      category: 'configuration',
      resourceType: 'freeze',
      resourceId: f.id,
      projectId: f.projectId,
      details: { name: f.name, ...details },
    });

  async function record(trx: Tx, caller: OrgCaller, action: string, f: FreezeRecord, details = {}) {
    await audit.append(trx, entry(caller, action, f, details));
  }

  function merged(base: FreezeFields, input: FreezeInput, projectIds: string[] | undefined): FreezeFields {
    const pick = <K extends keyof FreezeFields>(key: K, value: FreezeFields[K] | undefined) =>
      value === undefined ? base[key] : value;
    const fields: FreezeFields = {
      name: pick('name', input.name),
      reason: pick('reason', input.reason),
      startsAt: input.startsAt ?? base.startsAt,
      endsAt: pick('endsAt', input.endsAt),
      rrule: pick('rrule', input.rrule),
      timeZone: pick('timeZone', input.timeZone),
      durationMinutes: pick('durationMinutes', input.durationMinutes),
      environments: pick('environments', input.environments),
      tenants: pick('tenants', input.tenants),
      projectIds: projectIds ?? base.projectIds,
    };
    checkFreezeFields(fields);
    return fields;
  }

  /**
   * The merged fields, checked, after the organization's freeze-write budget (429 + Retry-After) and, for a recurring
   * window, the bounded expansion of its rule (recurrence-budget.ts).
   */
  async function checked(caller: OrgCaller, base: FreezeFields, input: FreezeInput, projectIds: string[] | undefined) {
    const fields = merged(base, input, projectIds);
    await deps.limiter.hit(
      [{ key: `freeze-write:org:${caller.organizationId}`, limit: FREEZE_WRITES_PER_WINDOW }],
      FREEZE_WRITE_WINDOW_MS,
    );
    if (fields.rrule !== null) await checkRecurrenceBudget(fields.rrule, new Date(fields.startsAt));
    return fields;
  }

  return {
    async list(caller: OrgCaller, slug: string | null) {
      const project = await projectOrNull(caller, slug);
      const records = (await freezesFor(db, caller.organizationId, project?.id ?? null)).filter(
        (r) => !project || r.projectId !== null || r.projectIds.length === 0 || r.projectIds.includes(project.id),
      );
      const items = await views(caller, records);
      items.sort((a, b) => Number(b.active) - Number(a.active));
      return { stopTheLine: await findStopTheLine(db, caller.organizationId), items };
    },

    async get(caller: OrgCaller, slug: string | null, id: string): Promise<FreezeView> {
      const project = await projectOrNull(caller, slug);
      const [view] = await views(caller, [await freezeOf(caller, project, id)]);
      return view!;
    },

    create(caller: OrgCaller, slug: string | null, request: FreezeInput): Promise<FreezeView> {
      return db.transaction(async (trx) => {
        const project = await projectOrNull(caller, slug);
        const { input, projectIds } = await checkScope(caller, project, request, trx);
        const empty: FreezeFields = {
          name: '',
          reason: '',
          startsAt: now().toISOString(),
          endsAt: null,
          rrule: null,
          timeZone: null,
          durationMinutes: null,
          environments: [],
          tenants: [],
          projectIds: [],
        };
        const fields = await checked(caller, empty, input, projectIds);
        const plan = await deps.plans.planOf(caller.organizationId);
        if ((await countFreezes(trx, caller.organizationId)) >= FREEZES_PER_PLAN[plan]) {
          throw new Unprocessable(
            `an organization on the ${plan} plan keeps at most ${FREEZES_PER_PLAN[plan]} freeze windows`,
          );
        }
        const freeze = await insertFreeze(
          trx,
          caller.organizationId,
          project?.id ?? null,
          fields,
          caller.principal.actor,
        );
        await record(trx, caller, 'freeze.create', freeze, { fields: { ...input } });
        const [view] = await views(caller, [freeze]);
        return view!;
      });
    },

    update(caller: OrgCaller, slug: string | null, id: string, request: FreezeInput): Promise<FreezeView> {
      return db.transaction(async (trx) => {
        const project = await projectOrNull(caller, slug);
        const freeze = await freezeOf(caller, project, id, trx);
        const { input, projectIds } = await checkScope(caller, project, request, trx);
        const fields = await checked(caller, freeze, input, projectIds);
        await updateFreeze(trx, caller.organizationId, freeze.id, fields);
        await record(trx, caller, 'freeze.update', freeze, { changes: { ...input } });
        const [view] = await views(caller, [(await findFreeze(trx, caller.organizationId, freeze.projectId, id))!]);
        return view!;
      });
    },

    delete(caller: OrgCaller, slug: string | null, id: string): Promise<void> {
      return db.transaction(async (trx) => {
        const project = await projectOrNull(caller, slug);
        const freeze = await freezeOf(caller, project, id, trx);
        await deleteFreeze(trx, caller.organizationId, freeze.id);
        await record(trx, caller, 'freeze.delete', freeze);
      });
    },

    stopTheLine: (caller: OrgCaller): Promise<StopTheLine> => findStopTheLine(db, caller.organizationId),

    /** Turns the organization's stop-the-line switch on (every project frozen) or off; a reason is required to turn it on. */
    setStopTheLine(caller: OrgCaller, value: { enabled: boolean; reason?: string }): Promise<StopTheLine> {
      const reason = value.reason?.trim() ?? '';
      if (value.enabled && reason === '') throw new Unprocessable('a reason is required to stop the line');
      return db.transaction(async (trx) => {
        await storeStopTheLine(trx, caller.organizationId, { enabled: value.enabled, reason }, caller.principal.actor);
        await audit.append(
          trx,
          orgEntry(caller, {
            action: value.enabled ? 'freeze.stop_the_line.enable' : 'freeze.stop_the_line.disable',
            category: 'configuration',
            resourceType: 'organization',
            resourceId: caller.organizationId,
            details: { reason },
          }),
        );
        return findStopTheLine(trx, caller.organizationId);
      });
    },
  };
}
