import fs from 'node:fs';
import path from 'node:path';
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { InvalidInput } from '../errors';
import { repoRoot } from '../paths';
import { DISPLAY_NAME_RULE, isDisplayName } from '../users/display-name';
import { patternInWords } from './pattern-words';

export interface SchemaValidator {
  /** Throws InvalidInput `invalid request body: <reason>` unless `value` matches schema `id`. */
  check(id: string, value: unknown, what?: 'body' | 'query' | 'path'): void;
  schema(id: string): Record<string, unknown>;
  ids(): string[];
}

/**
 * One ajv instance for every schema under schemas/requests, each compiled on its first check: a process (and each
 * test file's platform) pays only for the routes it serves, about a second of CPU less per start.
 */
export function loadSchemaValidator(dir = path.join(repoRoot(), 'schemas', 'requests')): SchemaValidator {
  // discriminator: a oneOf by `type` (policy rules) reports the errors of the branch its type names, not of the first one.
  // verbose: errors carry their schema, so a pattern's message can quote the field's description.
  const ajv = new Ajv({
    verbose: true,
    allErrors: false,
    coerceTypes: false,
    useDefaults: true,
    strict: true,
    discriminator: true,
  });
  addFormats(ajv);
  ajv.addFormat('display-name', { type: 'string', validate: isDisplayName });
  const schemas = new Map<string, Record<string, unknown>>();
  const compiled = new Map<string, ValidateFunction>();
  const validator = (id: string): ValidateFunction => {
    let validate = compiled.get(id);
    if (!validate) {
      const schema = schemas.get(id);
      if (!schema) throw new Error(`no schema ${id}`);
      validate = ajv.compile({ ...schema, $id: id });
      compiled.set(id, validate);
    }
    return validate;
  };
  for (const file of fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    const schema = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as Record<string, unknown>;
    const id = file.replace(/\.json$/, '');
    schemas.set(id, schema);
  }
  return {
    check(id, value, what = 'body') {
      const validate = validator(id);
      if (!validate(value)) throw new InvalidInput(`invalid request ${what}: ${describe(validate.errors?.[0])}`);
    },
    schema(id) {
      const found = schemas.get(id);
      if (!found) throw new Error(`no schema ${id}`);
      return found;
    },
    ids: () => [...schemas.keys()],
  };
}

/** The allowed values of an enum or const error, listed (JSON-quoted when not plain strings). */
function allowedValues(values: unknown[]): string {
  return values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ');
}

/** Says what a pattern allows in words (or the field's description), then the pattern itself for the exact rule. */
function patternMessage(error: ErrorObject): string {
  const pattern = (error.params as { pattern?: string }).pattern ?? '';
  const parent = error.parentSchema as { description?: unknown } | undefined;
  const words = patternInWords(pattern) ?? (typeof parent?.description === 'string' ? parent.description : null);
  return words ? `must be ${words} (pattern ${pattern})` : `must match the pattern ${pattern}`;
}

function describe(error: ErrorObject | undefined): string {
  if (!error) return 'does not match the schema';
  const where = error.instancePath ? error.instancePath.slice(1).replace(/\//g, '.') : '';
  if (error.keyword === 'additionalProperties') {
    const extra = (error.params as { additionalProperty?: string }).additionalProperty ?? '';
    return `unknown field ${where ? `${where}.` : ''}${extra}`;
  }
  if (error.keyword === 'required') {
    const missing = (error.params as { missingProperty?: string }).missingProperty ?? '';
    return `${where ? `${where}.` : ''}${missing} is required`;
  }
  if (error.keyword === 'format' && (error.params as { format?: string }).format === 'display-name') {
    return `${where} ${DISPLAY_NAME_RULE}`;
  }
  if (error.keyword === 'enum') {
    return `${where || 'body'} must be one of: ${allowedValues((error.params as { allowedValues: unknown[] }).allowedValues)}`;
  }
  if (error.keyword === 'const') {
    return `${where || 'body'} must be ${allowedValues([(error.params as { allowedValue: unknown }).allowedValue])}`;
  }
  if (error.keyword === 'pattern') return `${where || 'body'} ${patternMessage(error)}`;
  if (error.keyword === 'format' && (error.params as { format?: string }).format === 'uuid') {
    return `${where || 'body'} must be a UUID such as 0b0e2f4c-6d1a-4f3e-9c7b-2a5d8e1f0c3a`;
  }
  return `${where || 'body'} ${error.message ?? 'is invalid'}`;
}
