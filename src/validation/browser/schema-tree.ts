import { isRecord, type JsonRecord } from '../json';
import type { SchemaField, SchemaFieldType } from '../types';

const SCALARS = new Set(['string', 'integer', 'number', 'boolean']);

/** Follows a `$ref` into `definitions`; the referring node's description wins over the target's. */
function resolve(node: JsonRecord, definitions: Record<string, JsonRecord>): { schema: JsonRecord; ref?: string } {
  const ref = typeof node.$ref === 'string' ? node.$ref.replace('#/definitions/', '') : undefined;
  const target = ref !== undefined ? definitions[ref] : undefined;
  if (!target) return { schema: node };
  return { schema: { ...target, ...node, description: node.description ?? target.description }, ref };
}

/** IntOrString and Quantity are written as strings in manifests; their format says what else they take. */
function fieldType(schema: JsonRecord): { type: SchemaFieldType; format?: string } {
  const format = typeof schema.format === 'string' ? schema.format : undefined;
  const t = schema.type;
  if (Array.isArray(t))
    return { type: 'string', format: format ?? (t.includes('integer') ? 'int-or-string' : 'quantity') };
  if (schema['x-kubernetes-int-or-string'] === true) return { type: 'string', format: 'int-or-string' };
  if (typeof t === 'string' && SCALARS.has(t)) return { type: t as SchemaFieldType, ...(format ? { format } : {}) };
  if (t === 'array') return { type: 'array' };
  if (t === 'object' || isRecord(schema.properties) || isRecord(schema.additionalProperties)) {
    return { type: isRecord(schema.properties) || !isRecord(schema.additionalProperties) ? 'object' : 'map' };
  }
  return { type: 'any' };
}

export class SchemaTreeBuilder {
  constructor(private readonly definitions: Record<string, JsonRecord>) {}

  /** The fields of an object schema, recursively; a definition met again below itself is marked recursive. */
  fields(node: JsonRecord, ancestors: ReadonlySet<string> = new Set()): SchemaField[] {
    const { schema } = resolve(node, this.definitions);
    const properties = isRecord(schema.properties) ? schema.properties : {};
    const required = new Set(Array.isArray(schema.required) ? schema.required : []);
    return Object.entries(properties)
      .filter((entry): entry is [string, JsonRecord] => isRecord(entry[1]))
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, sub]) => this.field(name, sub, required.has(name), ancestors));
  }

  private field(name: string, node: JsonRecord, required: boolean, ancestors: ReadonlySet<string>): SchemaField {
    const { schema, ref } = resolve(node, this.definitions);
    const { type, format } = fieldType(schema);
    const field: SchemaField = { name, type, required };
    if (typeof schema.description === 'string') field.description = schema.description;
    if (format) field.format = format;
    if (Array.isArray(schema.enum)) field.enum = schema.enum;
    if (schema.default !== undefined) field.default = schema.default;
    if (ref !== undefined && ancestors.has(ref)) {
      field.recursive = true;
      return field;
    }
    const below = ref !== undefined ? new Set([...ancestors, ref]) : ancestors;
    const inner = type === 'array' ? schema.items : type === 'map' ? schema.additionalProperties : schema;
    if (!isRecord(inner)) return field;
    if (type === 'array' || type === 'map') {
      const item = resolve(inner, this.definitions);
      field.itemType = fieldType(item.schema).type;
      if (Array.isArray(item.schema.enum)) field.enum = item.schema.enum;
      if (item.ref !== undefined && below.has(item.ref)) {
        field.recursive = true;
        return field;
      }
      const nested = this.fields(inner, item.ref !== undefined ? new Set([...below, item.ref]) : below);
      if (nested.length > 0) field.fields = nested;
      return field;
    }
    if (type === 'object') {
      const nested = this.fields(inner, below);
      if (nested.length > 0) field.fields = nested;
    }
    return field;
  }
}
