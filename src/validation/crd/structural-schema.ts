import { isRecord, type JsonRecord } from '../json';

const TYPES = new Set(['object', 'array', 'string', 'integer', 'number', 'boolean']);

/**
 * The structural-schema rules of apiextensions-apiserver that matter for validating custom resources
 * (see "Specifying a structural schema" in the Kubernetes docs); returns the first violation found.
 * Patterns are schema-patterns.ts' concern: they run on a linear-time engine, so no shape of pattern is dangerous.
 */
export function structuralViolation(schema: JsonRecord, path: string, isRoot: boolean): string | undefined {
  if (schema.$ref !== undefined) return `${path}.$ref: references are not allowed`;
  const intOrString = schema['x-kubernetes-int-or-string'] === true;
  const preserve = schema['x-kubernetes-preserve-unknown-fields'];
  if (preserve !== undefined && preserve !== true) {
    return `${path}.x-kubernetes-preserve-unknown-fields: must be true or absent`;
  }
  const type = schema.type;
  if (type === undefined) {
    if (!intOrString && preserve !== true) return `${path}.type: must not be empty`;
  } else if (typeof type !== 'string' || !TYPES.has(type)) {
    return `${path}.type: must be one of ${[...TYPES].join(', ')}`;
  }
  if (isRoot && type !== 'object') return `${path}.type: the root schema must be of type object`;
  const properties = schema.properties;
  if (properties !== undefined && !isRecord(properties)) return `${path}.properties: must be a mapping`;
  if (isRecord(properties) && schema.additionalProperties !== undefined && schema.additionalProperties !== false) {
    return `${path}: properties and additionalProperties are mutually exclusive`;
  }
  if (type === 'array' && !isRecord(schema.items)) return `${path}.items: must be a schema when type is array`;
  if (isRoot && isRecord(properties) && isRecord(properties.metadata)) {
    const meta = properties.metadata;
    const extra = Object.keys(isRecord(meta.properties) ? meta.properties : {}).filter(
      (k) => k !== 'name' && k !== 'generateName',
    );
    if (extra.length > 0) return `${path}.properties.metadata: only name and generateName may be specified`;
  }
  for (const [name, sub] of Object.entries(isRecord(properties) ? properties : {})) {
    if (!isRecord(sub)) return `${path}.properties.${name}: must be a schema`;
    if (isRoot && name === 'metadata') continue;
    const found = structuralViolation(sub, `${path}.properties.${name}`, false);
    if (found) return found;
  }
  for (const key of ['items', 'additionalProperties']) {
    const sub = schema[key];
    if (isRecord(sub)) {
      const found = structuralViolation(sub, `${path}.${key}`, false);
      if (found) return found;
    }
  }
  return undefined;
}
