import type { Schema } from '../../api/models';

/** The validation and schema routes' answers (src/validation/types.ts), as the served OpenAPI document describes them. */
export type ValidationResponse = Schema<'post-k8s-validate-result'>;
export type ValidationResult = ValidationResponse['results'][number];
export type ResourceEntry = Schema<'resource-list'>['resources'][number];
export type SchemaField = Schema<'schema-field'>;
export type SchemaTree = Schema<'schema-list'>;
export type RegisteredCrd = Schema<'crd'>;
