import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../src/paths';
import { scaffoldDomain } from '../src/runtime/domain-scaffold';

/**
 * The generated files a new domain changes, each rewritten from the tree once the domain is written. Their generators
 * are imported only then (the module list they read is the one the scaffold has just extended) and all run in this
 * one process, as their scripts would (scripts/build-workflow-index.ts, build-commit-operations.ts,
 * build-openapi-types.ts, and the authorization documents' tables, scripts/authorization-doc-source.ts).
 */
async function regenerate(root: string): Promise<string[]> {
  const { workflowIndexSource, commitOperationsSource } = await import('./central-list-sources.js');
  const { openApiTypesSource } = await import('./openapi-types-source.js');
  const { authorizationDocs } = await import('./authorization-doc-source.js');
  const { inertRouteTable } = await import('../api/openapi-document.js');
  const docs = authorizationDocs(inertRouteTable(), root);
  const generated: [string, () => Promise<string>][] = [
    ['workflows/index.ts', () => workflowIndexSource(root)],
    ['src/runtime/commit-operations.ts', () => commitOperationsSource(root)],
    ['client/openapi-types.generated.ts', () => openApiTypesSource()],
    ...Object.entries(docs).map(([file, text]): [string, () => Promise<string>] => [file, async () => text]),
  ];
  const written: string[] = [];
  for (const [file, source] of generated) {
    const text = await source();
    if (fs.readFileSync(path.join(root, file), 'utf8') === text) continue;
    fs.writeFileSync(path.join(root, file), text);
    written.push(file);
  }
  return written;
}

/**
 * `npm run new-domain -- <name>`: a new domain from the template, added to the hand-kept lists, then the generated
 * lists rewritten (docs/CONTRIBUTING-SPINE.md, "The module shape").
 */
async function main(name: string): Promise<void> {
  const root = repoRoot();
  const written = await scaffoldDomain(root, name);
  for (const file of [...written, ...(await regenerate(root))]) process.stdout.write(`${file}\n`);
}

main(process.argv[2] ?? '').catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
