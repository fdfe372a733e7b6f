import { dumpYaml, parseYamlDocuments } from '../parse/bounded-parse';
import { Conflict, InvalidInput, NotFound } from '../errors';
import {
  breakGlassDetails,
  frozenMessage,
  type BreakGlassGrant,
  type FreezeHit,
  type GovernanceGate,
} from '../governance/governance-verdict';
import { skipPinned } from '../pins/pin-repository';
import type { Project } from '../projects/project-repository';
import type { OrgCaller } from '../iam/caller';
import { listProjectEnvironments } from '../projects/project-environment-repository';
import type { ProjectService } from '../projects/project-service';
import { listProjectTenants } from '../projects/project-tenant-repository';
import { tenantSlugOf } from '../projects/tenant-ref';
import { findWorkload } from '../projects/workload-repository';
import { withTenantTag } from '../projects/workload-spec';
import type { Db } from '../db/knex';
import type { CommitClient } from './commit-client';
import { loadProject, type LoadedProject } from './delivery-model';
import { readBranch } from '../git/commit-writer';
import { readTree } from '../git/git-plumbing';
import { renderAll } from './manifests';
import { serviceDir, targetOf, type Target } from '../delivery-layout/target-paths';
import type { WorkloadSources } from './workload-sources';
import type { RepositoryStore } from '../git/repository-store';
import { unifiedDiff } from './unified-diff';
import { targetSourceOf, type TargetSource } from './target-source';

export const DIFF_TYPES = [
  'image',
  'replicas',
  'variables',
  'resources',
  'chart-versions',
  'helm-values',
  'overlays',
  'manifests',
  'application',
] as const;
export type DiffType = (typeof DIFF_TYPES)[number];

export interface CompareQuery {
  from: string;
  to: string;
  tenant?: string;
  service?: string;
  type?: DiffType;
  /** Default true: leave out tenant/service pairs without differences. */
  changedOnly?: boolean;
}

interface Side extends TargetSource {
  image: string | null;
  replicas: number | null;
  variables: Record<string, string>;
  resources: unknown;
  manifests: string;
  application: unknown;
}

type Doc = Record<string, unknown> & { kind?: string; spec?: Record<string, unknown>; data?: Record<string, string> };

/** What one tenant's service looks like in one environment's directory of the repository. */
function sideOf(files: [string, string][], dir: string, app: string | undefined, environment: string): Side | null {
  const own = [...files].sort(([a], [b]) => (a < b ? -1 : 1));
  if (own.length === 0) return null;
  const docs = own.flatMap(([file, text]) => parseYamlDocuments(text, file) as Doc[]);
  const deployment = docs.find((d) => d.kind === 'Deployment');
  const kustomization = docs.find((d) => d.kind === 'Kustomization');
  const container = (
    ((deployment?.spec?.template as Doc | undefined)?.spec as Doc | undefined)?.containers as Doc[] | undefined
  )?.[0];
  const appSpec = app ? ((parseYamlDocuments(app, 'Application')[0] as Doc | undefined)?.spec ?? null) : null;
  // Each environment deploys to its own destination by design (docs/argocd.md): not a difference either.
  const {
    source,
    destination: _destination,
    ...settings
  } = (appSpec ?? {}) as {
    source?: Record<string, unknown>;
    destination?: unknown;
  };
  // The environment's own name is not a difference: it is normalised out of labels and paths.
  const label = new RegExp(`(delivery-platform/environment: )${environment}$`, 'gm');
  return {
    image: typeof container?.image === 'string' ? container.image : null,
    replicas: typeof deployment?.spec?.replicas === 'number' ? deployment.spec.replicas : null,
    variables: docs.find((d) => d.kind === 'ConfigMap')?.data ?? {},
    resources: container?.resources ?? null,
    // What a rendered target was rendered from, as the generator recorded it beside the target (target-source.ts).
    ...targetSourceOf((kustomization?.metadata as Doc | undefined)?.annotations as Record<string, unknown> | undefined),
    manifests: own
      .map(([p, text]) => `# ${p.slice(dir.length + 1)}\n${text.replace(label, '$1<environment>')}`)
      .join(''),
    application: appSpec ? { ...settings, source: { ...source, path: undefined } } : null,
  };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * An Argo CD Application spec as YAML, as people read it in Argo CD (null: the side has no Application); the JSON round
 * trip drops the fields left undefined (the normalised-out path).
 */
const applicationYaml = (spec: unknown) =>
  spec === null ? null : dumpYaml(JSON.parse(JSON.stringify(spec)), { lineWidth: -1, noRefs: true });

/**
 * One difference, current (the `to` environment, the target) -> proposed (the `from` environment, the source): the
 * manifests and the Application as unified diffs of their YAML, current -> proposed; values under the names of their
 * environments (`from`, `to`).
 */
function differenceOf(type: DiffType, name: string, v: { current: unknown; proposed: unknown }) {
  if (type === 'manifests') {
    return { type, diff: unifiedDiff(name, v.current as string | null, v.proposed as string | null) };
  }
  const values = { from: v.proposed, to: v.current };
  if (type === 'application') {
    const diff = unifiedDiff(`${name} Application`, applicationYaml(v.current), applicationYaml(v.proposed));
    return { type, ...values, diff };
  }
  return { type, ...values };
}

export type CompareService = ReturnType<typeof createCompareService>;

/** Environment compare (read-only, from the repository) and the bulk image update (one commit). */
export function createCompareService(deps: {
  db: Db;
  projects: ProjectService;
  repositories: RepositoryStore;
  commit: CommitClient;
  publicUrl: string;
  gate: GovernanceGate;
  sources: WorkloadSources;
}) {
  const { db, projects, repositories } = deps;

  /** Generated files at `main` whose target `keep` picks (only those are read). */
  async function headFiles(organizationId: string, projectId: string, keep: (t: Target) => boolean) {
    const repo = repositories.pathOf(organizationId, projectId);
    const head = (await repositories.exists(organizationId, projectId)) ? await readBranch(repo) : null;
    const picked = (path: string) => {
      const target = targetOf(path);
      return target !== null && keep(target);
    };
    const tenants = await readTree(repo, head, 'tenants/', picked);
    return { head, files: new Map([...tenants, ...(await readTree(repo, head, 'applications/', picked))]) };
  }

  /**
   * Checks a bulk request against the project: every bad pair is named, nothing is committed. Answers the pairs with
   * tenants by slug, whichever identifier named them (projects/tenant-ref.ts).
   */
  async function checkBulk(
    caller: OrgCaller,
    slug: string,
    body: { workload: string; pairs: { tenant: string; environment: string }[] },
  ) {
    const project = await projects.projectOf(caller, slug);
    const workload = await findWorkload(db, project.id, body.workload);
    if (!workload) throw new InvalidInput(`workload ${body.workload} is not part of project ${slug}`);
    const known = await listProjectTenants(db, caller.organizationId, project.id);
    const tenants = new Set(known.map((t) => t.slug));
    const envs = new Set((await listProjectEnvironments(db, project.id)).map((e) => e.environment));
    const pairs = body.pairs.map((p) => ({ tenant: tenantSlugOf(known, p.tenant), environment: p.environment }));
    const bad = pairs.filter((p) => !tenants.has(p.tenant) || !envs.has(p.environment));
    if (bad.length > 0) {
      const named = bad.map((p) => `${p.tenant}/${p.environment}`).join(', ');
      throw new InvalidInput(`unknown tenant or environment not in the project: ${named}`);
    }
    return { project, pairs };
  }

  type Pair = { tenant: string; environment: string };

  /**
   * Pinned pairs are skipped (named with the pin's reason); the rest are checked against the freezes in force per
   * environment. `grant` is the caller's break-glass session when it let a frozen pair through.
   */
  async function governed(caller: OrgCaller, project: Project, pairs: Pair[]) {
    const { kept, skipped } = await skipPinned(db, project.id, pairs);
    const blocking: FreezeHit[] = [];
    let grant: BreakGlassGrant | null = null;
    for (const environment of [...new Set(kept.map((p) => p.environment))]) {
      const tenants = kept.filter((p) => p.environment === environment).map((p) => p.tenant);
      const verdict = await deps.gate.check(
        db,
        { organizationId: project.organizationId, projectId: project.id, environment, tenants },
        'images.update',
        caller.principal.userId,
      );
      if (verdict.blocked) blocking.push(...verdict.freezes.filter((f) => !blocking.some((b) => b.id === f.id)));
      else if (verdict.freezes.length > 0) grant = verdict.breakGlass;
    }
    return { kept, skipped, blocking, grant };
  }

  return {
    /** The bulk request's pairs checked against the project (400 naming every bad one), tenants by slug. */
    bulkPairs: checkBulk,

    async compare(caller: OrgCaller, slug: string, q: CompareQuery) {
      const project = await projects.projectOf(caller, slug);
      const envs = new Set((await listProjectEnvironments(db, project.id)).map((e) => e.environment));
      for (const env of [q.from, q.to])
        if (!envs.has(env)) throw new NotFound(`environment ${env} is not part of the project`);
      const { head, files } = await headFiles(
        project.organizationId,
        project.id,
        (t) => t.environment === q.from || t.environment === q.to,
      );
      const pairs = new Set<string>();
      const byDir = new Map<string, [string, string][]>();
      for (const [path, text] of files) {
        const t = targetOf(path) as Target;
        pairs.add(`${t.tenant}/${t.service}`);
        if (!path.startsWith('tenants/')) continue;
        const dir = serviceDir(t);
        byDir.set(dir, [...(byDir.get(dir) ?? []), [path, text]]);
      }
      const items = [];
      for (const pair of [...pairs].sort()) {
        const [tenant = '', service = ''] = pair.split('/');
        if ((q.tenant && q.tenant !== tenant) || (q.service && q.service !== service)) continue;
        const side = (env: string) => {
          const dir = serviceDir({ tenant, environment: env, service });
          return sideOf(byDir.get(dir) ?? [], dir, files.get(`applications/${tenant}/${env}/${service}.yaml`), env);
        };
        const a = side(q.from);
        const b = side(q.to);
        const differences = [];
        for (const type of DIFF_TYPES) {
          if (q.type && q.type !== type) continue;
          const va = a ? a[type] : null;
          const vb = b ? b[type] : null;
          if (same(va, vb)) continue;
          differences.push(differenceOf(type, `${tenant}/${service}`, { proposed: va, current: vb }));
        }
        if (differences.length === 0 && q.changedOnly !== false) continue;
        items.push({ tenant, service, presentIn: { from: a !== null, to: b !== null }, differences });
      }
      // One direction everywhere (docs/promotions.md#direction): `to` is the target as it runs now, `from` what it would
      // run after a promotion from it; diffs read current -> proposed.
      return { commit: head, from: q.from, to: q.to, current: q.to, proposed: q.from, items };
    },

    async bulkPreview(
      caller: OrgCaller,
      slug: string,
      body: { workload: string; pairs: { tenant: string; environment: string }[]; tag: string },
      approvalRefusals: () => Promise<string[]> = async () => [],
    ) {
      const { project, pairs } = await checkBulk(caller, slug, body);
      const { kept, skipped, blocking, grant } = await governed(caller, project, pairs);
      const refusals = await approvalRefusals();
      const loaded = (await loadProject(db, caller.organizationId, project.id, deps)) as LoadedProject;
      const workloads = loaded.model.workloads.map((w) => {
        if (w.name !== body.workload) return w;
        let overrides = w.overrides;
        for (const p of kept) overrides = withTenantTag(overrides, p.tenant, p.environment, body.tag);
        return { ...w, overrides };
      });
      const wanted = new Set(kept.map((p) => `${p.tenant}/${p.environment}`));
      const rendered = renderAll(
        { ...loaded.model, workloads },
        (t) => t.service === body.workload && wanted.has(`${t.tenant}/${t.environment}`),
      );
      const { files } = await headFiles(project.organizationId, project.id, (t) =>
        wanted.has(`${t.tenant}/${t.environment}`),
      );
      const changed = [...rendered]
        .filter(([path, text]) => targetOf(path) !== null && files.get(path) !== text)
        .map(([path, text]) => ({ path, diff: unifiedDiff(path, files.get(path) ?? null, text) }));
      return {
        workload: body.workload,
        tag: body.tag,
        files: changed,
        skipped,
        // What applying would meet: freezes and approval policies that refuse it (each named), or the break-glass
        // session that lets a freeze through; pinned pairs are in `skipped`.
        freezes: blocking,
        approvalPolicies: refusals,
        blocked: blocking.length > 0 || refusals.length > 0,
        breakGlass: grant,
      };
    },

    /** `details`: added to each pair's image.update entry (the rollout plans a request skipped under break-glass). */
    async bulkApply(
      caller: OrgCaller,
      slug: string,
      body: { workload: string; pairs: { tenant: string; environment: string }[]; tag: string; message?: string },
      key?: string,
      details: Record<string, unknown> = {},
    ) {
      const { project, pairs } = await checkBulk(caller, slug, body);
      const { kept, skipped, blocking, grant } = await governed(caller, project, pairs);
      if (blocking.length > 0) throw new Conflict(`bulk update refused: ${frozenMessage(blocking)}`);
      if (kept.length === 0) {
        return {
          commit: null,
          created: false,
          auditIds: [],
          skipped,
          message: 'every pair is pinned: nothing committed',
        };
      }
      const outcome = await deps.commit(caller, project, {
        message: body.message ?? `Update ${body.workload} to ${body.tag} for ${kept.length} tenant environment(s)`,
        idempotencyKey: key,
        operation: {
          type: 'image',
          workload: body.workload,
          pairs: kept,
          tag: body.tag,
          details: { ...breakGlassDetails(grant), ...details },
        },
      });
      return { commit: outcome.sha, created: outcome.created, auditIds: outcome.auditIds, skipped };
    },
  };
}
