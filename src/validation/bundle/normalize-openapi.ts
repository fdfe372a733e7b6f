import { isRecord, setOwn, type JsonRecord } from '../json';

/** Vendor keys that matter for validating or browsing; the rest (patch strategies, list/map topology) do not. */
const KEPT_EXTENSIONS = new Set([
  'x-kubernetes-preserve-unknown-fields',
  'x-kubernetes-int-or-string',
  'x-kubernetes-embedded-resource',
]);

const SUBSCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf'];

function rewriteRef(ref: string): string {
  return ref.replace(/^#\/components\/schemas\//, '#/definitions/');
}

/** `oneOf: [{type: integer}, {type: string}]` (IntOrString, Quantity) as one `type` list: one clear error, not three. */
function plainTypeUnion(list: unknown[]): string[] | undefined {
  const types: string[] = [];
  for (const item of list) {
    if (!isRecord(item) || Object.keys(item).length !== 1 || typeof item.type !== 'string') return undefined;
    types.push(item.type);
  }
  return types.length > 1 ? types : undefined;
}

/**
 * Kubernetes' OpenAPI v3 documents wrap every reference as `allOf: [{$ref}]` so that siblings (description,
 * default) are legal in OpenAPI 3.0. JSON Schema draft-07 as ajv runs it allows siblings of $ref, so the
 * wrapper goes; refs are rewritten to point into one `definitions` map per Kubernetes version.
 */
export function normalizeOpenApiSchema(node: JsonRecord): JsonRecord {
  const out: JsonRecord = {};
  for (const [key, value] of Object.entries(node)) {
    if (key.startsWith('x-') && !KEPT_EXTENSIONS.has(key)) continue;
    if (key === '$ref' && typeof value === 'string') {
      out.$ref = rewriteRef(value);
    } else if (key === 'properties' && isRecord(value)) {
      out.properties = Object.fromEntries(
        Object.entries(value).map(([name, sub]) => [name, isRecord(sub) ? normalizeOpenApiSchema(sub) : sub]),
      );
    } else if ((key === 'items' || key === 'additionalProperties' || key === 'not') && isRecord(value)) {
      out[key] = normalizeOpenApiSchema(value);
    } else if (SUBSCHEMA_LISTS.includes(key) && Array.isArray(value)) {
      out[key] = value.map((sub) => (isRecord(sub) ? normalizeOpenApiSchema(sub) : sub));
    } else {
      setOwn(out, key, value);
    }
  }
  const allOf = out.allOf;
  if (Array.isArray(allOf) && allOf.length === 1 && isRecord(allOf[0]) && typeof allOf[0].$ref === 'string') {
    delete out.allOf;
    out.$ref = allOf[0].$ref;
  }
  const oneOf = out.oneOf;
  const union = Array.isArray(oneOf) && out.type === undefined ? plainTypeUnion(oneOf) : undefined;
  if (union) {
    delete out.oneOf;
    out.type = union;
  }
  return out;
}
