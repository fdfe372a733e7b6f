import type { CrdRecord } from './crd/crd-types';
import type { JsonRecord } from './json';

const strings = { type: 'array', items: { type: 'string' } };
const stringMap = { type: 'object', additionalProperties: { type: 'string' } };
const objects = { type: 'array', items: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } };

/**
 * The fields of kustomize's Kustomization (and Component) as kustomize v5 reads them, with their types: enough to
 * report a misspelt field (unknown fields are warnings, as for every kind) or a wrong type; what they mean is left to
 * `kubectl kustomize`, which the platform runs on every folder it writes.
 */
const SCHEMA: JsonRecord = {
  type: 'object',
  properties: {
    resources: strings,
    components: strings,
    bases: strings,
    crds: strings,
    namespace: { type: 'string' },
    namePrefix: { type: 'string' },
    nameSuffix: { type: 'string' },
    commonLabels: stringMap,
    commonAnnotations: stringMap,
    labels: objects,
    images: objects,
    replicas: objects,
    patches: objects,
    patchesStrategicMerge: { type: 'array' },
    patchesJson6902: objects,
    configMapGenerator: objects,
    secretGenerator: objects,
    generatorOptions: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
    helmCharts: objects,
    helmGlobals: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
    replacements: objects,
    vars: objects,
    transformers: strings,
    generators: strings,
    validators: strings,
    openapi: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
    buildMetadata: strings,
    sortOptions: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
  },
};

function kind(name: string, version: string): CrdRecord {
  return {
    name: `${name.toLowerCase()}s.kustomize.config.k8s.io`,
    group: 'kustomize.config.k8s.io',
    kind: name,
    plural: `${name.toLowerCase()}s`,
    singular: name.toLowerCase(),
    listKind: `${name}List`,
    scope: 'Namespaced',
    versions: [{ name: version, storage: true, schema: SCHEMA, deprecated: false }],
  };
}

/** Kustomization files as kinds delivery-validate knows (`kustomize.config.k8s.io/v1beta1` and the v1alpha1 Component). */
export const KUSTOMIZATION_KINDS: CrdRecord[] = [kind('Kustomization', 'v1beta1'), kind('Component', 'v1alpha1')];
