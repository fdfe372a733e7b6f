import path from 'node:path';
import { isRecord, type JsonRecord } from '../json';
import { curatedList, optionalString, optionalStringList, readCuratedYaml, requiredString } from './curated-file';

/** One row of schemas/k8s/constraints.yaml (see the header of that file). */
export interface Constraint {
  definition: string;
  property?: string;
  required?: boolean;
  enum?: string[];
  itemsEnum?: string[];
  minItems?: number;
  format?: string;
  enforcedBy: string;
}

export interface CuratedConstraints {
  constraints: Constraint[];
  /** Kinds that are never stored, so they need neither metadata.name nor metadata.generateName. */
  nameNotRequired: Set<string>;
}

export function loadConstraints(dir: string): CuratedConstraints {
  const file = path.join(dir, 'constraints.yaml');
  const doc = readCuratedYaml(file);
  const constraints = curatedList(doc, 'constraints', file).map((entry, i): Constraint => {
    const where = `${file} constraints[${i}]`;
    const minItems = entry.minItems;
    if (minItems !== undefined && (typeof minItems !== 'number' || !Number.isInteger(minItems))) {
      throw new Error(`${where}: "minItems" must be an integer`);
    }
    if (entry.required !== undefined && entry.required !== true) throw new Error(`${where}: "required" must be true`);
    return {
      definition: requiredString(entry, 'definition', where),
      property: optionalString(entry, 'property', where),
      required: entry.required === true ? true : undefined,
      enum: optionalStringList(entry, 'enum', where),
      itemsEnum: optionalStringList(entry, 'itemsEnum', where),
      minItems,
      format: optionalString(entry, 'format', where),
      enforcedBy: requiredString(entry, 'enforcedBy', where),
    };
  });
  const nameNotRequired = optionalStringList(doc, 'nameNotRequired', file) ?? [];
  return { constraints, nameNotRequired: new Set(nameNotRequired) };
}

function propertySchema(definition: JsonRecord, property: string): JsonRecord | undefined {
  const properties = definition.properties;
  if (!isRecord(properties)) return undefined;
  const schema = properties[property];
  return isRecord(schema) ? schema : undefined;
}

function applyToField(field: JsonRecord, constraint: Constraint): void {
  if (constraint.enum) field.enum = constraint.enum;
  if (constraint.minItems !== undefined) field.minItems = constraint.minItems;
  if (constraint.format) field.format = constraint.format;
  if (constraint.itemsEnum) {
    const items = isRecord(field.items) ? field.items : {};
    field.items = { ...items, enum: constraint.itemsEnum };
  }
}

/**
 * Lays the curated constraints over one version's definitions, in place. Returns the entries that found no
 * definition or property to apply to, so a test can insist there are none.
 */
export function applyConstraints(definitions: Record<string, JsonRecord>, constraints: Constraint[]): Constraint[] {
  const unmatched: Constraint[] = [];
  for (const constraint of constraints) {
    const definition = definitions[constraint.definition];
    if (!definition) {
      unmatched.push(constraint);
      continue;
    }
    if (constraint.property === undefined) {
      applyToField(definition, constraint);
      continue;
    }
    const field = propertySchema(definition, constraint.property);
    if (!field) {
      unmatched.push(constraint);
      continue;
    }
    applyToField(field, constraint);
    if (constraint.required) {
      const required = Array.isArray(definition.required) ? definition.required : [];
      if (!required.includes(constraint.property)) definition.required = [...required, constraint.property];
      // The API server's "Required value" for a string is about emptiness, not only absence.
      if (field.type === 'string') field.minLength = 1;
    }
  }
  return unmatched;
}
