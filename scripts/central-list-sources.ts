import fs from 'node:fs';
import path from 'node:path';
import prettier from 'prettier';
import { repoRoot } from '../src/paths';
import { MODULES } from '../src/runtime/modules';

/**
 * The central lists derived from the domains (issue 45): the workflow bundle's index from the module manifests'
 * `workflows`, the commit path's operation kinds from the `*-operation.ts` files of src/. Each is written by its
 * script (scripts/build-workflow-index.ts, scripts/build-commit-operations.ts, both run by `npm run new-domain`) and
 * checked current by test/tooling/central-lists.test.ts.
 */

const GENERATED = 'Generated from the domains by';

async function formatted(file: string, source: string): Promise<string> {
  const options = await prettier.resolveConfig(path.join(repoRoot(), file));
  return prettier.format(source, { ...options, parser: 'typescript' });
}

/** The file of workflows/ that exports each workflow function, by name. */
function workflowFiles(root: string): Map<string, string> {
  const dir = path.join(root, 'workflows');
  const found = new Map<string, string>();
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.ts') && f !== 'index.ts')) {
    const text = fs.readFileSync(path.join(dir, file), 'utf8');
    for (const m of text.matchAll(/^export async function (\w+)\(/gm)) found.set(m[1]!, file.replace(/\.ts$/, ''));
  }
  return found;
}

/** workflows/index.ts: every workflow type a module claims, exported from its file, in module order. */
export async function workflowIndexSource(root = repoRoot()): Promise<string> {
  const files = workflowFiles(root);
  const byFile = new Map<string, string[]>();
  for (const name of MODULES.flatMap((m): readonly string[] => ('workflows' in m ? m.workflows : []))) {
    const file = files.get(name);
    if (!file) throw new Error(`workflow ${name} (claimed by a module) is exported by no file of workflows/`);
    byFile.set(file, [...(byFile.get(file) ?? []), name]);
  }
  const lines = [...byFile].map(([file, names]) => `export { ${names.join(', ')} } from './${file}';`);
  const banner = [
    '/**',
    ` * Every workflow type the platform registers; the worker bundles this file. ${GENERATED}`,
    " * `npm run build:workflow-index` from the modules' `workflows` (src/runtime/modules.ts): do not edit.",
    ' */',
    '',
  ].join('\n');
  return formatted('workflows/index.ts', banner + lines.join('\n') + '\n');
}

/** Every `export const <name>: CommitOperationKind<...>` of a `*-operation.ts` file of src/, by file. */
function operationKinds(root: string): { file: string; name: string }[] {
  const src = path.join(root, 'src');
  return fs
    .readdirSync(src, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('-operation.ts'))
    .sort()
    .flatMap((file) =>
      [...fs.readFileSync(path.join(src, file), 'utf8').matchAll(/^export const (\w+): CommitOperationKind</gm)].map(
        (m) => ({ file: file.replace(/\.ts$/, ''), name: m[1]! }),
      ),
    );
}

/** src/runtime/commit-operations.ts: every kind of write the commit path runs, found in the domains' folders. */
export async function commitOperationsSource(root = repoRoot()): Promise<string> {
  const kinds = operationKinds(root);
  const imports = kinds.map(({ file, name }) => `import { ${name} } from '../${file}';`);
  return formatted(
    'src/runtime/commit-operations.ts',
    [
      "import { operationKinds, type CommitOperationKind, type CommitOperation } from '../gitops/commit-operation';",
      ...imports,
      '',
      '/**',
      ` * Every kind of write the one commit path runs, each from its domain's folder. ${GENERATED}`,
      ' * `npm run build:commit-operations` from the `export const <name>: CommitOperationKind<...>` of every',
      ' * file of src/ named `<kind>-operation.ts`: a committing domain adds its kind there, never here.',
      ' */',
      'export const COMMIT_OPERATIONS: CommitOperationKind<CommitOperation>[] = [',
      ...kinds.map(({ name }) => `  ${name},`),
      '];',
      '',
      'export const commitOperationKinds = () => operationKinds(COMMIT_OPERATIONS);',
      '',
    ].join('\n'),
  );
}
