/** Shapes of the validation and schema routes' answers (src/validation/types.ts). */

export interface ValidationResult {
  severity: 'error' | 'warning' | 'info';
  message: string;
  path: string;
  resource: string;
}

export interface ValidationResponse {
  valid: boolean;
  results: ValidationResult[];
  summary: { errors: number; warnings: number; info: number };
}

export interface ResourceEntry {
  kind: string;
  apiVersion: string;
  description: string;
  gvk: string;
  namespaced: boolean;
  custom: boolean;
}

export interface SchemaField {
  name: string;
  type: string;
  required: boolean;
  description?: string;
  format?: string;
  enum?: unknown[];
  default?: unknown;
  itemType?: string;
  fields?: SchemaField[];
  recursive?: boolean;
}

export interface SchemaTree {
  gvk: string;
  kind: string;
  apiVersion: string;
  description: string;
  fields: SchemaField[];
}

export interface RegisteredCrd {
  id: string;
  name: string;
  group: string;
  kind: string;
  versions: string[];
  createdAt: string;
}
