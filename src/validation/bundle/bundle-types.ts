import type { JsonRecord } from '../json';

/** One kind served by a group-version, as recorded in a per-version schema bundle. */
export interface BundleResource {
  group: string;
  version: string;
  kind: string;
  /** Key of its schema in `definitions`. */
  definition: string;
  /** From the REST paths: true when the resource lives under /namespaces/{namespace}/; absent for kinds without paths. */
  namespaced?: boolean;
}

/** Contents of schemas/k8s/<minor>.json.gz, written by scripts/build-k8s-schemas.ts. */
export interface K8sBundle {
  format: 1;
  kubernetesVersion: string;
  source: string;
  resources: BundleResource[];
  /** JSON Schema (draft-07 dialect, refs as `#/definitions/<name>`), normalized from the OpenAPI v3 documents. */
  definitions: Record<string, JsonRecord>;
}

export const BUNDLE_FORMAT = 1;
