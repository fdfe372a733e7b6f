import fs from 'node:fs';
import path from 'node:path';
import { parseYaml } from '../parse/bounded-parse';
import { repoRoot } from '../paths';
import type { CrdRecord } from './crd/crd-types';
import type { JsonRecord } from './json';

/** Argo CD's CRDs bundled in schemas/argocd (schemas/argocd/README.md): Application, AppProject, ApplicationSet. */
export const ARGOCD_CRD_FILES = ['application-crd.yaml', 'appproject-crd.yaml', 'applicationset-crd.yaml'] as const;

interface CrdDocument {
  metadata: { name: string };
  spec: {
    group: string;
    scope: 'Namespaced' | 'Cluster';
    names: { kind: string; plural: string; singular?: string; listKind?: string };
    versions: { name: string; served: boolean; storage: boolean; schema: { openAPIV3Schema: JsonRecord } }[];
  };
}

const cache = new Map<string, CrdRecord[]>();

/** One bundled CRD as the record the engine takes; its schema compiles on first use of the kind (engine cache). */
function recordOf(text: string): CrdRecord {
  const crd = parseYaml(text, 'Argo CD CRD') as CrdDocument;
  const { group, scope, names } = crd.spec;
  return {
    name: crd.metadata.name,
    group,
    kind: names.kind,
    plural: names.plural,
    singular: names.singular ?? names.plural,
    listKind: names.listKind ?? `${names.kind}List`,
    scope,
    versions: crd.spec.versions
      .filter((v) => v.served)
      .map((v) => ({ name: v.name, storage: v.storage, schema: v.schema.openAPIV3Schema, deprecated: false })),
  };
}

/**
 * The Argo CD kinds as CRD records the validation engine takes (`crds` option), read once per folder. The files are
 * Argo CD's own (trusted data, copied unchanged), so reading them
 * skips the upload checks; each kind's validator compiles when first used.
 */
export function argoCdCrds(dir: string = path.join(repoRoot(), 'schemas', 'argocd')): CrdRecord[] {
  let crds = cache.get(dir);
  if (!crds) {
    crds = ARGOCD_CRD_FILES.map((file) => recordOf(fs.readFileSync(path.join(dir, file), 'utf8')));
    cache.set(dir, crds);
  }
  return crds;
}
