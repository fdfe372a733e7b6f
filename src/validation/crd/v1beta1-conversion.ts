import { arrayField, isRecord, recordField, stringField, type JsonRecord } from '../json';

/**
 * Rewrites an apiextensions.k8s.io/v1beta1 CRD spec into the v1 shape, field by field as the deprecation
 * guide lists the differences: `spec.version` becomes `spec.versions`, `spec.validation` becomes each
 * version's `schema`, `spec.scope` gets its old default Namespaced, and `spec.preserveUnknownFields` (true
 * by default in v1beta1, forbidden in v1) is dropped. Printer columns and subresources are not used here.
 * Many published CRDs still ship as v1beta1 (the corpus' sagemaker one does); the v1 checks then apply.
 */
export function convertV1beta1Spec(spec: JsonRecord): JsonRecord {
  const validation = recordField(spec, 'validation');
  const singleVersion = stringField(spec, 'version');
  const versions =
    arrayField(spec, 'versions') ??
    (singleVersion !== undefined ? [{ name: singleVersion, served: true, storage: true }] : []);
  return {
    group: spec.group,
    names: spec.names,
    scope: spec.scope === undefined || spec.scope === '' ? 'Namespaced' : spec.scope,
    versions: versions.map((v) =>
      isRecord(v) && v.schema === undefined && validation ? { ...v, schema: validation } : v,
    ),
  };
}
