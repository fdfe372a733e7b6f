import type { Queryable } from '../db/knex';
import { Forbidden } from '../errors';
import { loadProject, type LoadedProject } from '../gitops/delivery-model';
import type { WorkloadSources } from '../gitops/workload-sources';
import { readTree, resolveRef } from '../git/git-plumbing';
import { renderAll } from '../gitops/manifests';
import { isManaged, targetOf } from '../delivery-layout/target-paths';
import { MAIN_BRANCH, type RepositoryStore } from '../git/repository-store';
import type { ApprovalPolicyHook } from '../iam/authorization-chain';
import { findProjectBySlug } from '../projects/project-repository';
import { covers, type ApprovalPolicySnapshot } from './approval-decision';
import { enabledApprovalPoliciesOf } from './approval-policy-repository';

export interface ApprovalHookDeps {
  db: Queryable;
  repositories: Pick<RepositoryStore, 'pathOf' | 'exists'>;
  publicUrl: string;
  sources: WorkloadSources;
}

/** Actions that change what runs in an environment without a release: the ones an approval policy must gate. */
const GATED = /^projects\.([^.]+)\.(images\.update|delivery\.generate|files\.write)$/;

/**
 * The tenant and environment a repository path deploys to: anything under a generated service directory or
 * Application folder (deeper files included, since a kustomization may pull them in). Paths reach the files API
 * canonical (no empty, `.` or `..` segments, src/gitops/files-service.ts), so a prefix match cannot be dodged.
 */
const DEPLOYED_PATH = /^(?:tenants|applications)\/([^/]+)\/([^/]+)\//;

interface Pair {
  tenant: string;
  environment: string;
}

/** The request body as the route received it; the hook runs before schema validation, so it trusts no shape. */
function bodyOf(context: unknown): Record<string, unknown> | undefined {
  const body = (context as { state?: { body?: unknown } } | null)?.state?.body;
  return typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : undefined;
}

function pairsOf(context: unknown): Pair[] {
  const pairs = bodyOf(context)?.pairs;
  if (!Array.isArray(pairs)) return [];
  return pairs.filter((p): p is Pair => typeof p?.tenant === 'string' && typeof p?.environment === 'string') as Pair[];
}

/** The pair a file write or delete touches, if its path is deployed. */
function filePairsOf(context: unknown): Pair[] {
  const path = bodyOf(context)?.path;
  const match = typeof path === 'string' ? DEPLOYED_PATH.exec(path) : null;
  return match ? [{ tenant: match[1] ?? '', environment: match[2] ?? '' }] : [];
}

function refusal(policy: ApprovalPolicySnapshot, pair: Pair): Forbidden {
  return new Forbidden(
    `the approval policy "${policy.name}" covers environment ${pair.environment} (tenant ${pair.tenant}): ` +
      'deploy there through a release, which collects its approvals',
  );
}

/**
 * The first covering policy of a tenant/environment pair, with tenant slugs resolved through the project. A slug that
 * is not a project tenant is still covered by the policies of every tenant: a hand-written folder deploys too.
 */
function coveringPolicy(loaded: LoadedProject, policies: ApprovalPolicySnapshot[], pair: Pair) {
  const tenant = loaded.tenants.find((t) => t.slug === pair.tenant);
  const target = { projectId: loaded.project.id, environment: pair.environment, tenantId: tenant?.id ?? '' };
  return policies.find((p) => covers(p, target));
}

/**
 * The approval-policy link of the authorization chain (src/iam/authorization-chain.ts): while an enabled approval
 * policy covers an environment, a bulk image update into it, a file written or deleted under its deployed folders, or
 * a delivery generate that would change its files, is refused with 403 naming the policy. Other actions, and environments no policy covers, pass untouched.
 */
export function approvalPolicyHook(deps: ApprovalHookDeps): ApprovalPolicyHook {
  async function generatedPairs(loaded: LoadedProject, policies: ApprovalPolicySnapshot[]) {
    const { organizationId, id } = loaded.project;
    const gated = (path: string) => {
      const t = targetOf(path);
      return t !== null && coveringPolicy(loaded, policies, t) !== undefined;
    };
    const repo = deps.repositories.pathOf(organizationId, id);
    const head = (await deps.repositories.exists(organizationId, id)) ? await resolveRef(repo, MAIN_BRANCH) : null;
    const current = await readTree(repo, head, '', (path) => isManaged(path) && gated(path));
    const rendered = new Map([...renderAll(loaded.model)].filter(([path]) => gated(path)));
    const changed = [...new Set([...current.keys(), ...rendered.keys()])].filter(
      (path) => current.get(path) !== rendered.get(path),
    );
    return changed.map((path) => targetOf(path) as Pair);
  }

  return {
    name: 'approval-policies',
    async check({ principal, action, context }) {
      const match = GATED.exec(action);
      const organizationId = principal.organizationId;
      if (!match || organizationId === null) return;
      // The pairs a body names (an image update's, a file's deployed folder); a generate's come from its render.
      const named =
        match[2] === 'images.update' ? pairsOf(context) : match[2] === 'files.write' ? filePairsOf(context) : null;
      // A file outside every deployed folder (or an update naming no pair) deploys nowhere: nothing to look up.
      if (named?.length === 0) return;
      // An unknown project passes here and answers 404 from its route.
      const project = await findProjectBySlug(deps.db, organizationId, match[1] ?? '');
      if (!project) return;
      const policies = await enabledApprovalPoliciesOf(deps.db, organizationId, project.id);
      if (policies.length === 0) return;
      const loaded = await loadProject(deps.db, organizationId, project.id, deps);
      if (!loaded) return;
      const pairs = named ?? (await generatedPairs(loaded, policies));
      for (const pair of pairs) {
        const policy = coveringPolicy(loaded, policies, pair);
        if (policy) throw refusal(policy, pair);
      }
    },
  };
}
