/** Public shapes of the validation engine; they are the spec's response bodies. */

export type Severity = 'error' | 'warning' | 'info';

export interface ValidationResult {
  severity: Severity;
  message: string;
  /** Field path inside the resource, as `spec.template.spec.containers[0].image`; '' for the whole resource. */
  path: string;
  /** `Kind/Name`; `<unknown>` stands for a missing kind, `<unnamed>` for a missing name. */
  resource: string;
}

export interface ValidationSummary {
  errors: number;
  warnings: number;
  info: number;
}

export interface ValidationResponse {
  /** False exactly when some result has severity `error`. */
  valid: boolean;
  results: ValidationResult[];
  summary: ValidationSummary;
}

export interface DeprecationEntry {
  kind: string;
  deprecatedApiVersion: string;
  /** Empty when no replacement API exists. */
  replacementApiVersion: string;
  /** Minor version (`1.25`) that stops serving it; empty when no removal is scheduled. */
  removedInVersion: string;
  message: string;
}

export interface DeprecationList {
  version: string;
  deprecations: DeprecationEntry[];
}

export interface ResourceListEntry {
  kind: string;
  /** Full group/version, `v1` for the core group. */
  apiVersion: string;
  description: string;
  /** The id the schema browser takes: `<group>.<version>.<Kind>`, `core` for the core group. */
  gvk: string;
  namespaced: boolean;
  /** True for kinds of a registered CustomResourceDefinition. */
  custom: boolean;
}

export type SchemaFieldType = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array' | 'map' | 'any';

export interface SchemaField {
  name: string;
  type: SchemaFieldType;
  required: boolean;
  description?: string;
  format?: string;
  enum?: unknown[];
  default?: unknown;
  /** For arrays and maps: the type of each item or value. */
  itemType?: SchemaFieldType;
  /** Fields of an object, or of each item of an array/map of objects. */
  fields?: SchemaField[];
  /** Set where a schema refers back to one of its ancestors; `fields` are then not repeated. */
  recursive?: boolean;
}

export interface SchemaTree {
  gvk: string;
  kind: string;
  apiVersion: string;
  version: string;
  description: string;
  namespaced: boolean;
  custom: boolean;
  fields: SchemaField[];
}
