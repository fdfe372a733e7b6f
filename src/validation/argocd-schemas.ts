import fs from 'node:fs';
import path from 'node:path';
import { parseYaml } from '../parse/bounded-parse';
import { repoRoot } from '../paths';
import type { CrdRecord } from './crd/crd-types';
import type { JsonRecord } from './json';

/**
 * Argo CD's CRDs bundled in schemas/argocd (schemas/argocd/README.md): Application, AppProject, ApplicationSet, each
 * with what names it (test/tooling/validation/argocd-schemas.test.ts checks this against the files). A run reads a file
 * (1.8 MB of YAML in all) only when it validates that kind: the CLI's start-up on a file without Argo CD kinds
 * parses none of them.
 */
export const ARGOCD_CRDS = [
  { file: 'application-crd.yaml', kind: 'Application', plural: 'applications' },
  { file: 'appproject-crd.yaml', kind: 'AppProject', plural: 'appprojects' },
  { file: 'applicationset-crd.yaml', kind: 'ApplicationSet', plural: 'applicationsets' },
] as const;
const GROUP = 'argoproj.io';
/** The served versions of every bundled Argo CD CRD (one, the storage version). */
const VERSION = 'v1alpha1';

interface CrdDocument {
  metadata: { name: string };
  spec: {
    group: string;
    scope: 'Namespaced' | 'Cluster';
    names: { kind: string; plural: string; singular?: string; listKind?: string };
    versions: { name: string; served: boolean; storage: boolean; schema: { openAPIV3Schema: JsonRecord } }[];
  };
}

/** One bundled CRD as the record the engine takes, read from its file. */
export function crdRecordOf(text: string): CrdRecord {
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

/** One bundled CRD whose schema is read from its file on first use (its validator compiles then too). */
function lazyRecord(dir: string, entry: (typeof ARGOCD_CRDS)[number]): CrdRecord {
  let read: CrdRecord | undefined;
  const schemaOf = () => {
    read ??= crdRecordOf(fs.readFileSync(path.join(dir, entry.file), 'utf8'));
    const version = read.versions.find((v) => v.name === VERSION);
    if (!version) throw new Error(`${entry.file} serves no ${VERSION}`);
    return version.schema;
  };
  const version = {
    name: VERSION,
    storage: true,
    deprecated: false,
    get schema() {
      return schemaOf();
    },
  };
  const { kind, plural } = entry;
  const name = `${plural}.${GROUP}`;
  const singular = kind.toLowerCase();
  return {
    name,
    group: GROUP,
    kind,
    plural,
    singular,
    listKind: `${kind}List`,
    scope: 'Namespaced',
    versions: [version],
  };
}

const cache = new Map<string, CrdRecord[]>();

/**
 * The Argo CD kinds as CRD records the validation engine takes (`crds` option), once per folder. The files are
 * Argo CD's own (trusted data, copied unchanged), so reading them skips the upload checks.
 */
export function argoCdCrds(dir: string = path.join(repoRoot(), 'schemas', 'argocd')): CrdRecord[] {
  let crds = cache.get(dir);
  if (!crds) {
    crds = ARGOCD_CRDS.map((entry) => lazyRecord(dir, entry));
    cache.set(dir, crds);
  }
  return crds;
}
