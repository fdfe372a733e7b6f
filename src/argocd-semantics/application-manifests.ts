import { parseYaml } from '../parse/bounded-parse';
import { argoGlobMatch } from './glob-match';
import { appSpec, documentsOf, type KubeObject, type RepositoryTree } from './argo-objects';

/** Builds a kustomize folder of the tree into its objects (the real kustomize in tests; see plainKustomize). */
export type KustomizeRenderer = (dir: string, tree: RepositoryTree) => KubeObject[];

// argo-cd reposerver/repository/repository.go: the `manifestFile` expression a directory file must match.
const MANIFEST_FILE = /\.(yaml|yml|json)$/;
// repository.go getPotentiallyValidManifestFile: a file carrying this marker is skipped.
const SKIP_MARKER = '+argocd:skip-file-rendering';
const KUSTOMIZATION_FILES = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'];

const join = (dir: string, file: string) => (dir === '' ? file : `${dir}/${file}`);
const normalize = (path: string | undefined) => (path ?? '').replace(/^\.\/?/, '').replace(/\/+$/, '');

/**
 * The generated folders' kustomize without running it: each local file the kustomization lists under `resources`,
 * which is exactly what `kustomize build` emits for them (no patches, no generators). A kustomization using more
 * than that needs the real renderer.
 */
export const plainKustomize: KustomizeRenderer = (dir, tree) => {
  const file = KUSTOMIZATION_FILES.map((f) => join(dir, f)).find((f) => tree.has(f)) ?? '';
  let kustomization: { resources?: unknown } | null = null;
  try {
    kustomization = parseYaml(tree.get(file) ?? '', file) as { resources?: unknown } | null;
  } catch {
    return [];
  }
  const resources = Array.isArray(kustomization?.resources) ? (kustomization.resources as unknown[]) : [];
  return resources.flatMap((r) => (typeof r === 'string' ? documentsOf(tree.get(join(dir, r)) ?? '') : []));
};

/**
 * Argo CD's directory source: every file under the path (its subfolders with `recurse`) whose name is a manifest
 * file, dropped when it matches `exclude`, kept only when it matches `include` (both tested on the path relative to
 * the Application's path, exclude first: repository.go getPotentiallyValidManifestFile, globs by util/glob Match).
 */
export function directoryFiles(app: KubeObject, tree: RepositoryTree): string[] {
  const source = appSpec(app).source ?? {};
  const base = normalize(source.path);
  const { recurse = false, include = '', exclude = '' } = source.directory ?? {};
  const files: string[] = [];
  for (const [path, text] of tree) {
    if (base !== '' && !path.startsWith(`${base}/`)) continue;
    const rel = base === '' ? path : path.slice(base.length + 1);
    if (!recurse && rel.includes('/')) continue;
    if (!MANIFEST_FILE.test(rel)) continue;
    if (exclude !== '' && argoGlobMatch(exclude, rel)) continue;
    if (include !== '' && !argoGlobMatch(include, rel)) continue;
    if (text.includes(SKIP_MARKER)) continue;
    files.push(path);
  }
  return files.sort();
}

/** What the repo server generates for an Application of this repository: a kustomize build or a directory. */
export function applicationManifests(
  app: KubeObject,
  tree: RepositoryTree,
  kustomize: KustomizeRenderer,
): KubeObject[] {
  const base = normalize(appSpec(app).source?.path);
  if (KUSTOMIZATION_FILES.some((f) => tree.has(join(base, f)))) return kustomize(base, tree);
  return directoryFiles(app, tree).flatMap((path) => documentsOf(tree.get(path) ?? ''));
}
