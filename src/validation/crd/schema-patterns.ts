import { compileSafePattern, UnsupportedPattern } from '../../safe-regex';
import { UnsupportedCrdPattern } from '../errors';
import { isRecord, type JsonRecord } from '../json';

/** Keywords of a structural schema whose values are sub-schemas (one, a list, or a map of them). */
const SCHEMA_KEYS = ['items', 'additionalProperties', 'not'] as const;
const SCHEMA_LIST_KEYS = ['allOf', 'anyOf', 'oneOf'] as const;
const SCHEMA_MAP_KEYS = ['properties', 'patternProperties'] as const;

function check(schema: JsonRecord, path: string): void {
  if (typeof schema.pattern === 'string') {
    try {
      compileSafePattern(schema.pattern);
    } catch (error) {
      if (error instanceof UnsupportedPattern) throw new UnsupportedCrdPattern(`${path}.pattern`, error.reason);
      throw error;
    }
  }
  for (const key of SCHEMA_KEYS) {
    const sub = schema[key];
    if (isRecord(sub)) check(sub, `${path}.${key}`);
  }
  for (const key of SCHEMA_LIST_KEYS) {
    const list = schema[key];
    if (Array.isArray(list)) list.forEach((sub, i) => isRecord(sub) && check(sub, `${path}.${key}[${i}]`));
  }
  for (const key of SCHEMA_MAP_KEYS) {
    const map = schema[key];
    if (!isRecord(map)) continue;
    for (const [name, sub] of Object.entries(map)) {
      if (key === 'patternProperties') check({ pattern: name }, `${path}.${key}[${JSON.stringify(name)}]`);
      if (isRecord(sub)) check(sub, `${path}.${key}.${name}`);
    }
  }
}

/**
 * Every `pattern` of a CRD version's schema must compile on the linear-time engine the validators run them on
 * (src/safe-regex): refused at upload with a 400 naming the pattern's place, never found out while validating.
 */
export function checkSchemaPatterns(schema: JsonRecord, path: string): void {
  check(schema, path);
}
