import type { JsonRecord } from '../json';

export interface CrdVersion {
  name: string;
  storage: boolean;
  /** The version's `schema.openAPIV3Schema`, as uploaded. */
  schema: JsonRecord;
  deprecated: boolean;
  deprecationWarning?: string;
}

/**
 * A checked apiextensions.k8s.io/v1 CustomResourceDefinition, reduced to what validation and the schema
 * browser need. Plain JSON: the caller stores it per organization and passes it back with each request.
 */
export interface CrdRecord {
  /** metadata.name, `<plural>.<group>`. */
  name: string;
  group: string;
  kind: string;
  plural: string;
  singular: string;
  listKind: string;
  scope: 'Namespaced' | 'Cluster';
  /** Served versions only: a version that is not served cannot be used by any manifest. */
  versions: CrdVersion[];
  /** Set when the upload was an apiextensions.k8s.io/v1beta1 CRD, converted to v1 before the checks. */
  convertedFrom?: 'apiextensions.k8s.io/v1beta1';
}
