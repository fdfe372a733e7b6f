import { isRecord, ownField, type JsonRecord } from '../json';
import type { ValidationResult } from '../types';

/**
 * metadata.name, or metadata.generateName, is required of every stored object (apimachinery
 * ValidateObjectMeta: "name or generateName is required"); the schema cannot say "one of two".
 */
export function checkObjectName(
  object: JsonRecord,
  kind: string,
  nameNotRequired: ReadonlySet<string>,
  resource: string,
): ValidationResult[] {
  if (nameNotRequired.has(kind)) return [];
  const metadata = ownField(object, 'metadata');
  const present = (key: string): boolean =>
    isRecord(metadata) && typeof ownField(metadata, key) === 'string' && ownField(metadata, key) !== '';
  if (present('name') || present('generateName')) return [];
  if (metadata !== undefined && !isRecord(metadata)) return []; // already a type error of the schema check
  return [
    {
      severity: 'error',
      message: 'metadata.name or metadata.generateName is required',
      path: 'metadata.name',
      resource,
    },
  ];
}
