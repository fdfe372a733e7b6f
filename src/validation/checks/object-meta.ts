import { isRecord, ownField, type JsonRecord } from '../json';
import type { ValidationResult } from '../types';

/**
 * metadata.name, or metadata.generateName, is required of every stored object (apimachinery
 * ValidateObjectMeta: "name or generateName is required"); the schema cannot say "one of two".
 * A warning, not an error: tools fill names in (kustomize namePrefix, kubectl create --generate-name),
 * and the corpus counts a nameless ConfigMap as valid (kubernetes-validate's resource.yaml).
 */
export function checkObjectName(
  object: JsonRecord,
  kind: string,
  nameNotRequired: ReadonlySet<string>,
  resource: string,
): ValidationResult[] {
  if (nameNotRequired.has(kind)) return [];
  const metadata = ownField(object, 'metadata');
  const present = (key: string): boolean => {
    const value = isRecord(metadata) ? ownField(metadata, key) : undefined;
    return typeof value === 'string' && value !== '';
  };
  if (present('name') || present('generateName')) return [];
  if (metadata !== undefined && !isRecord(metadata)) return []; // already a type error of the schema check
  const message = 'metadata.name or metadata.generateName is required before the API server accepts this object';
  return [{ severity: 'warning', message, path: 'metadata.name', resource }];
}
