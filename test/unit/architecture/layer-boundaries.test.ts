import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './source-scan';

/**
 * The layers of the whole tree point one way (issue 45), with no allowlist: each top-level folder imports only the
 * folders below it, and no file takes part in an import cycle. src/ (domains, the composition of services) knows no
 * api/, activities/, workflows/ or workers/: the API wires routes (api/domain-routes.ts), the activity layer wires
 * activities (activities/domain-activities.ts), and domains start workflows by the type their contract declares
 * (src/temporal/workflow-type.ts). Workflow code imports, as code, only workflow-safe files; web/ and cli/ share only
 * client/ (the OpenAPI types). The src/ folders among themselves: import-boundaries.test.ts.
 */

/** Folder -> what its files may import: `code` as values, `types` through `import type` only. */
const LAYERS: Record<string, { code: readonly string[]; types?: readonly string[] }> = {
  client: { code: [] },
  migrations: { code: [] },
  src: { code: ['client', 'migrations'] },
  activities: { code: ['src', 'client'] },
  workflows: { code: ['src'], types: ['activities'] },
  workers: { code: ['activities', 'workflows', 'src'] },
  api: { code: ['src', 'client'] },
  cli: { code: ['client'], types: ['api'] },
  web: { code: ['client'] },
  scripts: { code: ['api', 'workers', 'activities', 'workflows', 'src', 'client', 'migrations'] },
  bench: { code: ['scripts', 'api', 'workers', 'activities', 'workflows', 'src', 'client', 'test'] },
};
/** Code folders that are tests of their layer, checked by no rule here (they may reach test/ helpers). */
const TESTS = ['web/test'];
/** What workflow code may import from packages: the workflow SDK's sandbox-safe parts. */
const WORKFLOW_PACKAGES = ['@temporalio/workflow', '@temporalio/common'];

interface Edge {
  from: string;
  /** The resolved file for a relative import; the specifier for a package. */
  to: string;
  typeOnly: boolean;
  /** A file of this tree (a relative specifier), not a package. */
  local: boolean;
}

function filesUnder(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || TESTS.includes(rel) ? [] : filesUnder(rel);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [rel] : [];
  });
}

const IMPORT =
  /^(?:import|export)(\s+type)?\s[^;]*?from\s+'([^']+)'|^import\s+'([^']+)'|\bimport\(\s*'([^']+)'\s*\)|\brequire\(\s*'([^']+)'\s*\)/gms;

/** Every static import, re-export, dynamic import and require of the files, relative ones resolved to files. */
export function importEdges(
  files: readonly string[],
  read = (f: string) => fs.readFileSync(path.join(ROOT, f), 'utf8'),
) {
  const known = new Set(files);
  const resolve = (from: string, specifier: string) => {
    const base = path.join(path.dirname(from), specifier);
    return [`${base}.ts`, `${base}.tsx`, `${base}/index.ts`, base].find((f) => known.has(f)) ?? base;
  };
  return files.flatMap((from) =>
    [...read(from).matchAll(IMPORT)].map((m): Edge => {
      const specifier = (m[2] ?? m[3] ?? m[4] ?? m[5])!;
      const to = specifier.startsWith('.') ? resolve(from, specifier) : specifier;
      return { from, to, typeOnly: m[1] !== undefined, local: specifier.startsWith('.') };
    }),
  );
}

const topOf = (file: string) => file.split(path.sep)[0]!;

/** Imports that cross into a folder the layer does not allow, as `file -> target`. */
export function layerViolations(edges: readonly Edge[]): string[] {
  return edges
    .filter((e) => e.local && topOf(e.to) !== topOf(e.from))
    .filter((e) => {
      const layer = LAYERS[topOf(e.from)];
      const to = topOf(e.to);
      return !layer || !(layer.code.includes(to) || (e.typeOnly && layer.types?.includes(to)));
    })
    .map((e) => `${e.from} -> ${e.to}${e.typeOnly ? ' (type)' : ''}`);
}

/** The files of each cycle of value imports (type imports are erased and cannot close one). */
export function fileCycles(edges: readonly Edge[]): string[][] {
  const graph = new Map<string, string[]>();
  for (const e of edges) if (!e.typeOnly && e.local) graph.set(e.from, [...(graph.get(e.from) ?? []), e.to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) visit(next);
      if (stack.includes(next)) low.set(node, Math.min(low.get(node)!, low.get(next)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const cycle = stack.splice(stack.indexOf(node));
    if (cycle.length > 1 || graph.get(node)?.includes(node)) cycles.push(cycle.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return cycles;
}

/** Files workflow code loads (value imports from workflows/, followed) that leave the workflow layer or its packages. */
export function unsafeForWorkflows(edges: readonly Edge[]): string[] {
  const byFile = new Map<string, Edge[]>();
  for (const e of edges) byFile.set(e.from, [...(byFile.get(e.from) ?? []), e]);
  const seen = new Set<string>();
  const found: string[] = [];
  const queue = [...byFile.keys()].filter((f) => topOf(f) === 'workflows');
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const e of byFile.get(file) ?? []) {
      if (e.typeOnly) continue;
      if (!e.local) {
        if (!WORKFLOW_PACKAGES.includes(e.to)) found.push(`${file} -> ${e.to}`);
      } else if (topOf(e.to) === 'workflows' || topOf(e.to) === 'src') queue.push(e.to);
      else found.push(`${file} -> ${e.to}`);
    }
  }
  return found;
}

describe('layer boundaries of the whole tree', () => {
  const edges = importEdges(Object.keys(LAYERS).flatMap(filesUnder));

  it('imports only the layers below, with no exception', () => {
    expect(layerViolations(edges)).toEqual([]);
  });

  it('has no import cycle between files', () => {
    expect(fileCycles(edges)).toEqual([]);
  });

  it('loads only workflow-safe code into workflows', () => {
    expect(unsafeForWorkflows(edges)).toEqual([]);
  });

  it('fails on a planted back edge and a planted cycle', () => {
    const planted = {
      'src/releases/release-service.ts': "import { createApp } from '../../api/app';",
      'api/app.ts': "import { releaseRoutes } from './routes/releases/release-routes';",
      'api/routes/releases/release-routes.ts': "import { createApp } from '../../app';",
      'workflows/release.ts': "import { runCommit } from '../src/gitops/commit-path';",
      'src/gitops/commit-path.ts': "import fs from 'node:fs';\nimport '../../workers/create-worker';",
      'cli/main.ts': "import type { Config } from '../src/config';",
    };
    const plantedEdges = importEdges(Object.keys(planted), (f) => planted[f as keyof typeof planted]);
    expect(layerViolations(plantedEdges)).toEqual([
      'src/releases/release-service.ts -> api/app.ts',
      'src/gitops/commit-path.ts -> workers/create-worker',
      'cli/main.ts -> src/config (type)',
    ]);
    expect(fileCycles(plantedEdges)).toEqual([['api/app.ts', 'api/routes/releases/release-routes.ts']]);
    expect(unsafeForWorkflows(plantedEdges)).toEqual([
      'src/gitops/commit-path.ts -> node:fs',
      'src/gitops/commit-path.ts -> workers/create-worker',
    ]);
  });
});
