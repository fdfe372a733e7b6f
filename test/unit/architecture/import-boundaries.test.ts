import fs from 'node:fs';
import path from 'node:path';
import { importsOf, ROOT, sourceFiles, tablesIn, type ImportOf } from './source-scan';

/**
 * The layers of src/ (issue 29, docs/CONTRIBUTING-SPINE.md): the kernel (src/iam: principal, caller, cross-org
 * lookups, action roles, the authorization chain) and the infrastructure below it depend on no domain; domains
 * depend on the kernel and on each other one way, with no exception (issue 45): what two domains share lives in the
 * lower one or in a folder below both (src/git, src/delivery-layout), or the lower one's manifest passes the upper
 * one's reads in (src/deployments/module.ts); the read-model layer src/views may read across domains for screens and
 * only the composition root and api/ use it; api/ reaches data only through services.
 */

/** What the kernel may import: infrastructure, never a domain. */
const KERNEL = 'iam';
const INFRASTRUCTURE = new Set(['audit', 'db', 'errors', 'logging', 'rate-limit', 'paths', 'config', 'parse']);

/**
 * The src/ folder of a file or import target (`src/errors.ts` and `src/paths.ts` count as folders of one file). A
 * domain's manifest (`src/<domain>/module.ts`) is its entry into the composition root, so it counts as src/runtime.
 */
function folderOf(file: string): string | null {
  const parts = path.normalize(file).split(path.sep);
  if (parts[0] !== 'src' || !parts[1]) return null;
  return parts[2]?.replace(/\.ts$/, '') === 'module' ? 'runtime' : parts[1].replace(/\.ts$/, '');
}

/** Folder -> folders it imports (type imports count: a layer knows nothing of the layers above it). */
function folderGraph(): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  for (const file of sourceFiles('src')) {
    const from = folderOf(file);
    if (!from) continue;
    const edges = graph.get(from) ?? new Map<string, string>();
    graph.set(from, edges);
    for (const { target } of importsOf(file)) {
      const to = target && folderOf(target);
      if (to && to !== from && !edges.has(to)) edges.set(to, file);
    }
  }
  return graph;
}

/** The first cycle found, as `a -> b -> ... -> a` with the file behind each edge; null when the graph is acyclic. */
function findCycle(graph: Map<string, Map<string, string>>): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  function visit(node: string): string[] | null {
    state.set(node, 'open');
    stack.push(node);
    for (const [to, file] of graph.get(node) ?? []) {
      if (state.get(to) === 'open') {
        const cycle = stack.slice(stack.indexOf(to));
        return [...cycle, to].map((n, i, all) =>
          i < all.length - 1 ? `${n} (${graph.get(n)?.get(all[i + 1]!) ?? file})` : n,
        );
      }
      if (!state.has(to)) {
        const found = visit(to);
        if (found) return found;
      }
    }
    stack.pop();
    state.set(node, 'done');
    return null;
  }
  for (const node of [...graph.keys()].sort()) {
    if (state.has(node)) continue;
    const found = visit(node);
    if (found) return found;
  }
  return null;
}

/** The database handle itself, or a repository's functions (its types are fine: they describe what services answer). */
const reachesTables = (i: ImportOf) =>
  /\/db\/knex$/.test(i.specifier) || (!i.typeOnly && /-repository$/.test(i.specifier));

describe('import boundaries', () => {
  const graph = folderGraph();

  it('finds no cycle in the src/ folder graph', () => {
    expect(findCycle(graph)).toBeNull();
  });

  it('keeps the kernel free of domains', () => {
    const reached = [...(graph.get(KERNEL)?.entries() ?? [])].filter(([to]) => !INFRASTRUCTURE.has(to));
    expect(reached.map(([to, file]) => `${file} -> src/${to}`)).toEqual([]);
  });

  it('lets only the composition root and api/ use the read-model layer', () => {
    const users = [...graph.entries()].filter(([from, edges]) => from !== 'runtime' && edges.has('views'));
    expect(users.map(([, edges]) => edges.get('views'))).toEqual([]);
  });

  it('never queries a table from api/', () => {
    const found: string[] = [];
    for (const file of sourceFiles('api')) {
      for (const i of importsOf(file)) if (reachesTables(i)) found.push(`${file} imports ${i.specifier}`);
      for (const table of tablesIn(fs.readFileSync(path.join(ROOT, file), 'utf8'), {})) {
        found.push(`${file} queries ${table}`);
      }
    }
    expect(found).toEqual([]);
  });
});
