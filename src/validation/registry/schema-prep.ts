import { isRecord, type JsonRecord } from '../json';

const PRESERVE = 'x-kubernetes-preserve-unknown-fields';
const INT_OR_STRING = 'x-kubernetes-int-or-string';
const EMBEDDED = 'x-kubernetes-embedded-resource';

function isIntOrStringBranch(list: unknown): boolean {
  return (
    Array.isArray(list) &&
    list.length === 2 &&
    list.every((b) => isRecord(b) && (b.type === 'integer' || b.type === 'string') && Object.keys(b).length === 1)
  );
}

/**
 * Rewrites an OpenAPI v3 schema (built-in or a CRD's, already free of `allOf: [$ref]` wrappers) into what
 * the validator runs, in place:
 * - objects that list their properties are closed (`additionalProperties: false`), so fields unknown to the
 *   schema surface as ajv errors that the engine reports as warnings; `x-kubernetes-preserve-unknown-fields`
 *   keeps them open, as the API server does;
 * - `x-kubernetes-int-or-string` becomes `type: [integer, string]` (with its anyOf spelling dropped);
 * - an embedded resource always admits apiVersion, kind and metadata;
 * - `nullable` goes: the engine drops null values before validation, as the API server prunes them;
 * - `description` goes: no check reads it, and it would be most of a precompiled validator's size.
 */
export function prepareForValidation(schema: JsonRecord): void {
  delete schema.nullable;
  delete schema.description;
  if (schema[INT_OR_STRING] === true) {
    schema.type = ['integer', 'string'];
    if (isIntOrStringBranch(schema.anyOf)) delete schema.anyOf;
    if (Array.isArray(schema.allOf)) {
      schema.allOf = schema.allOf.filter((part) => !(isRecord(part) && isIntOrStringBranch(part.anyOf)));
    }
  }
  const properties = schema.properties;
  if (isRecord(properties)) {
    if (schema[EMBEDDED] === true) {
      properties.apiVersion ??= { type: 'string' };
      properties.kind ??= { type: 'string' };
      properties.metadata ??= { type: 'object' };
    }
    for (const sub of Object.values(properties)) if (isRecord(sub)) prepareForValidation(sub);
    if (schema.additionalProperties === undefined && schema[PRESERVE] !== true) schema.additionalProperties = false;
  }
  for (const key of ['items', 'additionalProperties', 'not']) {
    const sub = schema[key];
    if (isRecord(sub)) prepareForValidation(sub);
  }
  for (const key of ['allOf', 'anyOf', 'oneOf']) {
    const list = schema[key];
    if (Array.isArray(list)) for (const sub of list) if (isRecord(sub)) prepareForValidation(sub);
  }
}

/** A release's definitions as the validator runs them: a closed copy, the published ones stay as they are. */
export function validationDefinitions(definitions: Record<string, JsonRecord>): Record<string, JsonRecord> {
  const copy = structuredClone(definitions);
  for (const schema of Object.values(copy)) prepareForValidation(schema);
  return copy;
}
