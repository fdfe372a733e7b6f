import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../../src/paths';
import { splitDocuments } from '../../src/validation/manifest/split-documents';

/**
 * Corpus manifests a delivery pipeline would send: workloads, services, config, RBAC, autoscaling, and a
 * few with an unknown field, a type error or a removed apiVersion, so the error paths are timed too.
 */
const SOURCES = [
  'kubeconform/fixtures/valid.yaml',
  'kubeconform/fixtures/multi_valid.yaml',
  'kubeconform/fixtures/multi_valid_source.yaml',
  'kubeconform/fixtures/int_or_string.yaml',
  'kubeconform/fixtures/quantity.yaml',
  'kubeconform/fixtures/null_string.yaml',
  'kubeconform/fixtures/null_array.yaml',
  'kubeconform/fixtures/generate_name.yaml',
  'kubeconform/fixtures/valid_version.yaml',
  'kubeconform/fixtures/full_domain_group.yaml',
  'kubeconform/fixtures/same-object-different-namespace.yaml',
  'kubeconform/fixtures/unconventional_keys.yaml',
  'kubeconform/fixtures/extra_property.yaml',
  'kubeconform/fixtures/invalid.yaml',
  'kubernetes-validate/tests/resource.yaml',
  'kubernetes-validate/tests/kuard-extra-property.yaml',
  'kubernetes-validate/tests/kuard-invalid-type.yaml',
  'pluto/e2e/tests/assets/non-deprecated/deployment-apps-v1.yaml',
  'pluto/e2e/tests/assets/deprecated116/deployment-extensions-v1beta1.yaml',
];

/** The non-empty documents of the sources, each starting with `---`. */
export function corpusDocuments(): string[] {
  const corpus = path.join(repoRoot(), 'test', 'fixtures', 'corpus');
  const docs: string[] = [];
  for (const source of SOURCES) {
    for (const chunk of splitDocuments(fs.readFileSync(path.join(corpus, source), 'utf8'), 1000)) {
      const body = chunk.text.replace(/^---[^\n]*\n/, '');
      if (/^(kind|apiVersion):/m.test(body)) docs.push(`---\n${body.endsWith('\n') ? body : `${body}\n`}`);
    }
  }
  return docs;
}

/** `count` documents cycling through the corpus ones. */
export function buildManifest(docs: readonly string[], count: number, offset = 0): string {
  let out = '';
  for (let i = 0; i < count; i++) out += docs[(offset + i) % docs.length];
  return out;
}
