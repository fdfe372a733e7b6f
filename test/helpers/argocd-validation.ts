import { load } from 'js-yaml';
import type { ValidationEngine } from '../../src/validation';
import { argoCdCrds } from '../../src/validation/argocd-schemas';

const ARGO_ROOTS = ['applications/', 'appprojects/', 'bootstrap/'];

/** Generated files that hold Argo CD objects. */
export const isArgoFile = (path: string) => ARGO_ROOTS.some((root) => path.startsWith(root));

/**
 * Errors and warnings of Argo CD objects (Application, AppProject, ApplicationSet) against Argo CD's own CRD schemas
 * (schemas/argocd): `<file>: <path> <message>` strings, empty when every object validates. A YAML text of another
 * kind is an error too (the caller passes Argo CD files only).
 */
export function argoProblems(engine: ValidationEngine, files: Iterable<[string, string]>): string[] {
  const crds = argoCdCrds();
  const problems: string[] = [];
  for (const [file, text] of files) {
    const kind = (load(text) as { kind?: string } | null)?.kind;
    if (!['Application', 'AppProject', 'ApplicationSet'].includes(String(kind)))
      problems.push(`${file}: not an Argo CD object (${String(kind)})`);
    for (const r of engine.validate(text, '1.32', { crds, bestPractices: false }).results)
      if (r.severity !== 'info') problems.push(`${file}: ${r.severity} ${r.path} ${r.message}`);
  }
  return problems;
}
