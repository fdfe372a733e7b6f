/** A workload as the order sees it: its name and the workloads of its project it depends on. */
export interface DependencyNode {
  name: string;
  dependsOn: readonly string[];
}

/**
 * Why a project's dependencies cannot be ordered: a name no workload has, or a cycle (named in order, the first name
 * repeated at the end: `api -> web -> api`). Null when they can.
 */
export function dependencyProblem(nodes: readonly DependencyNode[]): string | null {
  const byName = new Map(nodes.map((n) => [n.name, n]));
  for (const node of nodes) {
    const unknown = node.dependsOn.find((d) => !byName.has(d));
    if (unknown !== undefined) return `workload ${node.name} depends on unknown workload ${unknown}`;
  }
  const state = new Map<string, 'visiting' | 'done'>();
  const path: string[] = [];
  const visit = (name: string): string[] | null => {
    if (state.get(name) === 'done') return null;
    if (state.get(name) === 'visiting') return [...path.slice(path.indexOf(name)), name];
    state.set(name, 'visiting');
    path.push(name);
    for (const dep of byName.get(name)!.dependsOn) {
      const cycle = visit(dep);
      if (cycle) return cycle;
    }
    path.pop();
    state.set(name, 'done');
    return null;
  };
  for (const node of [...nodes].sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const cycle = visit(node.name);
    if (cycle) return `dependsOn forms a cycle: ${cycle.join(' -> ')}`;
  }
  return null;
}

/**
 * The commit and wait order of the `changed` workloads: groups, each committed together and waited Synced and
 * Healthy before the next. A workload comes after everything it depends on, also through workloads that did not
 * change (`web -> api -> db` with `web` and `db` changed: `db` first). Without dependencies among them, one group.
 * Throws on an unknown name or a cycle (`dependencyProblem`, which create and update refuse beforehand).
 */
export function orderByDependencies(nodes: readonly DependencyNode[], changed: readonly string[]): string[][] {
  const problem = dependencyProblem(nodes);
  if (problem !== null) throw new Error(problem);
  const byName = new Map(nodes.map((n) => [n.name, n]));
  const changing = new Set(changed);
  /** The changed workloads `name` depends on, directly or through unchanged ones. */
  const changedDeps = (name: string, seen = new Set<string>()): string[] =>
    (byName.get(name)?.dependsOn ?? []).flatMap((dep) => {
      if (seen.has(dep)) return [];
      seen.add(dep);
      return changing.has(dep) ? [dep] : changedDeps(dep, seen);
    });
  const depth = new Map<string, number>();
  const depthOf = (name: string): number => {
    const known = depth.get(name);
    if (known !== undefined) return known;
    const deps = changedDeps(name);
    const d = deps.length === 0 ? 0 : 1 + Math.max(...deps.map(depthOf));
    depth.set(name, d);
    return d;
  };
  const groups = new Map<number, string[]>();
  for (const name of changing) {
    const d = depthOf(name);
    groups.set(d, [...(groups.get(d) ?? []), name]);
  }
  return [...groups.entries()].sort(([a], [b]) => a - b).map(([, names]) => names.sort());
}

/** One step of an ordered deployment: the changes committed together, and the digest of what they render. */
export interface CommitGroup<Change extends { workload: string }> {
  workloads: string[];
  changes: Change[];
  digest: string;
}

/**
 * The changes split into `orderByDependencies` groups, each group's changes in their given order. One group (or
 * none) when no dependency links the changed workloads: the caller then commits everything at once, as before.
 */
export function changeGroups<Change extends { workload: string }>(
  nodes: readonly DependencyNode[],
  changes: readonly Change[],
): Change[][] {
  const order = orderByDependencies(
    nodes,
    changes.map((c) => c.workload),
  );
  return order.map((names) => changes.filter((c) => names.includes(c.workload)));
}
