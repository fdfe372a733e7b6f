import { applicationManifests, type KustomizeRenderer } from './application-manifests';
import {
  appSpec,
  isApplication,
  isArgoObject,
  keyOf,
  RESOURCES_FINALIZER,
  type KubeObject,
  type RepositoryTree,
} from './argo-objects';

/** One Argo CD object in the cluster and the Application whose tracking label it carries (null: applied by hand). */
export interface LiveObject {
  object: KubeObject;
  owner: string | null;
}

/** Argo CD's namespace as the check sees it: Applications and AppProjects by `Kind/name`. */
export type LiveState = Map<string, LiveObject>;

export interface Reconciled {
  live: LiveState;
  /** Every Argo CD object some live Application's manifests contain, with the Applications that contain it. */
  claims: Map<string, string[]>;
}

const MAX_ROUNDS = 50;

/**
 * Deletes a live object as Argo CD's prune does. An Application carrying the resources finalizer first deletes what
 * it manages (argo-cd controller/appcontroller.go finalizeApplicationDeletion, on objects still tracked to it); one
 * without it leaves them running, tracked to an owner that no longer exists.
 */
function remove(live: LiveState, key: string): void {
  const entry = live.get(key);
  if (!entry) return;
  live.delete(key);
  if (!isApplication(entry.object) || !(entry.object.metadata?.finalizers ?? []).includes(RESOURCES_FINALIZER)) return;
  for (const [child, e] of [...live]) if (e.owner === key && child !== key) remove(live, child);
}

function syncOnce(live: LiveState, key: string, targets: KubeObject[]): boolean {
  const policy = appSpec(live.get(key)?.object ?? {}).syncPolicy?.automated;
  // Without automated sync a root changes nothing until a person presses Sync.
  if (!policy) return false;
  let changed = false;
  const wanted = new Set(targets.map(keyOf));
  for (const target of targets) {
    const k = keyOf(target);
    const current = live.get(k);
    // Two roots over one object fight over its tracking label; the check reports the pair (claims) and keeps the
    // first owner so the simulation ends.
    if (current && current.owner !== null && current.owner !== key && live.has(current.owner)) continue;
    if (!current || current.owner !== key || JSON.stringify(current.object) !== JSON.stringify(target)) {
      live.set(k, { object: target, owner: key });
      changed = true;
    }
  }
  if (policy.prune)
    for (const [k, e] of [...live])
      if (e.owner === key && !wanted.has(k) && live.has(k)) {
        remove(live, k);
        changed = true;
      }
  return changed;
}

/**
 * What Argo CD makes of `start` over the repository at `tree`: every live Application syncs its Argo CD objects
 * (Applications and AppProjects its manifests hold), round after round, until nothing changes; a root whose own
 * file left Git prunes itself like any other object it tracks.
 */
export function reconcile(start: LiveState, tree: RepositoryTree, kustomize: KustomizeRenderer): Reconciled {
  const live: LiveState = new Map(start);
  let claims = new Map<string, string[]>();
  const manifestsOf = new Map<string, KubeObject[]>();
  for (let round = 0; round < MAX_ROUNDS; round++) {
    let changed = false;
    claims = new Map();
    for (const key of [...live.keys()].sort()) {
      const entry = live.get(key);
      if (!entry || !isApplication(entry.object)) continue;
      const cacheKey = JSON.stringify(entry.object.spec?.source ?? null);
      const targets =
        manifestsOf.get(cacheKey) ?? applicationManifests(entry.object, tree, kustomize).filter(isArgoObject);
      manifestsOf.set(cacheKey, targets);
      for (const t of targets) claims.set(keyOf(t), [...(claims.get(keyOf(t)) ?? []), key]);
      if (targets.length > 0 || [...live.values()].some((e) => e.owner === key))
        changed = syncOnce(live, key, targets) || changed;
    }
    if (!changed) break;
  }
  return { live, claims };
}
